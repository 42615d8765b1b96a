/**
 * Part `shop-clearing` (issue 26, item 1): `PATCH /api/v1/orders/:id/clear` end to end on placed
 * orders of one e-book, in a shop with a webhook (order_cleared and order_status_changed, to the
 * local receiver) and a mail on the Paid status. A clearing counts when the last of its effects is
 * in the effect log (shop_order_effects): the order has as many rows as the warm-up's orders
 * ended with, none `failed`; its time is PATCH sent (or due) -> that last row's `at`.
 * - bursts: `n` PATCHes at 32 concurrent, `rounds` rounds once the task queue is idle; per second:
 *   n over first PATCH sent -> last effect; medians of the rounds; the ratio is to our no-op
 *   workflow rate of the same run (temporal-noop.ts);
 * - steady: open loop, `rate` PATCHes a second for `durationS`, PATCH due -> last effect, p99.
 * - overload (issue 38 item 5): open loop at twice the bursts' median rate for `overloadS`: the
 *   rate the clearings complete at (first PATCH -> last effect) against the bursts' (the saturated
 *   rate), and the workflow tasks redone over every clearing of it.
 * The orders are placed before each round (not timed).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { HttpLoad } from './http-load.ts';
import { cpuFigures, cpuStretch, medianCpuFigures, type CpuFigures } from './cpu-usage.ts';
import { medianTaskCounts, taskCountsOf, type TaskCounts } from './history.ts';
import { untilQueueIdle } from './queue-idle.ts';
import { clearOrderWorkflowId } from '../../domain/shop/workflow-ids.ts';
import type { BenchReceiver } from './receiver.ts';
import { createBenchShop, createEbook, placeOrder, type BenchShop } from './shop-fixtures.ts';
import type { BenchStack } from './stack.ts';
import { median, percentile } from './stats.ts';

const POLL_INTERVAL_MS = 50;
const DONE_TIMEOUT_MS = 120_000;
/** How long the warm-up orders' effect count must stay the same to be taken as complete. */
const SETTLE_MS = 5_000;
const PLACE_CONCURRENCY = 8;

export interface ClearingOptions {
  stack: BenchStack;
  http: HttpLoad;
  receiver: BenchReceiver;
  n: number;
  warmupN: number;
  rounds: number;
  concurrency: number;
  steady: { rate: number; durationS: number };
  /** Seconds of the open loop at twice the saturated rate. */
  overloadS: number;
  log: (line: string) => void;
}

export interface ClearingFigures {
  /** Effect rows a clearing ends with (clearing and the Paid status's own effects). */
  effects_per_clearing: number;
  n: number;
  concurrency: number;
  rounds: number;
  per_second: number;
  p50_ms: number;
  p99_ms: number;
  rounds_per_second: number[];
  /** Clearings complete in the worst round (n when all). */
  completed: number;
  failed_effects: number;
  patch_p99_ms: number;
  steady: { rate: number; duration_s: number; sent: number; completed: number; p50_ms: number; p99_ms: number; patch_p99_ms: number; start_lag_p99_ms: number };
  /** Medians over the last round's orders: PATCH -> each effect's row (by effect name). */
  effect_at_ms: Record<string, number>;
  /** CPU per clearing by process (medians of the rounds; PATCHes sent -> every effect seen). */
  cpu_ms_per_op: CpuFigures['ms_per_op'];
  cpu_cores_busy: CpuFigures['cores_busy'];
  /** What a clearing costs Temporal (its workflow and the children it started; medians over the last round): a no-op workflow is 1 workflow, 1 workflow task. */
  temporal_per_clearing: TaskCounts;
  /** Workflow tasks timed out or failed (and so run again) in each burst round, over every clearing's histories. */
  workflow_tasks_redone: number[];
  /** Twice the saturated rate (the bursts' median), open loop: the rate cleared, its ratio to the saturated rate (>= 0.9), the tasks redone (0). */
  overload: { rate: number; duration_s: number; sent: number; completed: number; per_second: number; vs_saturated: number; workflow_tasks_redone: number };
}

interface Setup {
  shop: BenchShop;
  productId: number;
  db: pg.Client;
}

async function setUp(o: ClearingOptions): Promise<Setup> {
  const shop = await createBenchShop(o.stack.apiUrl, o.stack.adminToken, 'clearing');
  const productId = await createEbook(shop, 'Atlas PDF', '49.00');
  await shop.operator('POST', '/shops/:shop/webhooks', { url: o.receiver.url('/clearing'), events: ['order_cleared', 'order_status_changed'], secret_key: 'bench-clearing-signing-secret-0123456789' });
  const sender = await shop.operator<{ id: number }>('POST', '/shops/:shop/senders', { name: 'Bench shop', email: 'shop@bench.example.com' });
  await shop.api('PATCH', `/configuration/order_statuses/${shop.statuses.Paid}`, {
    send_email_on_status_change: true,
    sender_id: sender.id,
    email: { subject: 'Order {{NUMER_ZAMOWIENIA}} is paid', content: '<p>Thank you, total {{KWOTA}}</p>' },
  });
  const db = new pg.Client({ connectionString: o.stack.databaseUrl });
  await db.connect();
  // A stop mid-run drops the database under us: logged, not an unhandled error.
  db.on('error', (error) => o.log(`shop-clearing: database connection: ${error.message}`));
  return { shop, productId, db };
}

async function placeOrders(s: Setup, name: string, count: number): Promise<number[]> {
  const ids: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: PLACE_CONCURRENCY }, async () => {
      while (next < count) {
        const i = next++;
        ids[i] = (await placeOrder(s.shop, `${name}-${i}@bench.example.com`, [{ product_id: s.productId }])).id;
      }
    }),
  );
  return ids;
}

interface EffectState {
  count: number;
  failed: number;
  lastAtEpochMs: number;
}

async function effectStates(s: Setup, orderIds: number[]): Promise<Map<number, EffectState>> {
  const { rows } = await s.db.query<{ order_id: number; count: string; failed: string; last_at: Date }>(
    `select order_id, count(*) as count, count(*) filter (where status = 'failed') as failed, max(at) as last_at
       from shop_order_effects where shop_id = $1 and order_id = any($2) group by order_id`,
    [s.shop.id, orderIds],
  );
  return new Map(rows.map((r) => [r.order_id, { count: Number(r.count), failed: Number(r.failed), lastAtEpochMs: r.last_at.getTime() }]));
}

/** Polls until every order has `expected` effect rows (or the timeout); the states of the last poll. */
async function untilEffects(s: Setup, orderIds: number[], expected: number): Promise<Map<number, EffectState>> {
  const deadline = Date.now() + DONE_TIMEOUT_MS;
  for (;;) {
    const states = await effectStates(s, orderIds);
    const done = orderIds.filter((id) => (states.get(id)?.count ?? 0) >= expected).length;
    if (done === orderIds.length || Date.now() > deadline) return states;
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
  }
}

/** The effect count the warm-up orders settle at (all the same, or the bench fails). */
async function settledEffectCount(s: Setup, orderIds: number[], log: (line: string) => void): Promise<number> {
  let last = '';
  let since = Date.now();
  const deadline = Date.now() + DONE_TIMEOUT_MS;
  for (;;) {
    const states = await effectStates(s, orderIds);
    const counts = orderIds.map((id) => states.get(id)?.count ?? 0);
    const key = counts.join(',');
    if (key !== last) [last, since] = [key, Date.now()];
    else if (Date.now() - since >= SETTLE_MS && counts[0]! > 0) {
      if (new Set(counts).size !== 1) throw new Error(`shop clearing warm-up: the orders ended with different effect counts (${key})`);
      log(`shop clearing: a clearing ends with ${counts[0]} effect rows`);
      return counts[0]!;
    }
    if (Date.now() > deadline) throw new Error(`shop clearing warm-up: effects did not settle (${key})`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const clearUrls = (o: ClearingOptions, ids: number[]) => ids.map((id) => `${o.stack.apiUrl}/api/v1/orders/${id}/clear`);

export async function measureClearing(o: ClearingOptions): Promise<ClearingFigures> {
  const s = await setUp(o);
  try {
    const tag = randomBytes(3).toString('hex');
    const headers = { 'x-api-key': s.shop.key };
    const warmupIds = await placeOrders(s, `warmup-${tag}`, o.warmupN);
    await o.http.run({ method: 'PATCH', url: `${o.stack.apiUrl}/`, urls: clearUrls(o, warmupIds), headers, concurrency: o.concurrency, durationMs: 60_000, expectStatus: 200 });
    const expected = await settledEffectCount(s, warmupIds, o.log);

    const rounds: { perSecond: number; latencies: number[]; completed: number; failed: number; patchP99: number; starts: number[]; ids: number[]; cpu: CpuFigures; tasks: TaskCounts[]; redone: number }[] = [];
    for (let r = 0; r < o.rounds; r++) {
      const ids = await placeOrders(s, `round${r}-${tag}`, o.n);
      await untilQueueIdle(o.stack, o.log);
      const cpu = cpuStretch(o.stack.cpuGroups());
      const reply = await o.http.run({ method: 'PATCH', url: `${o.stack.apiUrl}/`, urls: clearUrls(o, ids), headers, concurrency: o.concurrency, durationMs: 60_000, expectStatus: 200, record: true });
      const starts = reply.startsEpochMs ?? [];
      const states = await untilEffects(s, ids, expected);
      const cpuSpan = cpu.stop();
      const latencies: number[] = [];
      let last = 0;
      ids.forEach((id, i) => {
        const state = states.get(id);
        if (!state || state.count < expected || state.failed > 0 || starts[i] === undefined) return;
        latencies.push(state.lastAtEpochMs - starts[i]);
        last = Math.max(last, state.lastAtEpochMs);
      });
      const first = Math.min(...starts.filter((t) => t !== undefined));
      const failed = [...states.values()].reduce((sum, st) => sum + st.failed, 0);
      // Every clearing's histories, read once the CPU span ended: what it cost Temporal and which tasks were redone.
      const tasks = await Promise.all(ids.map((orderId) => taskCountsOf(o.stack.temporal, clearOrderWorkflowId({ shopId: s.shop.id, orderId }))));
      const redone = tasks.reduce((sum, t) => sum + t.workflow_tasks_redone, 0);
      rounds.push({ perSecond: latencies.length / ((last - first) / 1000), latencies, completed: latencies.length, failed, patchP99: percentile(reply.result.latenciesMs, 99), starts, ids, cpu: cpuFigures(cpuSpan, latencies.length), tasks, redone });
      o.log(`shop clearing round ${r + 1}/${o.rounds}: ${latencies.length}/${o.n} complete, ${rounds.at(-1)!.perSecond.toFixed(1)}/s, p50 ${Math.round(percentile(latencies, 50))} ms, p99 ${Math.round(percentile(latencies, 99))} ms, ${redone} workflow tasks redone${failed ? `, ${failed} failed effects` : ''}`);
    }
    const effectAt = await effectTimes(s, rounds.at(-1)!.ids, rounds.at(-1)!.starts);
    const temporalPerClearing = medianTaskCounts(rounds.at(-1)!.tasks);

    // Overload: twice the saturated rate, open loop (issue 38 item 5).
    await untilQueueIdle(o.stack, o.log);
    const saturated = median(rounds.map((r) => r.perSecond));
    const overloadRate = Math.max(1, Math.round(2 * saturated));
    const heavy = await openLoop(o, s, `overload-${tag}`, overloadRate, o.overloadS, expected);
    const heavyCompleted = heavy.done.filter((t) => t !== null) as number[];
    const heavyPerSecond = heavyCompleted.length / ((Math.max(...heavyCompleted) - Math.min(...heavy.due)) / 1000);
    const heavyTasks = await Promise.all(heavy.ids.map((orderId) => taskCountsOf(o.stack.temporal, clearOrderWorkflowId({ shopId: s.shop.id, orderId }))));
    const overload = {
      rate: overloadRate,
      duration_s: o.overloadS,
      sent: heavy.ids.length,
      completed: heavyCompleted.length,
      per_second: heavyPerSecond,
      vs_saturated: heavyPerSecond / saturated,
      workflow_tasks_redone: heavyTasks.reduce((sum, t) => sum + t.workflow_tasks_redone, 0),
    };
    o.log(`shop clearing overload ${overloadRate}/s for ${o.overloadS} s: ${overload.completed}/${overload.sent} complete at ${heavyPerSecond.toFixed(1)}/s, ${overload.vs_saturated.toFixed(2)} x the bursts' ${saturated.toFixed(1)}/s, ${overload.workflow_tasks_redone} workflow tasks redone`);

    // Steady: open loop.
    await untilQueueIdle(o.stack, o.log);
    const steadyRun = await openLoop(o, s, `steady-${tag}`, o.steady.rate, o.steady.durationS, expected);
    // A clearing not complete counts until the wait ended (a lower bound).
    const steadyLatencies = steadyRun.ids.map((_, i) => (steadyRun.done[i] ?? steadyRun.waitEnded) - (steadyRun.due[i] ?? steadyRun.waitEnded));
    const steadyCompleted = steadyRun.done.filter((t) => t !== null).length;
    const steady = {
      rate: o.steady.rate,
      duration_s: o.steady.durationS,
      sent: steadyRun.ids.length,
      completed: steadyCompleted,
      p50_ms: percentile(steadyLatencies, 50),
      p99_ms: percentile(steadyLatencies, 99),
      patch_p99_ms: percentile(steadyRun.reply.result.latenciesMs, 99),
      start_lag_p99_ms: steadyRun.reply.startLagP99Ms ?? Number.NaN,
    };
    o.log(`shop clearing steady ${o.steady.rate}/s for ${o.steady.durationS} s: ${steadyCompleted}/${steadyRun.ids.length} complete, p50 ${Math.round(steady.p50_ms)} ms, p99 ${Math.round(steady.p99_ms)} ms`);

    return {
      effects_per_clearing: expected,
      n: o.n,
      concurrency: o.concurrency,
      rounds: o.rounds,
      per_second: median(rounds.map((r) => r.perSecond)),
      p50_ms: median(rounds.map((r) => percentile(r.latencies, 50))),
      p99_ms: median(rounds.map((r) => percentile(r.latencies, 99))),
      rounds_per_second: rounds.map((r) => r.perSecond),
      completed: Math.min(...rounds.map((r) => r.completed)),
      failed_effects: rounds.reduce((sum, r) => sum + r.failed, 0),
      patch_p99_ms: median(rounds.map((r) => r.patchP99)),
      steady,
      effect_at_ms: effectAt,
      temporal_per_clearing: temporalPerClearing,
      workflow_tasks_redone: rounds.map((r) => r.redone),
      overload,
      ...(({ ms_per_op, cores_busy }) => ({ cpu_ms_per_op: ms_per_op, cpu_cores_busy: cores_busy }))(medianCpuFigures(rounds.map((r) => r.cpu))),
    };
  } finally {
    await s.db.end();
  }
}

/**
 * `rate` PATCHes a second for `durationS` on orders placed first, then the wait for their effects:
 * per order, when its PATCH was due and when its last effect was recorded (null: not complete, or
 * an effect failed).
 */
async function openLoop(o: ClearingOptions, s: Setup, name: string, rate: number, durationS: number, expected: number) {
  const ids = await placeOrders(s, name, Math.round(rate * durationS));
  const reply = await o.http.run({ method: 'PATCH', url: `${o.stack.apiUrl}/`, urls: clearUrls(o, ids), headers: { 'x-api-key': s.shop.key }, concurrency: 1, ratePerSecond: rate, durationMs: durationS * 1000, expectStatus: 200, record: true });
  const states = await untilEffects(s, ids, expected);
  const waitEnded = Date.now();
  const due = reply.startsEpochMs ?? [];
  const done = ids.map((id) => {
    const state = states.get(id);
    return state && state.count >= expected && state.failed === 0 ? state.lastAtEpochMs : null;
  });
  return { ids, reply, due, done, waitEnded };
}

/** Per effect name: the median over the orders of PATCH sent -> the effect's row. */
async function effectTimes(s: Setup, ids: number[], starts: number[]): Promise<Record<string, number>> {
  const { rows } = await s.db.query<{ order_id: number; effect: string; source: string; at: Date }>(
    'select order_id, effect, source, max(at) as at from shop_order_effects where shop_id = $1 and order_id = any($2) group by order_id, effect, source',
    [s.shop.id, ids],
  );
  const startOf = new Map(ids.map((id, i) => [id, starts[i]]));
  const byEffect = new Map<string, number[]>();
  for (const row of rows) {
    const start = startOf.get(row.order_id);
    if (start === undefined) continue;
    const key = `${row.source}:${row.effect}`;
    byEffect.set(key, [...(byEffect.get(key) ?? []), row.at.getTime() - start]);
  }
  return Object.fromEntries([...byEffect].map(([key, values]) => [key, median(values)]).sort((a, b) => (a[1] as number) - (b[1] as number)));
}

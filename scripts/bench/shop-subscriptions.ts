/**
 * Part `shop-subscriptions` (issue 26, item 5): `subscribers` subscribers of an automatic plan
 * (the shop's test gateway approving every charge) written by SQL with a running period ending in
 * a day, then their renewal workflows (`subscriberRenewal`, the id the API gives them) started
 * from the bench's client at 32 concurrent: the start rate (start calls, and until the task queue
 * has no backlog), then the RSS of the worker's process group and of the Temporal server.
 * - history: `sample` subscribers renewed `renewals` times, each time their period end moved a
 *   few seconds ahead through `PATCH /api/v1/subscribers/:id/period` (short periods as input);
 *   the events of each one's current run after the last renewal (continue-as-new bounds them);
 * - renewal lag: `sameMinute` subscribers' period ends moved to one instant T through the same
 *   PATCH; per subscriber, T -> its renewal period's row (created_at); p50 and p99.
 */
import { randomUUID } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import pg from 'pg';
import { subscriberWorkflowId } from '../../domain/shop/workflow-ids.ts';
import type { subscriberRenewal } from '../../workflows/shop/subscriber-renewal.ts';
import { closedLoop, epochMs } from './load.ts';
import { untilQueueIdle } from './queue-idle.ts';
import { createBenchShop, createProduct, type BenchShop } from './shop-fixtures.ts';
import type { BenchStack } from './stack.ts';
import { median, percentile } from './stats.ts';

const CONCURRENCY = 32;
const SAMPLE = 5;
const RENEWAL_TIMEOUT_MS = 600_000;

export interface SubscriptionsOptions {
  stack: BenchStack;
  subscribers: number;
  renewals: number;
  sameMinute: number;
  log: (line: string) => void;
}

export interface SubscriptionsFigures {
  subscribers: number;
  start_per_second: number;
  /** First start -> the task queue without backlog (every first workflow task run). */
  settled_s: number;
  start_errors: number;
  worker_rss_mb: number | null;
  temporal_rss_mb: number | null;
  renewals: number;
  sample: number;
  history_events_median: number;
  history_events_max: number;
  same_minute: number;
  renewed: number;
  renewal_lag_p50_ms: number;
  renewal_lag_p99_ms: number;
}

/** RSS in MB: of every process in `pgid`'s group, or of the processes whose command line contains `match`. */
function rssMb(select: { pgid?: number; match?: string }): number | null {
  try {
    const out = execFileSync('ps', ['-eo', 'pgid=,rss=,args='], { encoding: 'utf8' });
    let kb = 0;
    for (const line of out.split('\n')) {
      const m = /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line);
      if (!m) continue;
      if ((select.pgid !== undefined && Number(m[1]) === select.pgid) || (select.match && m[3]!.includes(select.match) && !m[3]!.startsWith('ps '))) kb += Number(m[2]);
    }
    return kb > 0 ? Math.round(kb / 1024) : null;
  } catch {
    return null;
  }
}

async function insertSubscribers(db: pg.Client, shop: BenchShop, planId: number, productId: number, n: number): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>(
    `insert into shop_subscribers (shop_id, service_ref, email, plan_id, product_id, renewal_items, payment_reference, status, created_at, updated_at)
     select $1, 'sub_' || gen_random_uuid(), 'sub' || g || '-' || $5 || '@bench.example.com', $2, $3, $6, 'tok_test_saved_card', 'active', now(), now()
       from generate_series(1, $4) g returning id`,
    [shop.id, planId, productId, n, randomUUID().slice(0, 6), JSON.stringify([{ product_id: productId, quantity: 1, price: null }])],
  );
  const ids = rows.map((r) => r.id).sort((a, b) => a - b);
  await db.query(
    `insert into shop_subscriber_periods (shop_id, subscriber_id, kind, starts_at, ends_at, created_at)
     select $1, id, 'initial', now() - interval '29 days', now() + interval '1 day', now() from unnest($2::int[]) id`,
    [shop.id, ids],
  );
  return ids;
}

/** Renewal periods of the subscribers (subscriber id -> count, and the latest one's created_at). */
async function renewalsOf(db: pg.Client, shop: BenchShop, ids: number[]): Promise<Map<number, { count: number; lastCreated: number }>> {
  const { rows } = await db.query<{ subscriber_id: number; n: string; last: Date }>(
    `select subscriber_id, count(*) as n, max(created_at) as last from shop_subscriber_periods where shop_id = $1 and subscriber_id = any($2) and kind = 'renewal' group by subscriber_id`,
    [shop.id, ids],
  );
  return new Map(rows.map((r) => [r.subscriber_id, { count: Number(r.n), lastCreated: r.last.getTime() }]));
}

async function untilRenewed(db: pg.Client, shop: BenchShop, ids: number[], count: number) {
  const deadline = Date.now() + RENEWAL_TIMEOUT_MS;
  for (;;) {
    const states = await renewalsOf(db, shop, ids);
    if (ids.every((id) => (states.get(id)?.count ?? 0) >= count) || Date.now() > deadline) return states;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const moveTo = (shop: BenchShop, ids: number[], at: Date) =>
  closedLoop({ concurrency: CONCURRENCY, durationMs: 600_000, maxOps: ids.length, op: async (i) => void await shop.api('PATCH', `/subscribers/${ids[i]}/period`, { active_until: at.toISOString() }) });

export async function measureSubscriptions(o: SubscriptionsOptions): Promise<SubscriptionsFigures> {
  const shop = await createBenchShop(o.stack.apiUrl, o.stack.adminToken, 'subscriptions');
  const productId = await createProduct(shop, { name: 'Monthly box', price: '39.00' });
  const plan = await shop.api<{ id: number }>('POST', '/subscription_plans', {
    subscription_plan: { name: 'Box club', automatic_renewal: true, extension_strategy: 'continuous', products: [{ product_id: productId, interval: 30 }] },
  });
  await shop.operator('PUT', '/shops/:shop/payment_gateway', { mode: 'approve' });
  const db = new pg.Client({ connectionString: o.stack.databaseUrl });
  await db.connect();
  // A stop mid-run drops the database under us: logged, not an unhandled error.
  db.on('error', (error) => o.log(`shop-subscriptions: database connection: ${error.message}`));
  try {
    const ids = await insertSubscribers(db, shop, plan.id, productId, o.subscribers);
    o.log(`shop subscriptions: ${ids.length} subscribers written; starting their workflows`);
    await untilQueueIdle(o.stack, o.log);
    const first = epochMs();
    const starts = await closedLoop({
      concurrency: CONCURRENCY,
      durationMs: 1_800_000,
      maxOps: ids.length,
      op: async (i) => {
        await o.stack.temporal.workflow.start<typeof subscriberRenewal>('subscriberRenewal', {
          taskQueue: o.stack.taskQueue,
          workflowId: subscriberWorkflowId({ shopId: shop.id, subscriberId: ids[i]! }),
          args: [{ shopId: shop.id, subscriberId: ids[i]! }],
        });
      },
    });
    const startPerSecond = starts.ok / (starts.elapsedMs / 1000);
    await untilQueueIdle(o.stack, o.log, 1_800_000);
    const settledS = (epochMs() - first) / 1000;
    const workerRss = rssMb({ pgid: o.stack.workerPid });
    const temporalRss = rssMb({ match: `--port ${new URL(`http://${o.stack.temporalAddress}`).port}` });
    o.log(`shop subscriptions: ${starts.ok} started at ${startPerSecond.toFixed(1)}/s (${starts.errors} errors), settled in ${settledS.toFixed(1)} s; RSS worker ${workerRss} MB, Temporal ${temporalRss} MB`);

    // History after renewals of a sample.
    const sample = ids.slice(0, Math.min(SAMPLE, ids.length));
    for (let r = 1; r <= o.renewals; r++) {
      await moveTo(shop, sample, new Date(Date.now() + 3_000));
      await untilRenewed(db, shop, sample, r);
    }
    const events = await Promise.all(
      sample.map(async (id) => (await o.stack.temporal.workflow.getHandle(subscriberWorkflowId({ shopId: shop.id, subscriberId: id })).fetchHistory()).events?.length ?? 0),
    );
    o.log(`shop subscriptions: after ${o.renewals} renewals, history events of the current run: ${events.join(' ')}`);

    // Many periods ending in the same minute.
    const group = ids.slice(sample.length, sample.length + o.sameMinute);
    const at = new Date(Date.now() + Math.max(30_000, group.length * 100));
    const moved = await moveTo(shop, group, at);
    if (moved.errors) o.log(`shop subscriptions: ${moved.errors} period moves failed (${moved.firstError})`);
    const renewed = await untilRenewed(db, shop, group, 1);
    const lags = group.flatMap((id) => {
      const state = renewed.get(id);
      return state ? [state.lastCreated - at.getTime()] : [];
    });
    o.log(`shop subscriptions: ${lags.length}/${group.length} renewed; lag p50 ${Math.round(percentile(lags, 50))} ms, p99 ${Math.round(percentile(lags, 99))} ms`);
    return {
      subscribers: ids.length,
      start_per_second: startPerSecond,
      settled_s: settledS,
      start_errors: starts.errors,
      worker_rss_mb: workerRss,
      temporal_rss_mb: temporalRss,
      renewals: o.renewals,
      sample: sample.length,
      history_events_median: median(events),
      history_events_max: Math.max(...events),
      same_minute: group.length,
      renewed: lags.length,
      renewal_lag_p50_ms: percentile(lags, 50),
      renewal_lag_p99_ms: percentile(lags, 99),
    };
  } finally {
    await db.end();
  }
}

/**
 * Part `shop-webhooks` (issue 26, item 3): shop webhook deliveries as a clearing starts them (the
 * `deliverShopWebhook` workflow on the stack's task queue, one per order and webhook, the
 * `order_cleared` event), started from the bench's client at 32 concurrent, to the local
 * receiver (receiver.ts). Orders are seeded by SQL first (the delivery stores the order as it is
 * when it opens); WEBHOOKS webhooks share them.
 * - throughput: `deliveries` in all; per minute: deliveries over first start -> last received;
 *   `attempts_recorded` (rows of shop_webhook_delivery_attempts), `doubled` (a webhook-id received
 *   twice on one path), `unsigned`. The baseline is our no-op workflow rate (shop-parts.ts);
 * - isolation: `slowDeliveries` to a fast webhook interleaved with as many to another fast one
 *   (start -> received, p99), then the same again beside a webhook whose receiver answers in 5 s:
 *   the fast one's p99 in both, so the load is the same and only the other's answer time differs.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { deliverShopWebhook } from '../../workflows/index.ts';
import { shopWebhookDeliveryWorkflowId } from '../../domain/shop/workflow-ids.ts';
import { cpuFigures, cpuStretch, type CpuFigures } from './cpu-usage.ts';
import { closedLoop, epochMs } from './load.ts';
import { untilQueueIdle } from './queue-idle.ts';
import type { BenchReceiver } from './receiver.ts';
import { createBenchShop, type BenchShop } from './shop-fixtures.ts';
import type { BenchStack } from './stack.ts';
import { percentile } from './stats.ts';

const WEBHOOKS = 10;
const CONCURRENCY = 32;
const SLOW_MS = 5_000;
const RECEIVED_TIMEOUT_MS = 300_000;

export interface WebhooksOptions {
  stack: BenchStack;
  receiver: BenchReceiver;
  deliveries: number;
  slowDeliveries: number;
  log: (line: string) => void;
}

export interface WebhooksFigures {
  deliveries: number;
  webhooks: number;
  concurrency: number;
  per_minute: number;
  p50_ms: number;
  p99_ms: number;
  received: number;
  attempts_recorded: number;
  doubled: number;
  unsigned: number;
  /** CPU per delivery by process (the throughput run, start of the first -> last attempt recorded). */
  cpu_ms_per_op: CpuFigures['ms_per_op'];
  cpu_cores_busy: CpuFigures['cores_busy'];
  slow: { delay_ms: number; deliveries: number; fast_beside_fast_p99_ms: number; fast_p99_ms: number; ratio_p99: number };
}

async function seedOrders(db: pg.Client, shop: BenchShop, n: number): Promise<number[]> {
  const { rows: [counter] } = await db.query<{ n: number }>('update shops set next_ordinal_number = next_ordinal_number + $2 where id = $1 returning next_ordinal_number - $2 as n', [shop.id, n]);
  const { rows } = await db.query<{ id: number }>(
    `insert into shop_orders (shop_id, uuid, ordinal_number, internal_status, order_status_id, email, currency, products_cost, delivery_cost, payment_cost,
       total_discount, total, payment_method, paid, paid_at, order_attributes, notes, placed_at, created_at, updated_at)
     select $1, gen_random_uuid(), $2 + g, 'placed', $3, 'hook' || g || '@bench.example.com', 'PLN', 49, 0, 0, 0, 49, 'Transfer', true, now(), '[]', '[]', now(), now(), now()
       from generate_series(0, $4 - 1) g returning id`,
    [shop.id, counter!.n, shop.statuses.Paid, n],
  );
  return rows.map((r) => r.id).sort((a, b) => a - b);
}

interface Delivery {
  webhookId: string;
  path: string;
  orderId: number;
  eventId: string;
}

/** Starts the deliveries at CONCURRENCY; start epoch ms by eventId. */
async function startDeliveries(o: WebhooksOptions, shop: BenchShop, list: Delivery[]): Promise<Map<string, number>> {
  const starts = new Map<string, number>();
  const result = await closedLoop({
    concurrency: CONCURRENCY,
    durationMs: 600_000,
    maxOps: list.length,
    op: async (i) => {
      const d = list[i]!;
      starts.set(d.eventId, epochMs());
      const ref = { shopId: shop.id, orderId: d.orderId, source: 'clear' as const };
      await o.stack.temporal.workflow.start<typeof deliverShopWebhook>('deliverShopWebhook', {
        taskQueue: o.stack.taskQueue,
        workflowId: shopWebhookDeliveryWorkflowId({ ...ref, webhookId: d.webhookId }),
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
        args: [{ ...ref, webhookId: d.webhookId, type: 'order_cleared', eventId: d.eventId, occurredAt: new Date().toISOString() }],
      });
    },
  });
  if (result.errors > 0) throw new Error(`shop webhooks: ${result.errors} delivery starts failed (${result.firstError})`);
  return starts;
}

/** Until every delivery's first request arrived (or the timeout); received epoch ms by eventId (first arrival). */
async function untilReceived(o: WebhooksOptions, list: Delivery[]): Promise<Map<string, number>> {
  const wanted = new Set(list.map((d) => d.eventId));
  const deadline = Date.now() + RECEIVED_TIMEOUT_MS;
  for (;;) {
    const seen = new Map<string, number>();
    for (const r of o.receiver.received()) if (wanted.has(r.webhookId) && !seen.has(r.webhookId)) seen.set(r.webhookId, r.atEpochMs);
    if (seen.size === wanted.size || Date.now() > deadline) return seen;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const latencies = (list: Delivery[], starts: Map<string, number>, received: Map<string, number>) =>
  list.flatMap((d) => (received.has(d.eventId) && starts.has(d.eventId) ? [received.get(d.eventId)! - starts.get(d.eventId)!] : []));

export async function measureWebhooks(o: WebhooksOptions): Promise<WebhooksFigures> {
  const shop = await createBenchShop(o.stack.apiUrl, o.stack.adminToken, 'webhooks');
  const hook = async (path: string) =>
    (await shop.operator<{ id: string }>('POST', '/shops/:shop/webhooks', { url: o.receiver.url(path), events: ['order_cleared'], secret_key: 'bench-webhooks-signing-secret-0123456789' })).id;
  const hooks: { id: string; path: string }[] = [];
  for (let i = 0; i < WEBHOOKS; i++) hooks.push({ id: await hook(`/hook-${i}`), path: `/hook-${i}` });
  const db = new pg.Client({ connectionString: o.stack.databaseUrl });
  await db.connect();
  // A stop mid-run drops the database under us: logged, not an unhandled error.
  db.on('error', (error) => o.log(`shop-webhooks: database connection: ${error.message}`));
  try {
    const perHook = Math.ceil(o.deliveries / WEBHOOKS);
    const orderIds = await seedOrders(db, shop, perHook + 2 * o.slowDeliveries);
    const list: Delivery[] = [];
    for (let i = 0; i < perHook && list.length < o.deliveries; i++) {
      for (const h of hooks) if (list.length < o.deliveries) list.push({ webhookId: h.id, path: h.path, orderId: orderIds[i]!, eventId: randomUUID() });
    }
    await untilQueueIdle(o.stack, o.log);
    const cpu = cpuStretch(o.stack.cpuGroups());
    const starts = await startDeliveries(o, shop, list);
    const received = await untilReceived(o, list);
    const all = latencies(list, starts, received);
    const first = Math.min(...starts.values());
    const last = Math.max(...received.values());
    const wanted = new Set(list.map((d) => d.eventId));
    const mine = o.receiver.received().filter((r) => wanted.has(r.webhookId));
    const perPathId = new Map<string, number>();
    for (const r of mine) perPathId.set(`${r.path} ${r.webhookId}`, (perPathId.get(`${r.path} ${r.webhookId}`) ?? 0) + 1);
    // Attempts are recorded after the reply: wait for the last rows.
    let attempts = 0;
    for (let tries = 0; tries < 100; tries++) {
      const { rows: [row] } = await db.query<{ n: string }>('select count(*) as n from shop_webhook_delivery_attempts where shop_id = $1', [shop.id]);
      attempts = Number(row!.n);
      if (attempts >= received.size) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const cpuPerDelivery = cpuFigures(cpu.stop(), received.size);
    const perMinute = received.size / ((last - first) / 60_000);
    o.log(`shop webhooks: ${received.size}/${list.length} received, ${Math.round(perMinute)} a minute, p99 ${Math.round(percentile(all, 99))} ms, ${attempts} attempts recorded`);

    // Isolation: a fast webhook beside another fast one, then beside a slow one: the same number of
    // deliveries both times, so only the other receiver's answer time differs.
    const fast = { id: await hook('/fast'), path: '/fast' };
    const otherFast = { id: await hook('/fast-other'), path: '/fast-other' };
    const slow = { id: await hook('/slow'), path: '/slow' };
    o.receiver.delay('/slow', SLOW_MS);
    const rest = orderIds.slice(perHook);
    const fastP99Beside = async (other: { id: string; path: string }, orders: number[]) => {
      const mine = orders.map((orderId) => ({ webhookId: fast.id, path: fast.path, orderId, eventId: randomUUID() }));
      const theirs = orders.map((orderId) => ({ webhookId: other.id, path: other.path, orderId, eventId: randomUUID() }));
      await untilQueueIdle(o.stack, o.log);
      const starts = await startDeliveries(o, shop, theirs.flatMap((t, i) => [t, mine[i]!]));
      const p99 = percentile(latencies(mine, starts, await untilReceived(o, mine)), 99);
      await untilReceived(o, theirs);
      return p99;
    };
    const besideFastP99 = await fastP99Beside(otherFast, rest.slice(0, o.slowDeliveries));
    const fastP99 = await fastP99Beside(slow, rest.slice(o.slowDeliveries, 2 * o.slowDeliveries));
    o.log(`shop webhooks: fast receiver p99 beside a fast one ${Math.round(besideFastP99)} ms, beside one answering in ${SLOW_MS} ms ${Math.round(fastP99)} ms`);

    return {
      deliveries: list.length,
      webhooks: WEBHOOKS,
      concurrency: CONCURRENCY,
      per_minute: perMinute,
      p50_ms: percentile(all, 50),
      p99_ms: percentile(all, 99),
      received: received.size,
      attempts_recorded: attempts,
      doubled: [...perPathId.values()].filter((n) => n > 1).length,
      unsigned: mine.filter((r) => !r.signed).length,
      cpu_ms_per_op: cpuPerDelivery.ms_per_op,
      cpu_cores_busy: cpuPerDelivery.cores_busy,
      slow: { delay_ms: SLOW_MS, deliveries: o.slowDeliveries, fast_beside_fast_p99_ms: besideFastP99, fast_p99_ms: fastP99, ratio_p99: fastP99 / besideFastP99 },
    };
  } finally {
    await db.end();
  }
}

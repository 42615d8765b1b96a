/**
 * Issue 26's parts of `npm run bench`, each named on the command line (`npm run bench --
 * shop-clearing shop-webhooks`) or all of them in a full run: the shop's write paths and its
 * cost as the data grows, every figure beside a baseline of the same run. The parts that run
 * workflows are compared with our no-op workflow rate (temporal-noop.ts), measured once here
 * unless the full run measured it already.
 */
import type { HttpLoad } from './http-load.ts';
import { startHttpLoadThread } from './http-load.ts';
import { startReceiver } from './receiver.ts';
import { measureCheckout } from './shop-checkout.ts';
import { measureClearing } from './shop-clearing.ts';
import { measureOrderLists } from './shop-orders.ts';
import { measureSubscriptions } from './shop-subscriptions.ts';
import { measureWebhooks } from './shop-webhooks.ts';
import type { BenchStack, StopList } from './stack.ts';
import { rounded } from './stats.ts';
import { measureTemporalNoop, type NoopComparison } from './temporal-noop.ts';

export const SHOP_PARTS = ['shop-clearing', 'shop-checkout', 'shop-webhooks', 'shop-orders-1m', 'shop-subscriptions'] as const;
export type ShopPart = (typeof SHOP_PARTS)[number];

const NEEDS_NOOP: ShopPart[] = ['shop-clearing', 'shop-webhooks', 'shop-subscriptions'];

export interface ShopPartsOptions {
  stack: BenchStack;
  parts: ShopPart[];
  quick: boolean;
  concurrency: number;
  noop: { n: number; warmupN: number; rounds: number };
  log: (line: string) => void;
  stops: StopList;
  /** The run's HTTP load thread and no-op figures, when it has them already. */
  http?: HttpLoad;
  noopFigures?: NoopComparison;
}

export async function measureShopParts(o: ShopPartsOptions): Promise<{ summary: Record<string, unknown>; text: string }> {
  const { stack, log, quick } = o;
  let http = o.http;
  if (!http) {
    const thread = startHttpLoadThread();
    o.stops.add('HTTP load thread (shop)', () => thread.close());
    http = thread;
  }
  const receiver = await startReceiver();
  o.stops.add('webhook receiver', () => receiver.close());
  const noop = o.parts.some((part) => NEEDS_NOOP.includes(part)) ? (o.noopFigures ?? (await measureTemporalNoop({ stack, concurrency: o.concurrency, log, ...o.noop, oursOnly: true }))) : undefined;
  const noopPerSecond = noop?.ours.per_second ?? Number.NaN;
  const summary: Record<string, unknown> = {};
  if (noop && !o.noopFigures) summary.shop_noop_baseline = rounded({ per_second: noopPerSecond, rounds_per_second: noop.ours.rounds_per_second, n: noop.ours.n });
  const lines: string[] = [];

  if (o.parts.includes('shop-clearing')) {
    const f = await measureClearing({
      stack,
      http,
      receiver,
      concurrency: o.concurrency,
      log,
      ...(quick ? { n: 20, warmupN: 4, rounds: 3, steady: { rate: 5, durationS: 10 }, overloadS: 10 } : { n: 200, warmupN: 16, rounds: 3, steady: { rate: 5, durationS: 60 }, overloadS: 30 }),
    });
    summary.shop_clearing = rounded({ ...f, vs_noop_ratio: f.per_second / noopPerSecond });
    lines.push(
      '',
      `Shop clearing (PATCH /api/v1/orders/:id/clear -> last of ${f.effects_per_clearing} effects recorded), bursts of ${f.n} at ${f.concurrency} concurrent, medians of ${f.rounds} rounds:`,
      `  ${f.per_second.toFixed(1)}/s (rounds ${f.rounds_per_second.map((r) => r.toFixed(1)).join(' ')}), p50 ${Math.round(f.p50_ms)} ms, p99 ${Math.round(f.p99_ms)} ms; ${(f.per_second / noopPerSecond).toFixed(3)} x our no-op rate ${noopPerSecond.toFixed(1)}/s`,
      `  steady ${f.steady.rate}/s for ${f.steady.duration_s} s: ${f.steady.completed}/${f.steady.sent} complete, p50 ${Math.round(f.steady.p50_ms)} ms, p99 ${Math.round(f.steady.p99_ms)} ms`,
      `  median ms from PATCH to each effect: ${Object.entries(f.effect_at_ms).map(([k, v]) => `${k} ${Math.round(v)}`).join(', ')}`,
      `  Temporal per clearing (its children included): ${Object.entries(f.temporal_per_clearing).map(([k, v]) => `${v} ${k.replaceAll('_', ' ')}`).join(', ')} (a no-op workflow: 1 workflow, 1 workflow task)`,
      `  workflow tasks timed out or failed and redone, by round: ${f.workflow_tasks_redone.join(' ')} (must be 0)`,
      `  overload, open loop at twice the bursts' rate (${f.overload.rate}/s for ${f.overload.duration_s} s): ${f.overload.completed}/${f.overload.sent} complete at ${f.overload.per_second.toFixed(1)}/s, ${f.overload.vs_saturated.toFixed(2)} x the saturated rate (>= 0.9), ${f.overload.workflow_tasks_redone} workflow tasks redone (must be 0)`,
    );
  }
  if (o.parts.includes('shop-checkout')) {
    const f = await measureCheckout({ stack, http, concurrency: o.concurrency, log, ...(quick ? { n: 40, warmupN: 8, rounds: 3, racers: 12 } : { n: 600, warmupN: 1_000, rounds: 5, racers: 12 }) });
    summary.shop_checkout = rounded(f);
    lines.push(
      '',
      `Shop checkout (cart with 3 lines and a code -> checkout) at ${f.concurrency} concurrent vs the same order by raw SQL in one transaction, medians of ${f.rounds} rounds:`,
      `  storefront ${f.storefront.per_second.toFixed(1)}/s p99 ${Math.round(f.storefront.p99_ms)} ms; raw SQL ${f.raw_sql.per_second.toFixed(1)}/s p99 ${f.raw_sql.p99_ms.toFixed(1)} ms: ratio rate ${f.ratio_rate.toFixed(3)}, p99 ${f.ratio_p99.toFixed(2)}`,
      `  race of ${f.race.racers} checkouts for a code with one use left: sold ${f.race.sold} (must be 1)`,
      ...(f.cpu_ms_per_order
        ? (['storefront', 'raw_sql'] as const).map((side) => `  CPU ms per order, ${side}: ${Object.entries(f.cpu_ms_per_order![side]).map(([group, ms]) => `${group} ${ms.toFixed(2)}`).join(', ')}`)
        : []),
    );
  }
  if (o.parts.includes('shop-webhooks')) {
    const f = await measureWebhooks({ stack, receiver, log, ...(quick ? { deliveries: 300, slowDeliveries: 20 } : { deliveries: 10_000, slowDeliveries: 200 }) });
    summary.shop_webhooks = rounded({ ...f, vs_noop_ratio: f.per_minute / 60 / noopPerSecond });
    lines.push(
      '',
      `Shop webhooks: ${f.deliveries} signed deliveries to a local receiver: ${Math.round(f.per_minute)} a minute (${(f.per_minute / 60 / noopPerSecond).toFixed(3)} x our no-op workflow rate); attempts recorded ${f.attempts_recorded}, received ${f.received}, doubled ${f.doubled}, unsigned ${f.unsigned}`,
      `  beside a receiver answering in ${f.slow.delay_ms} ms: the fast one's p99 ${Math.round(f.slow.fast_p99_ms)} ms (beside a fast one: ${Math.round(f.slow.fast_beside_fast_p99_ms)} ms)`,
    );
  }
  if (o.parts.includes('shop-orders-1m')) {
    const f = await measureOrderLists({ stack, log, ...(quick ? { orders: 50_000, warmups: 1, listRuns: 5, runs: 5, rounds: 3 } : { orders: 1_000_000, warmups: 2, listRuns: 101, runs: 21, rounds: 3 }) });
    summary.shop_orders_1m = rounded(f);
    lines.push('', `Shop orders over ${f.orders} orders (3 lines each), one request at a time, p99 of ${f.list_runs} runs per list and ${f.runs} per report, medians of ${f.rounds} rounds (API / raw SQL incl. the count):`);
    for (const [name, q] of Object.entries(f.queries)) lines.push(`  ${name}: API p99 ${q.api_p99_ms.toFixed(1)} ms, raw ${q.raw_p99_ms.toFixed(1)} ms: ${q.ratio_p99.toFixed(2)} x (rounds ${q.ratio_p99_rounds.map((x) => x.toFixed(2)).join(' / ')}; total ${q.total}; medians: API ${q.api_p50_ms.toFixed(1)}, ${q.orm_p50_ms === undefined ? '' : `ORM alone ${q.orm_p50_ms.toFixed(1)}, `}raw ${q.raw_p50_ms.toFixed(1)} ms)`);
  }
  if (o.parts.includes('shop-subscriptions')) {
    const f = await measureSubscriptions({ stack, log, ...(quick ? { subscribers: 100, renewals: 2, sameMinute: 50 } : { subscribers: 10_000, renewals: 12, sameMinute: 1_000 }) });
    summary.shop_subscriptions = rounded({ ...f, start_vs_noop_ratio: f.start_per_second / noopPerSecond });
    lines.push(
      '',
      `Shop subscriptions: ${f.subscribers} subscriber workflows open at once, started at ${f.start_per_second.toFixed(1)}/s (${(f.start_per_second / noopPerSecond).toFixed(3)} x our no-op rate)`,
      `  RSS: worker ${f.worker_rss_mb} MB, Temporal server ${f.temporal_rss_mb ?? '-'} MB; history events per subscriber after ${f.renewals} renewals: median ${f.history_events_median}, max ${f.history_events_max}`,
      `  ${f.same_minute} periods ending in the same minute: renewal lag p50 ${Math.round(f.renewal_lag_p50_ms)} ms, p99 ${Math.round(f.renewal_lag_p99_ms)} ms`,
    );
  }
  return { summary, text: lines.join('\n') };
}

/**
 * Part (b''): grants under a steady open-loop load (issue 17, item 4). Grants are posted on a
 * fixed schedule, R per second for D seconds, whatever the replies (load.ts, openLoop); each
 * counts from the time it was due: POST due -> enrolment visible (grant-batch.ts). A grant never
 * seen counts as taking until the wait for it ended (a lower bound), and fails the step. Each
 * step starts once the task queue has no backlog (queue-idle.ts).
 * - steady: the figure, 10 grants/s for 60 s, p99 <= 1 s;
 * - ladder: short steps at rising rates, stopping at the first whose p99 is over the limit (or
 *   that loses grants); when the first step already fails, lower rates are tried until one holds.
 *   The highest rate that held is `highest_steady_rate_under_1s`.
 */
import { randomBytes } from 'node:crypto';
import { createCourse } from './fixtures.ts';
import { grantBatch, type GrantTarget } from './grant-batch.ts';
import { untilQueueIdle } from './queue-idle.ts';
import { percentile } from './stats.ts';

/** Once the last POST replied, how long a step waits for the enrolments still missing. */
const VISIBLE_TIMEOUT_MS = 45_000;

export interface SteadyOptions extends GrantTarget {
  platformId: string;
  /** The limit on the p99 (ms). */
  p99LimitMs: number;
  log: (line: string) => void;
}

export interface SteadyFigures {
  rate: number;
  duration_s: number;
  /** Grants posted, accepted (200) and seen. */
  sent: number;
  accepted: number;
  visible: number;
  /** POST due -> enrolment visible. */
  p50_ms: number;
  p99_ms: number;
  /** The POST alone, from its due time to its reply. */
  post_p99_ms: number;
  /** How late the POSTs left against their schedule (the load generator's own lag). */
  start_lag_p99_ms: number;
  /** Every grant accepted and seen, and the p99 within the limit. */
  met: boolean;
}

export interface LadderFigures {
  steps: SteadyFigures[];
  /** The highest rate whose step held; null when none did. */
  highest_rate: number | null;
}

export async function measureSteady(o: SteadyOptions, rate: number, durationS: number): Promise<SteadyFigures> {
  await untilQueueIdle(o.stack, o.log);
  const name = `steady${rate}-${randomBytes(3).toString('hex')}`;
  const courseId = await createCourse(o.stack.apiUrl, o.stack.adminToken, o.platformId, `Grants ${name}`);
  const emails = Array.from({ length: Math.round(rate * durationS) }, (_, i) => `${name}-${i}@bench.example.com`);
  const batch = await grantBatch(o, { courseId, emails, ratePerSecond: rate, visibleTimeoutMs: VISIBLE_TIMEOUT_MS }, o.log);
  const latencies = emails.flatMap((email, i) => {
    const due = batch.startsEpochMs[i];
    return due === undefined ? [] : [(batch.visibleAt.get(email) ?? batch.waitEndedEpochMs) - due];
  });
  const visible = emails.filter((email) => batch.visibleAt.has(email)).length;
  const p99 = percentile(latencies, 99);
  const figures: SteadyFigures = {
    rate,
    duration_s: durationS,
    sent: emails.length,
    accepted: batch.post.ok,
    visible,
    p50_ms: percentile(latencies, 50),
    p99_ms: p99,
    post_p99_ms: percentile(batch.post.latenciesMs, 99),
    start_lag_p99_ms: batch.startLagP99Ms ?? Number.NaN,
    met: visible === emails.length && p99 <= o.p99LimitMs,
  };
  o.log(`grants steady ${rate}/s for ${durationS} s: ${visible}/${emails.length} visible, p50 ${Math.round(figures.p50_ms)} ms, p99 ${Math.round(p99)} ms: ${figures.met ? 'held' : 'did not hold'}`);
  return figures;
}

/** Rising rates until one fails; if the first fails, falling ones (`lower`) until one holds. */
export async function measureLadder(o: SteadyOptions, plan: { rates: number[]; lower: number[]; stepS: number }): Promise<LadderFigures> {
  const steps: SteadyFigures[] = [];
  for (const rate of plan.rates) {
    const step = await measureSteady(o, rate, plan.stepS);
    steps.push(step);
    if (!step.met) break;
  }
  if (steps.length === 1 && !steps[0]!.met) {
    for (const rate of plan.lower) {
      const step = await measureSteady(o, rate, plan.stepS);
      steps.push(step);
      if (step.met) break;
    }
  }
  const held = steps.filter((step) => step.met).map((step) => step.rate);
  return { steps, highest_rate: held.length ? Math.max(...held) : null };
}

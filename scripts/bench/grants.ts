/**
 * Part (b'): grants end to end in bursts. A round: N grant requests (`POST /api/courses/subscribe`,
 * one new e-mail each, to a fresh course) at a fixed concurrency; per grant, POST sent ->
 * enrolment visible (grant-batch.ts); grants per second: N over first POST sent -> last enrolment
 * visible. A warm-up batch, then `rounds` rounds, each once the task queue has no backlog
 * (queue-idle.ts); the figures are the medians of the rounds. The bench runs it with the stack's
 * one worker process and again with a second one on the task queue.
 */
import { randomBytes } from 'node:crypto';
import { cpuFigures, cpuStretch, medianCpuFigures, type CpuFigures } from './cpu-usage.ts';
import { createCourse } from './fixtures.ts';
import { grantBatch, visibleLatencies, type GrantBatch, type GrantTarget } from './grant-batch.ts';
import { HISTORY_SAMPLE, medianParts, spread, timelineOf } from './history.ts';
import { untilQueueIdle } from './queue-idle.ts';
import type { BenchStack } from './stack.ts';
import { median, percentile, type BatchFigures } from './stats.ts';
import { withTimeout } from './temporal-noop.ts';

const VISIBLE_TIMEOUT_MS = 45_000;
const CLOSE_TIMEOUT_MS = 30_000;

export interface BurstOptions extends GrantTarget {
  platformId: string;
  n: number;
  warmupN: number;
  concurrency: number;
  rounds: number;
  /** Names the courses and e-mails of the run (`1w`, `2w`). */
  label: string;
  log: (line: string) => void;
}

/** Medians of the rounds; per_second and the percentiles: POST sent -> enrolment visible. */
export interface BurstFigures extends BatchFigures {
  rounds: number;
  rounds_per_second: number[];
  rounds_p50_ms: number[];
  rounds_p99_ms: number[];
  /** Enrolments seen in the worst round (n when all went through). */
  visible: number;
  /** First POST sent -> last enrolment visible. */
  all_visible_ms: number;
  /** The POST alone (validation, key, sequence numbers, durable workflow start). */
  post_p50_ms: number;
  post_p99_ms: number;
  /** Over all rounds. */
  post_errors: number;
  /** CPU per grant by process, from the first POST until every workflow of the round closed (medians of the rounds). */
  cpu: CpuFigures;
}

interface Round {
  perSecond: number;
  p50: number;
  p99: number;
  visible: number;
  allVisibleMs: number;
  batch: GrantBatch;
  emails: string[];
  cpu: CpuFigures;
}

export async function measureGrantBursts(o: BurstOptions): Promise<BurstFigures> {
  const tag = `${o.label}-${randomBytes(3).toString('hex')}`;
  const warmup = await burst(o, `warmup-${tag}`, o.warmupN);
  if (warmup.visible < o.warmupN) throw new Error(`grant warm-up (${o.label}): only ${warmup.visible} of ${o.warmupN} enrolments became visible`);

  const rounds: Round[] = [];
  for (let i = 0; i < o.rounds; i++) {
    const round = await burst(o, `round${i}-${tag}`, o.n);
    rounds.push(round);
    o.log(`grants ${o.label} round ${i + 1}/${o.rounds}: ${round.visible}/${o.n} visible, ${round.perSecond.toFixed(1)}/s, p50 ${Math.round(round.p50)} ms, p99 ${Math.round(round.p99)} ms`);
  }
  const last = rounds.at(-1)!;
  return {
    n: o.n,
    concurrency: o.concurrency,
    rounds: o.rounds,
    per_second: median(rounds.map((r) => r.perSecond)),
    p50_ms: median(rounds.map((r) => r.p50)),
    p99_ms: median(rounds.map((r) => r.p99)),
    rounds_per_second: rounds.map((r) => r.perSecond),
    rounds_p50_ms: rounds.map((r) => r.p50),
    rounds_p99_ms: rounds.map((r) => r.p99),
    visible: Math.min(...rounds.map((r) => r.visible)),
    all_visible_ms: median(rounds.map((r) => r.allVisibleMs)),
    post_p50_ms: median(rounds.map((r) => percentile(r.batch.post.latenciesMs, 50))),
    post_p99_ms: median(rounds.map((r) => percentile(r.batch.post.latenciesMs, 99))),
    post_errors: rounds.reduce((sum, r) => sum + r.batch.post.errors, 0),
    cpu: medianCpuFigures(rounds.map((r) => r.cpu)),
    breakdown_ms: await grantBreakdown(o.stack, last.batch, last.emails),
  };
}

async function burst(o: BurstOptions, name: string, count: number): Promise<Round> {
  await untilQueueIdle(o.stack, o.log);
  const courseId = await createCourse(o.stack.apiUrl, o.stack.adminToken, o.platformId, `Grants ${name}`);
  const emails = Array.from({ length: count }, (_, i) => `${name}-${i}@bench.example.com`);
  const cpu = cpuStretch(o.stack.cpuGroups());
  const batch = await grantBatch(o, { courseId, emails, concurrency: o.concurrency, visibleTimeoutMs: VISIBLE_TIMEOUT_MS }, o.log);
  // A grant's workflow goes on after its enrolment is visible (the invitation's attempt): its CPU counts until it closed.
  const started = batch.workflowIds.filter((id): id is string => id !== undefined);
  await untilClosed(o.stack, started);
  const span = cpu.stop();
  const latencies = visibleLatencies(batch, emails).map((l) => l.ms);
  const firstSent = Math.min(...batch.startsEpochMs.filter((t) => t !== undefined));
  const allVisibleMs = Math.max(...batch.visibleAt.values()) - firstSent;
  return {
    perSecond: latencies.length / (allVisibleMs / 1000),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    visible: latencies.length,
    allVisibleMs,
    batch,
    emails,
    cpu: cpuFigures(span, started.length),
  };
}

/** Until each workflow closed (its result, or failure, known), or CLOSE_TIMEOUT_MS. */
async function untilClosed(stack: BenchStack, workflowIds: readonly string[]): Promise<void> {
  await withTimeout(Promise.allSettled(workflowIds.map((id) => stack.temporal.workflow.getHandle(id).result())), CLOSE_TIMEOUT_MS);
}

/**
 * Medians over a sample of a round's grants: POST sent -> workflow started, the workflow's steps
 * from its history (a local activity's time is in its workflow task's run), and when the poller
 * saw the enrolment relative to the workflow's start and end.
 */
async function grantBreakdown(stack: BenchStack, batch: GrantBatch, emails: string[]): Promise<Record<string, number>> {
  const seen = visibleLatencies(batch, emails).flatMap(({ index }) => {
    const workflowId = batch.workflowIds[index];
    return workflowId ? [{ workflowId, sent: batch.startsEpochMs[index]!, visible: batch.visibleAt.get(emails[index]!)! }] : [];
  });
  const timelines = await Promise.all(
    spread(seen, HISTORY_SAMPLE).map(async ({ workflowId, sent, visible }) => {
      const timeline = await timelineOf(stack.temporal, workflowId);
      return {
        ...timeline,
        parts: {
          'POST sent -> workflow started': timeline.startedMs - sent,
          ...timeline.parts,
          'workflow started -> enrolment seen': visible - timeline.startedMs,
          // Negative: the enrolment commits before the workflow closes. Left out while it is still
          // open (it may wait for what it handed on, e.g. a mail delivery).
          ...(Number.isFinite(timeline.closedMs) && { 'enrolment seen - workflow completed': visible - timeline.closedMs }),
          'total (POST sent -> enrolment seen)': visible - sent,
        },
      };
    }),
  );
  return medianParts(timelines);
}

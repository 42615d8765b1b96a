/**
 * Part (b): grants end to end. N grant requests (`POST /api/courses/subscribe`, one new e-mail
 * each) at a fixed concurrency; a poller reads the course's active enrolments every
 * POLL_INTERVAL_MS and notes when each e-mail's enrolment first shows. Per grant: POST sent ->
 * enrolment visible. Grants per second: N over first POST -> last enrolment visible.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { BatchOptions, BenchStack } from './stack.ts';
import type { HttpLoad } from './http-load.ts';
import { HISTORY_SAMPLE, medianParts, spread, timelineOf } from './history.ts';
import { epochMs, type LoadResult } from './load.ts';
import { percentile, type BatchFigures } from './stats.ts';

const POLL_INTERVAL_MS = 20;
const VISIBLE_TIMEOUT_MS = 45_000;
const POST_PHASE_MAX_MS = 30_000;

export interface GrantsOptions extends BatchOptions {
  http: HttpLoad;
  apiKey: string;
  grantCourseId: string;
  warmupCourseId: string;
}

/** per_second and the percentiles: POST sent -> enrolment visible. */
export interface GrantsFigures extends BatchFigures {
  /** Enrolments seen (n when all went through). */
  visible: number;
  /** First POST sent -> last enrolment visible. */
  all_visible_ms: number;
  /** The POST alone (validation, key, sequence numbers, durable workflow start). */
  post_p50_ms: number;
  post_p99_ms: number;
  post_errors: number;
}

export async function measureGrants(o: GrantsOptions): Promise<GrantsFigures> {
  const tag = randomBytes(3).toString('hex');
  const warm = await grantBatch(o, o.warmupCourseId, Array.from({ length: o.warmupN }, (_, i) => `warmup-${tag}-${i}@bench.example.com`));
  if (warm.visibleAt.size < o.warmupN) throw new Error(`grant warm-up: only ${warm.visibleAt.size} of ${o.warmupN} enrolments became visible`);
  o.log(`grant warm-up: ${o.warmupN} grants visible`);

  const emails = Array.from({ length: o.n }, (_, i) => `learner-${tag}-${i}@bench.example.com`);
  const batch = await grantBatch(o, o.grantCourseId, emails);
  const latencies: number[] = [];
  const origins = new Map<string, number>(); // workflow id -> POST sent
  let lastVisible = Number.NaN;
  emails.forEach((email, i) => {
    const sent = batch.startsEpochMs[i];
    const seen = batch.visibleAt.get(email);
    if (sent === undefined || seen === undefined) return;
    latencies.push(seen - sent);
    lastVisible = Number.isNaN(lastVisible) ? seen : Math.max(lastVisible, seen);
    const workflowId = batch.workflowIds[i];
    if (workflowId) origins.set(workflowId, sent);
  });
  const firstSent = Math.min(...batch.startsEpochMs.filter((t) => t !== undefined));
  const allVisibleMs = lastVisible - firstSent;
  o.log(`grants: ${latencies.length}/${o.n} visible after ${Math.round(allVisibleMs)} ms`);

  return {
    n: o.n,
    concurrency: o.concurrency,
    visible: latencies.length,
    per_second: latencies.length / (allVisibleMs / 1000),
    p50_ms: percentile(latencies, 50),
    p99_ms: percentile(latencies, 99),
    all_visible_ms: allVisibleMs,
    post_p50_ms: percentile(batch.post.latenciesMs, 50),
    post_p99_ms: percentile(batch.post.latenciesMs, 99),
    post_errors: batch.post.errors,
    breakdown_ms: await grantBreakdown(o.stack, origins, batch.visibleAt, emails, batch.workflowIds),
  };
}

interface Batch {
  post: LoadResult;
  /** By request index. */
  startsEpochMs: number[];
  workflowIds: (string | undefined)[];
  /** E-mail -> first poll that saw its enrolment (epoch ms of the poll's start). */
  visibleAt: Map<string, number>;
}

/** Posts one grant per e-mail and waits (bounded) until each enrolment is visible. */
async function grantBatch(o: GrantsOptions, courseId: string, emails: string[]): Promise<Batch> {
  const poller = await startVisibilityPoller(o.stack.databaseUrl, courseId, new Set(emails));
  try {
    const bodies = emails.map((email) => JSON.stringify({ subscriptions: { course_id: courseId, email, access_level: 0 } }));
    const reply = await o.http.run({
      method: 'POST',
      url: `${o.stack.apiUrl}/api/courses/subscribe`,
      headers: { 'x-api-key': o.apiKey },
      bodies,
      concurrency: o.concurrency,
      durationMs: POST_PHASE_MAX_MS,
      expectStatus: 200,
      record: true,
    });
    if (reply.result.errors) o.log(`grant POSTs: ${reply.result.errors} errors, first: ${reply.result.firstError}`);
    const workflowIds = (reply.replies ?? []).map((text) => (text ? (JSON.parse(text) as { workflow_ids?: string[] }).workflow_ids?.[0] : undefined));
    const expected = reply.result.ok;
    await poller.until(expected, VISIBLE_TIMEOUT_MS);
    return { post: reply.result, startsEpochMs: reply.startsEpochMs ?? [], workflowIds, visibleAt: poller.visibleAt };
  } finally {
    await poller.stop();
  }
}

/** Polls the course's active enrolments on its own connection until stopped. */
async function startVisibilityPoller(databaseUrl: string, courseId: string, emails: ReadonlySet<string>) {
  const client = new pg.Client({ connectionString: databaseUrl, statement_timeout: 10_000 });
  client.on('error', () => undefined);
  await client.connect();
  const visibleAt = new Map<string, number>();
  let stopped = false;
  const sql = `select p.email from enrolments e join participants p on p.id = e.participant_id where e.course_id = $1 and e.active`;
  const loop = (async () => {
    while (!stopped) {
      const pollStarted = epochMs();
      const { rows } = await client.query<{ email: string }>(sql, [courseId]);
      for (const { email } of rows) if (emails.has(email) && !visibleAt.has(email)) visibleAt.set(email, pollStarted);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, POLL_INTERVAL_MS - (epochMs() - pollStarted))));
    }
  })();
  return {
    visibleAt,
    /** Resolves once `count` enrolments were seen, or after `timeoutMs`. */
    async until(count: number, timeoutMs: number): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (visibleAt.size < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
    },
    async stop(): Promise<void> {
      stopped = true;
      await loop.catch(() => undefined);
      await client.end().catch(() => undefined);
    },
  };
}

/**
 * Medians over a sample of the measured grants: POST sent -> workflow started, the workflow's
 * steps from its history, and when the poller saw the enrolment relative to the workflow's end.
 */
async function grantBreakdown(
  stack: BenchStack,
  origins: Map<string, number>,
  visibleAt: Map<string, number>,
  emails: string[],
  workflowIds: (string | undefined)[],
): Promise<Record<string, number>> {
  const emailOf = new Map(workflowIds.flatMap((id, i) => (id ? [[id, emails[i]!] as const] : [])));
  const sample = spread([...origins.keys()], HISTORY_SAMPLE);
  const timelines = await Promise.all(
    sample.map(async (id) => {
      const timeline = await timelineOf(stack.temporal, id);
      const sent = origins.get(id)!;
      const seen = visibleAt.get(emailOf.get(id)!)!;
      return {
        ...timeline,
        parts: {
          'POST sent -> workflow started': timeline.startedMs - sent,
          ...timeline.parts,
          // Negative: the enrolment commits in the last activity, before the workflow closes.
          'enrolment seen - workflow completed': seen - timeline.closedMs,
          'total (POST sent -> enrolment seen)': seen - sent,
        },
      };
    }),
  );
  return medianParts(timelines);
}

/**
 * One batch of grants (`POST /api/courses/subscribe`, one new e-mail each, to a course of its
 * own) and when each enrolment became visible: a poller reads the course's active enrolments on a
 * connection of its own every POLL_INTERVAL_MS and notes the poll that first saw each e-mail.
 * The POSTs go closed loop (`concurrency` in flight: the burst) or open loop (`ratePerSecond`,
 * whatever the replies: the steady load); see load.ts.
 */
import pg from 'pg';
import type { HttpLoad } from './http-load.ts';
import { epochMs, type LoadResult } from './load.ts';
import type { BenchStack } from './stack.ts';

const POLL_INTERVAL_MS = 20;
/** Closed loop: no POST starts after this. */
const POST_PHASE_MAX_MS = 30_000;

export interface GrantTarget {
  http: HttpLoad;
  stack: BenchStack;
  apiKey: string;
}

export interface GrantBatch {
  post: LoadResult;
  /** By request index: when the POST was sent (closed loop) or due (open loop), epoch ms. */
  startsEpochMs: number[];
  workflowIds: (string | undefined)[];
  /** E-mail -> the start (epoch ms) of the first poll that saw its enrolment. */
  visibleAt: Map<string, number>;
  /** Epoch ms when the wait for the enrolments ended (all seen, or the timeout). */
  waitEndedEpochMs: number;
  /** Open loop: how late the POSTs left against their schedule, p99 ms. */
  startLagP99Ms?: number;
}

export interface BatchLoad {
  courseId: string;
  emails: string[];
  /** Closed loop with this many in flight, or open loop at ratePerSecond. */
  concurrency?: number;
  ratePerSecond?: number;
  /** How long to wait for the enrolments once the last POST replied. */
  visibleTimeoutMs: number;
}

/** Posts one grant per e-mail and waits (bounded) until each accepted one is visible. */
export async function grantBatch(t: GrantTarget, load: BatchLoad, log: (line: string) => void): Promise<GrantBatch> {
  const { courseId, emails, ratePerSecond } = load;
  const poller = await startVisibilityPoller(t.stack.databaseUrl, courseId, new Set(emails));
  try {
    const bodies = emails.map((email) => JSON.stringify({ subscriptions: { course_id: courseId, email, access_level: 0 } }));
    const reply = await t.http.run({
      method: 'POST',
      url: `${t.stack.apiUrl}/api/courses/subscribe`,
      headers: { 'x-api-key': t.apiKey },
      bodies,
      concurrency: load.concurrency ?? 1,
      ...(ratePerSecond === undefined ? { durationMs: POST_PHASE_MAX_MS } : { ratePerSecond, durationMs: (emails.length / ratePerSecond) * 1000 }),
      expectStatus: 200,
      record: true,
    });
    if (reply.result.errors) log(`grant POSTs: ${reply.result.errors} errors, first: ${reply.result.firstError}`);
    const workflowIds = (reply.replies ?? []).map((text) => (text ? (JSON.parse(text) as { workflow_ids?: string[] }).workflow_ids?.[0] : undefined));
    await poller.until(reply.result.ok, load.visibleTimeoutMs);
    return {
      post: reply.result,
      startsEpochMs: reply.startsEpochMs ?? [],
      workflowIds,
      visibleAt: poller.visibleAt,
      waitEndedEpochMs: epochMs(),
      ...(reply.startLagP99Ms === undefined ? {} : { startLagP99Ms: reply.startLagP99Ms }),
    };
  } finally {
    await poller.stop();
  }
}

/** Per request with a visible enrolment: start -> visible, in request order. */
export function visibleLatencies(batch: GrantBatch, emails: readonly string[]): { index: number; ms: number }[] {
  return emails.flatMap((email, index) => {
    const start = batch.startsEpochMs[index];
    const seen = batch.visibleAt.get(email);
    return start === undefined || seen === undefined ? [] : [{ index, ms: seen - start }];
  });
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

/**
 * Durability (issue 3, point 8): the worker runs as an OS process of its own and is killed with
 * SIGKILL in the middle of a burst of course grants and order registrations, while work is in
 * flight (workflow tasks running a grant's local step, activities). A new worker process takes
 * over; once every workflow settled, every grant is applied exactly once, every participant exists
 * and is invited once, every order is fulfilled once and no domain event is doubled.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderWorkflowId, platformPrefix } from '../../../domain/shared/workflow-ids.ts';
import { createCourse, createPlatform, type TestCourse, type TestPlatform } from '../../helpers/fixtures.ts';
import { settledWorkflows } from '../../helpers/http.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';
import { spawnWorkerProcess, type WorkerProcess } from '../../helpers/worker-process.ts';
import { signalGroup } from '../../../scripts/stack/lifecycle.ts';

const GRANT_REQUESTS = 30;
const ENTRIES_PER_GRANT = 5;
const ORDERS = 50;
/** Share of the burst posted before the kill; the rest is posted while no worker runs. */
const BEFORE_KILL = 0.6;
/** The first worker is killed once this many enrolments of the burst are applied. */
const KILL_AFTER_ENROLMENTS = 30;
/** `temporal.api.enums.v1.PendingActivityState.PENDING_ACTIVITY_STATE_STARTED` */
const ACTIVITY_STARTED = 2;
/** `temporal.api.enums.v1.PendingWorkflowTaskState.PENDING_WORKFLOW_TASK_STATE_STARTED` */
const WORKFLOW_TASK_STARTED = 2;

let stack: TestStack;
let platform: TestPlatform;
let courses: TestCourse[];
const workers: WorkerProcess[] = [];

beforeAll(async () => {
  stack = await startTestApp('durability');
  platform = await createPlatform(stack.app, 'Durability');
  courses = await Promise.all([1, 2, 3].map(() => createCourse(stack.app, platform.id)));
});
afterAll(async () => {
  // Also after a failure: no worker process outlives the test.
  await Promise.all(workers.map((w) => w.kill('SIGKILL')));
  await stack?.close();
});

function startWorker(): WorkerProcess {
  const worker = spawnWorkerProcess({ taskQueue: stack.taskQueue });
  workers.push(worker);
  return worker;
}

/** A small seeded generator: the burst is the same on every run. */
function random(seed: number) {
  let state = seed;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, chance: (p: number) => next() < p, pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]! };
}

type GrantEntry = { course_id: string; email: string; name?: string; access_level?: 0 | 1 };
type Operation = { kind: 'grant'; entries: GrantEntry[] } | { kind: 'order'; order: Record<string, unknown> };

/** Expected state: the highest level granted per participant and course. */
class Expected {
  readonly levels = new Map<string, number>();
  readonly emails = new Set<string>();
  grant(email: string, courseId: string, level: number) {
    const address = email.toLowerCase();
    this.emails.add(address);
    const key = `${address} ${courseId}`;
    this.levels.set(key, Math.max(this.levels.get(key) ?? 0, level));
  }
}

/**
 * The burst: grants of several entries each (new participants, participants that already exist,
 * entries and whole requests repeated, level 1 now and then, e-mails in other letter case) and
 * orders with a new external_id each, for new buyers and known ones.
 */
function burst(existing: string[], expected: Expected): Operation[] {
  const rnd = random(20261122);
  const newEmails = Array.from({ length: 50 }, (_, i) => `grantee-${i}@example.com`);
  const operations: Operation[] = [];
  const sent: GrantEntry[][] = [];
  for (let r = 0; r < GRANT_REQUESTS; r++) {
    const previous = sent.length > 0 && rnd.chance(0.1) ? rnd.pick(sent) : undefined;
    const entries =
      previous ??
      Array.from({ length: ENTRIES_PER_GRANT }, () => {
        const email = rnd.chance(0.2) ? rnd.pick(existing) : rnd.pick(newEmails);
        const entry: GrantEntry = { course_id: rnd.pick(courses).id, email: rnd.chance(0.1) ? email.toUpperCase() : email };
        if (rnd.chance(0.25)) entry.access_level = 1;
        else if (rnd.chance(0.5)) entry.access_level = 0;
        if (rnd.chance(0.3)) entry.name = `Learner ${r}`;
        return entry;
      });
    sent.push(entries);
    for (const e of entries) expected.grant(e.email, e.course_id, e.access_level ?? 0);
    operations.push({ kind: 'grant', entries });
  }
  for (let o = 0; o < ORDERS; o++) {
    const email = rnd.chance(0.5) ? `buyer-${o}@example.com` : rnd.pick([...existing, ...newEmails]);
    const [first, second] = [rnd.pick(courses), rnd.pick(courses)];
    const premium = rnd.chance(0.4);
    // A course in both lists takes the level from `courses` (order rule 2).
    expected.grant(email, first.id, first.id === second.id && premium ? 1 : 0);
    expected.grant(email, second.id, premium ? 1 : 0);
    operations.push({
      kind: 'order',
      order: {
        email,
        external_id: `ext-${randomUUID()}`,
        ordinal_number: `D/${o}`,
        ordered_contents: [{ product_id: `p${o}`, course_ids: [first.id], courses: [{ id: second.id, access_level: premium ? 1 : 0 }] }],
      },
    });
  }
  // Grants and orders interleaved.
  return operations.map((op) => ({ op, key: rnd.next() })).sort((a, b) => a.key - b.key).map(({ op }) => op);
}

interface Posted {
  workflowIds: string[];
  orderIds: string[];
}

/** Posts the operations a few at a time, as a shop's queue would. */
async function post(operations: Operation[], posted: Posted, concurrency = 10): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < operations.length) {
      const op = operations[next++]!;
      const res =
        op.kind === 'grant'
          ? await stack.app.inject({ method: 'POST', url: '/api/courses/subscribe', headers: { 'x-api-key': platform.apiKey }, payload: { subscriptions: op.entries } })
          : await stack.app.inject({ method: 'POST', url: '/api/orders', headers: { 'x-api-key': platform.apiKey }, payload: { order: op.order } });
      expect(res.statusCode, res.body).toBe(op.kind === 'grant' ? 200 : 201);
      if (op.kind === 'grant') posted.workflowIds.push(...(res.json().workflow_ids as string[]));
      else posted.orderIds.push(res.json().id as string);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
}

const sql = <T = any>(query: string, params: unknown[] = []): Promise<T[]> => stack.orm.em.fork().getConnection().execute(query, params);

const activeEnrolments = async () =>
  (await sql<{ n: number }>('select count(*)::int as n from enrolments where platform_id = ? and active', [platform.id]))[0]!.n;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Waits until `at` enrolments are applied and the worker holds started work (a loaded machine's
 * worker may be between tasks at that moment), then kills it: work is in flight by then. The
 * worker is frozen (SIGSTOP) while its started work is read, so what was seen started is still in
 * flight when it dies; seen idle, it goes on (SIGCONT) and is looked at again.
 */
async function killOnceApplied(worker: WorkerProcess, at: number, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if ((await activeEnrolments()) >= at) {
      signalGroup(worker.pid, 'SIGSTOP');
      if ((await startedWork()) > 0) break;
      signalGroup(worker.pid, 'SIGCONT');
    }
    if (Date.now() > deadline) throw new Error(`fewer than ${at} enrolments, or no started work, within ${timeoutMs} ms:\n${worker.output()}`);
    await sleep(20);
  }
  await worker.kill('SIGKILL');
}

/**
 * Work the dead worker had started and not completed: workflow tasks (a grant's or an order's
 * step runs as a local activity inside one) and activities. Both are retried once they time out.
 */
async function startedWork(): Promise<number> {
  const handles = [];
  for await (const execution of stack.temporal.workflow.list({ query: `WorkflowId STARTS_WITH "${platformPrefix(platform.id)}/" AND ExecutionStatus = "Running"` })) {
    handles.push(stack.temporal.workflow.getHandle(execution.workflowId, execution.runId));
  }
  const descriptions = await Promise.all(handles.map((h) => h.describe()));
  const tasks = descriptions.filter((d) => d.raw.pendingWorkflowTask?.state === WORKFLOW_TASK_STARTED).length;
  return tasks + descriptions.flatMap((d) => d.raw.pendingActivities ?? []).filter((a) => a.state === ACTIVITY_STARTED).length;
}

describe('a worker killed in the middle of a burst', () => {
  it('loses nothing and doubles nothing once a new worker took over', { timeout: 120_000 }, async () => {
    const first = startWorker();
    await first.ready;

    // Participants that exist and are invited before the burst.
    const existing = Array.from({ length: 5 }, (_, i) => `existing-${i}@example.com`);
    const expected = new Expected();
    const warmUp = await stack.app.inject({
      method: 'POST',
      url: '/api/courses/subscribe',
      headers: { 'x-api-key': platform.apiKey },
      payload: { subscriptions: existing.map((email) => ({ course_id: courses[0]!.id, email })) },
    });
    expect(warmUp.statusCode, warmUp.body).toBe(200);
    await Promise.all((warmUp.json().workflow_ids as string[]).map((id) => stack.temporal.workflow.getHandle(id).result()));
    for (const email of existing) expected.grant(email, courses[0]!.id, 0);
    const warmedUp = await activeEnrolments();

    const operations = burst(existing, expected);
    const grantEntries = operations.reduce((n, op) => n + (op.kind === 'grant' ? op.entries.length : 0), 0);
    expect(grantEntries + ORDERS).toBeGreaterThanOrEqual(200);
    expect(operations.filter((op) => op.kind === 'grant' && op.entries.some((e) => e.access_level === 1)).length).toBeGreaterThan(0);
    const total = expected.levels.size;
    const split = Math.round(operations.length * BEFORE_KILL);
    const posted: Posted = { workflowIds: warmUp.json().workflow_ids, orderIds: [] };

    // First part of the burst; the worker dies while it works through it.
    await Promise.all([post(operations.slice(0, split), posted), killOnceApplied(first, warmedUp + KILL_AFTER_ENROLMENTS)]);
    const atKill = await activeEnrolments();
    expect(atKill).toBeGreaterThan(warmedUp);
    expect(atKill).toBeLessThan(total);
    expect(await startedWork()).toBeGreaterThan(0);

    // The rest of the burst arrives while a new worker starts.
    const second = startWorker();
    await Promise.all([post(operations.slice(split), posted), second.ready]);

    // Every grant and order workflow completes; then whatever else runs under the platform's prefix
    // (the course mails they start as children) settles too.
    const started = [...posted.workflowIds, ...posted.orderIds.map((orderId) => orderWorkflowId({ platformId: platform.id, orderId, step: 'fulfil' }))];
    expect(new Set(started).size).toBe(started.length);
    await Promise.all(started.map((id) => stack.temporal.workflow.getHandle(id).result()));
    expect((await settledWorkflows(stack.temporal, `${platformPrefix(platform.id)}/`, started.length)).length).toBeGreaterThanOrEqual(started.length);

    // Every grant applied exactly once, at the highest level asked for.
    const enrolments = await sql<{ email: string; course_id: string; access_level: number; active: boolean }>(
      `select p.email, e.course_id, e.access_level, e.active from enrolments e join participants p on p.id = e.participant_id where e.platform_id = ?`,
      [platform.id],
    );
    expect(Object.fromEntries(enrolments.map((e) => [`${e.email} ${e.course_id}`, e.active ? e.access_level : 'inactive']))).toEqual(Object.fromEntries(expected.levels));
    expect(enrolments).toHaveLength(total);

    // One participant per e-mail, invited once.
    const participants = await sql<{ email: string; invited: boolean }>('select email, invited_at is not null as invited from participants where platform_id = ?', [platform.id]);
    expect(participants.map((p) => p.email).sort()).toEqual([...expected.emails].sort());
    expect(participants.every((p) => p.invited)).toBe(true);
    const mails = await sql<{ to: string; template: string; n: number }>('select "to", template, count(*)::int as n from mail_log where platform_id = ? group by "to", template', [platform.id]);
    expect(mails.filter((m) => m.template === 'user_invitation').map((m) => [m.to, m.n]).sort()).toEqual([...expected.emails].sort().map((email) => [email, 1]));

    // Every order fulfilled once.
    const orders = await sql<{ id: string; fulfilled: boolean; status: string }>('select id, fulfilled_at is not null as fulfilled, status from orders where platform_id = ?', [platform.id]);
    expect(orders.map((o) => o.id).sort()).toEqual([...posted.orderIds].sort());
    expect(orders.every((o) => o.fulfilled && o.status === 'registered')).toBe(true);

    // Domain events: one per occurrence.
    const events = await sql<{ type: string; payload: any }>('select type, payload from domain_events where platform_id = ? order by occurred_at, id', [platform.id]);
    const ofType = (type: string) => events.filter((e) => e.type === type).map((e) => e.payload);
    expect(ofType('order_fulfilled').map((p) => p.order.id).sort()).toEqual([...posted.orderIds].sort());
    expect(ofType('user_registered').map((p) => p.participant.email).sort()).toEqual([...expected.emails].sort());
    expect(ofType('access_revoked')).toEqual([]);
    // access_granted per participant and course: one per level change, the levels strictly rising.
    const granted = new Map<string, number[]>();
    for (const p of ofType('access_granted')) {
      const key = `${p.participant.email} ${p.resource.id}`;
      granted.set(key, [...(granted.get(key) ?? []), p.access_level]);
    }
    for (const [key, level] of expected.levels) {
      const levels = granted.get(key) ?? [];
      expect({ key, levels }).toEqual({ key, levels: level === 1 && levels.length === 2 ? [0, 1] : [level] });
    }
    expect([...granted.keys()].sort()).toEqual([...expected.levels.keys()].sort());
  });
});

/**
 * Personal data out of Temporal (issue 41 item 3), end to end: grants, revokes and access orders
 * start their workflows with ids only; the step reads the address and name from the command's row
 * (or the order's), which a person's erasure removes and the hourly cleanup deletes after 7 days.
 * Runs started before the change, with the address in their input, still apply.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteOldCommandPeople } from '../../../db/repositories/access/command-seq.ts';
import { personalEmailHash } from '../../../db/repositories/shared/personal-data/salt.ts';
import { orderWorkflowId } from '../../../domain/shared/workflow-ids.ts';
import type { grantCourseAccess, revokeCourseAccess } from '../../../workflows/index.ts';
import { startEndToEnd, type EndToEnd } from '../../helpers/e2e.ts';
import { createAudiobook, createCourse, createPlatform, type TestCourse, type TestPlatform } from '../../helpers/fixtures.ts';
import { eventually } from '../../helpers/stack.ts';

let e2e: EndToEnd;
let platform: TestPlatform;
let course: TestCourse;
let audiobook: { id: string };

beforeAll(async () => {
  e2e = await startEndToEnd('e2e-command-people');
  platform = await createPlatform(e2e.stack.app);
  course = await createCourse(e2e.stack.app, platform.id);
  audiobook = await createAudiobook(e2e.stack.app, platform.id);
});
afterAll(() => e2e?.close());

const person = (label: string) => {
  const u = randomBytes(4).toString('hex');
  return { email: `${label}.${u}@example.com`, name: `Firstname${u} Lastname${u}`, needles: [u] };
};
const call = (method: string, path: string, body?: unknown) => e2e.http(method, path, { key: platform.apiKey, body });
const handle = (workflowId: string) => e2e.stack.temporal.workflow.getHandle(workflowId);

/** The run's input as Temporal stored it: the WorkflowExecutionStarted event's payloads, decoded. */
async function startedInput(workflowId: string): Promise<string> {
  const history = await handle(workflowId).fetchHistory();
  const payloads = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads ?? [];
  expect(payloads.length).toBeGreaterThan(0);
  return payloads.map((p) => Buffer.from(p.data ?? new Uint8Array()).toString('utf8')).join('\n');
}

/** The run's whole history as text, every payload (input, activity results, the result) decoded from base64. */
async function historyText(workflowId: string): Promise<string> {
  const history = await handle(workflowId).fetchHistory();
  return JSON.stringify(history, (key, value) => (key === 'data' && typeof value === 'string' ? Buffer.from(value, 'base64').toString('utf8') : value));
}

const commandRows = async (email: string): Promise<number> => {
  const rows: { n: string }[] = await e2e.stack.orm.em.fork().execute('select count(*) as n from access_command_people where platform_id = ? and lower(email) = ?', [platform.id, email]);
  return Number(rows[0]!.n);
};
/** The ids of the runs whose id starts with `prefix` (one at least). */
const runsOf = (prefix: string) =>
  eventually(async () => {
    const found: string[] = [];
    for await (const run of e2e.stack.temporal.workflow.list({ query: `WorkflowId STARTS_WITH "${prefix}"` })) found.push(run.workflowId);
    expect(found.length).toBeGreaterThan(0);
    return found;
  });
const courseOf = (data: any) => data.courses.find((c: any) => c.course_id === course.id);

describe('grant and revoke workflows carry no address', () => {
  it('a course grant, an audiobook grant and a revoke start with ids only, and still apply to the person', async () => {
    const { email, name, needles } = person('ids');
    const granted = await call('POST', '/api/courses/subscribe', { subscriptions: { course_id: course.id, email, name, access_level: 1 } });
    expect(granted.status).toBe(200);
    const [grantId] = granted.body.workflow_ids as string[];
    expect(await handle(grantId!).result()).toMatchObject({ outcome: 'applied', accessLevel: 1 });
    const grantInput = await startedInput(grantId!);
    expect(JSON.parse(grantInput)).toMatchObject({ platformId: platform.id, courseId: course.id, accessLevel: 1 });
    for (const needle of [email, ...needles]) expect(grantInput).not.toContain(needle);
    const data = await e2e.participantWhen(platform.id, email, (d) => expect(courseOf(d)).toMatchObject({ active: true, access_level: 1 }));
    expect(data.name).toBe(name);

    expect((await call('POST', '/api/audiobooks/subscribe', { subscriptions: { audiobook_id: audiobook.id, email, name } })).status).toBe(204);
    expect((await call('DELETE', '/api/courses/unsubscribe', { unsubscriptions: { course_id: course.id, email } })).status).toBe(204);
    const hash = await personalEmailHash(e2e.stack.orm.em.fork(), email);
    const [audiobookRun] = await runsOf(`platform/${platform.id}/audiobook/${audiobook.id}/${hash}/grant/`);
    const [revokeRun] = await runsOf(`platform/${platform.id}/course/${course.id}/${hash}/revoke/`);
    expect(await handle(audiobookRun!).result()).toMatchObject({ outcome: 'applied' });
    // Rule 6: a level-1 course is kept, which the revoke read the person's address to find.
    expect(await handle(revokeRun!).result()).toMatchObject({ outcome: 'level_1_kept', accessLevel: 1 });
    for (const id of [audiobookRun!, revokeRun!]) {
      const input = await startedInput(id);
      for (const needle of [email, ...needles]) expect(input).not.toContain(needle);
    }
    // Nor do the activities' results: the recorded events come back as ids, their payloads stay in the database.
    for (const id of [grantId!, audiobookRun!, revokeRun!]) {
      const history = await historyText(id);
      // The grants' results name their access_granted events (the revoke kept level 1: none).
      if (id !== revokeRun) expect(history).toContain('access_granted');
      for (const needle of [email, ...needles]) expect(history).not.toContain(needle);
    }
  });

  it('an access order starts fulfilOrder with the order id only, and grants to the order\'s address', async () => {
    const { email, needles } = person('order');
    const res = await call('POST', '/api/orders', { order: { email, external_id: `ext-${randomUUID()}`, ordered_contents: [{ course_ids: [course.id] }] } });
    expect(res.status).toBe(201);
    const workflowId = orderWorkflowId({ platformId: platform.id, orderId: res.body.id, step: 'fulfil' });
    await eventually(() => handle(workflowId).describe());
    await handle(workflowId).result();
    const input = await startedInput(workflowId);
    expect(JSON.parse(input)).toMatchObject({ platformId: platform.id, orderId: res.body.id });
    for (const needle of [email, ...needles]) expect(input).not.toContain(needle);
    await e2e.participantWhen(platform.id, email, (d) => expect(courseOf(d)?.active).toBe(true));
  });

  it('runs started before the change, with the address and name in their input, still apply', async () => {
    const { email, name } = person('old');
    const taskQueue = e2e.stack.taskQueue;
    const workflowId = `test/${randomUUID()}`;
    const granted = await e2e.stack.temporal.workflow.execute<typeof grantCourseAccess>('grantCourseAccess', {
      taskQueue,
      workflowId,
      args: [{ platformId: platform.id, courseId: course.id, email, name, accessLevel: 0, seq: 1 }],
    });
    expect(granted).toMatchObject({ outcome: 'applied', accessLevel: 0 });
    // The history read above shows an address when an input holds one.
    expect(await startedInput(workflowId)).toContain(email);
    const data = await e2e.participantWhen(platform.id, email, (d) => expect(courseOf(d)?.active).toBe(true));
    expect(data.name).toBe(name);
    const revoked = await e2e.stack.temporal.workflow.execute<typeof revokeCourseAccess>('revokeCourseAccess', {
      taskQueue,
      workflowId: `test/${randomUUID()}`,
      args: [{ platformId: platform.id, courseId: course.id, email, seq: 2 }],
    });
    expect(revoked).toMatchObject({ outcome: 'applied' });
    await e2e.participantWhen(platform.id, email, (d) => expect(courseOf(d)?.active).toBe(false));
  });
});

describe('the command rows', () => {
  it('a person\'s export shows them and their erasure removes them', async () => {
    const { email, name } = person('erased');
    const granted = await call('POST', '/api/courses/subscribe', { subscriptions: [{ course_id: course.id, email, name }, { course_id: course.id, email: email.toUpperCase() }] });
    expect(granted.status).toBe(200);
    await Promise.all((granted.body.workflow_ids as string[]).map((id) => handle(id).result()));
    expect(await commandRows(email)).toBe(2);
    const exported = await e2e.http('GET', `/admin/v1/platforms/${platform.id}/participants/export?email=${encodeURIComponent(email)}`, { operator: true });
    expect(exported.status).toBe(200);
    const doc = exported.body.data ?? exported.body;
    expect(doc.access_commands).toHaveLength(2);
    expect(doc.access_commands.map((r: any) => r.name)).toContain(name);

    const erase = await e2e.http('POST', `/admin/v1/platforms/${platform.id}/participants/erase`, { operator: true, body: { email } });
    expect(erase.status).toBe(202);
    const done = await eventually(async () => {
      const res = await e2e.http('GET', `/admin/v1/platforms/${platform.id}/participants/erasures/${erase.body.data.erasure_id}`, { operator: true });
      expect(res.body.data?.status).toBe('completed');
      return res.body.data;
    }, { timeoutMs: 90_000 });
    expect(done.counts).toMatchObject({ access_commands: 2, participant: 1 });
    expect(await commandRows(email)).toBe(0);
  });

  it('the hourly cleanup deletes rows older than 7 days and keeps the newer ones', async () => {
    const old = person('aged');
    const recent = person('recent');
    const granted = await call('POST', '/api/courses/subscribe', { subscriptions: [{ course_id: course.id, email: old.email }, { course_id: course.id, email: recent.email }] });
    expect(granted.status).toBe(200);
    await Promise.all((granted.body.workflow_ids as string[]).map((id) => handle(id).result()));
    const em = e2e.stack.orm.em.fork();
    await em.execute(`update access_command_people set created_at = now() - interval '8 days' where platform_id = ? and email = ?`, [platform.id, old.email]);
    while ((await deleteOldCommandPeople(em, 1000)) === 1000);
    expect(await commandRows(old.email)).toBe(0);
    expect(await commandRows(recent.email)).toBe(1);
  });
});

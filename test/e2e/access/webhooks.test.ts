/**
 * Webhooks end to end (issue 5, points 3-7): the API, a worker with real activities and a receiver
 * on loopback (reachable through WEBHOOK_PRIVATE_ALLOWLIST=127.0.0.1/32). Every event is delivered
 * once per occurrence to every active subscribed webhook, signed; failures are retried on a short
 * schedule and visible in the history.
 */
import { WorkflowNotFoundError } from '@temporalio/client';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sealSecret } from '../../../adapters/secrets/secret-box.ts';
import { createActivities } from '../../../activities/index.ts';
import { personalEmailHash } from '../../../db/repositories/shared/personal-data/salt.ts';
import { parseCidrList } from '../../../domain/shared/ip-ranges.ts';
import { platformPrefix, webhookDeliveryWorkflowId } from '../../../domain/shared/workflow-ids.ts';
import { httpClient, settledWorkflows } from '../../helpers/http.ts';
import { createCourse, createPlatform, lessonIds, uniqueEmail, type TestCourse, type TestPlatform } from '../../helpers/fixtures.ts';
import { CONFIGURATION, createConfigurationKey } from '../../helpers/configuration.ts';
import { eventually, PLATFORM_URL_TEMPLATE, startTestApp, startTestWorker, type RunningWorker, type TestStack } from '../../helpers/stack.ts';
import { loopbackOnlyTransport, startWebhookReceiver, verifySignatures, type WebhookReceiver } from '../../helpers/webhook-receiver.ts';

const SECRET = 'e2e-signing-secret-0123456789abcdef';
const ATTEMPT_TIMEOUT_MS = 8000;
const WHSEC = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

let stack: TestStack;
let worker: RunningWorker;
let receiver: WebhookReceiver;
let http: ReturnType<typeof httpClient>;
const guard = loopbackOnlyTransport();

beforeAll(async () => {
  stack = await startTestApp('e2e-webhooks');
  receiver = await startWebhookReceiver();
  const activities = createActivities({
    orm: stack.orm,
    platformUrlTemplate: PLATFORM_URL_TEMPLATE,
    // The attempt timeout is every delivery's budget, however busy the machine: 8 s for an answer
    // from the loopback receiver (the hanging receiver's test waits it out once).
    webhooks: { allowlist: parseCidrList('127.0.0.1/32'), retrySchedule: [200, 200, 200], timeoutMs: ATTEMPT_TIMEOUT_MS, transport: guard.transport },
  });
  worker = await startTestWorker({ taskQueue: stack.taskQueue, activities });
  http = httpClient(await stack.app.listen({ port: 0, host: '127.0.0.1' }));
});
afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
  await stack?.close();
});

interface Tenant {
  platform: TestPlatform;
  course: TestCourse;
  key: string;
}

async function tenant(): Promise<Tenant> {
  const platform = await createPlatform(stack.app, 'Webhook academy');
  const course = await createCourse(stack.app, platform.id);
  const { token } = await createConfigurationKey(stack.app, platform.id);
  return { platform, course, key: token };
}

const configure = (t: Tenant, method: string, path: string, body?: unknown) => http(method, `${CONFIGURATION}${path}`, { key: t.key, body });

async function webhook(t: Tenant, path: string, events: string[], extra: Record<string, unknown> = {}): Promise<string> {
  const res = await configure(t, 'POST', '/webhooks', { name: path, url: receiver.url(path), events, secret_key: SECRET, ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.id;
}

async function grant(t: Tenant, email: string, accessLevel = 0) {
  const res = await http('POST', '/api/courses/subscribe', { key: t.platform.apiKey, body: { subscriptions: { course_id: t.course.id, email, access_level: accessLevel } } });
  expect(res.status).toBe(200);
}

async function deliveries(t: Tenant, webhookId: string, page = 1) {
  const res = await configure(t, 'GET', `/webhooks/${webhookId}/deliveries?page=${page}`);
  expect(res.status).toBe(200);
  return res.body;
}

/** Waits until every delivery of the webhook has left `pending`. */
async function settled(t: Tenant, webhookId: string, count: number, timeoutMs = 45_000) {
  return eventually(
    async () => {
      const body = await deliveries(t, webhookId);
      expect(body.data).toHaveLength(count);
      for (const d of body.data) expect(d.status).not.toBe('pending');
      return body.data;
    },
    { timeoutMs },
  );
}

const eventsOf = async (platformId: string): Promise<{ id: string; type: string }[]> =>
  stack.orm.em.fork().getConnection().execute('select id, type from domain_events where platform_id = ? order by occurred_at, id', [platformId]);

describe('every event, signed, once per occurrence', () => {
  it('delivers grants, completions, quizzes, revokes and orders to every active subscribed webhook', async () => {
    const t = await tenant();
    const all = await webhook(t, '/all', ['lesson_completed', 'course_completed', 'quiz_passed', 'user_registered', 'access_granted', 'access_revoked', 'order_fulfilled'], { secret_key: WHSEC });
    const quizOnly = await webhook(t, '/quiz-only', ['quiz_passed']);
    const inactive = await webhook(t, '/inactive', ['access_granted', 'user_registered'], { active: false });

    const learner = uniqueEmail('learner');
    await grant(t, learner);
    await eventually(async () => expect((await eventsOf(t.platform.id)).map((e) => e.type).sort()).toEqual(['access_granted', 'user_registered']));
    for (const lessonId of lessonIds(t.course, 0)) {
      const res = await http('POST', `/admin/v1/platforms/${t.platform.id}/lesson_completions`, { operator: true, body: { email: learner, lesson_id: lessonId } });
      expect(res.status).toBe(201);
    }
    const quizLesson = lessonIds(t.course, 0)[0]!;
    const passed = await http('POST', `/admin/v1/platforms/${t.platform.id}/quiz_results`, { operator: true, body: { email: learner, lesson_id: quizLesson, quiz_id: 'final', score: 92, passed: true } });
    expect(passed.status, JSON.stringify(passed.body)).toBe(201);
    const failed = await http('POST', `/admin/v1/platforms/${t.platform.id}/quiz_results`, { operator: true, body: { email: learner, lesson_id: quizLesson, score: 10, passed: false } });
    expect(failed.status).toBe(201);
    // A repeated completion is the same occurrence: no second event.
    await http('POST', `/admin/v1/platforms/${t.platform.id}/lesson_completions`, { operator: true, body: { email: learner, lesson_id: quizLesson } });
    expect((await http('DELETE', '/api/courses/unsubscribe', { key: t.platform.apiKey, body: { unsubscriptions: { course_id: t.course.id, email: learner } } })).status).toBe(204);
    const order = await http('POST', '/api/orders', { key: t.platform.apiKey, body: { order: { email: uniqueEmail('buyer'), external_id: `ext-${Date.now()}`, ordered_contents: [{ course_ids: [t.course.id] }] } } });
    expect(order.status).toBe(201);

    const expectedTypes = ['user_registered', 'access_granted', 'lesson_completed', 'lesson_completed', 'course_completed', 'quiz_passed', 'access_revoked', 'user_registered', 'access_granted', 'order_fulfilled'];
    const events = await eventually(async () => {
      const found = await eventsOf(t.platform.id);
      expect(found.map((e) => e.type).sort()).toEqual([...expectedTypes].sort());
      return found;
    });
    const delivered = await settled(t, all, events.length);
    expect(delivered.every((d: any) => d.status === 'succeeded' && d.attempts.length === 1)).toBe(true);

    // Exactly once per event, each carrying its event id as webhook-id, both signatures valid.
    const requests = receiver.requests('/all');
    expect(requests.map((r) => r.headers['webhook-id']).sort()).toEqual(events.map((e) => e.id).sort());
    for (const request of requests) {
      expect(verifySignatures(request, WHSEC)).toEqual({ xWebhookSignature: true, standardWebhooks: true });
      expect(request.headers['content-type']).toBe('application/json');
      expect(Math.abs(Number(request.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(120);
      expect(request.json).toEqual({ type: expect.any(String), timestamp: expect.any(String), data: expect.objectContaining({ id: request.headers['webhook-id'] }) });
    }
    const byType = (type: string) => requests.filter((r) => r.json.type === type).map((r) => r.json.data);
    expect(byType('lesson_completed')[0]).toMatchObject({ participant: { email: learner }, course: { id: t.course.id }, lesson: { id: expect.any(String), title: expect.any(String) }, completed_at: expect.any(String) });
    expect(byType('course_completed')).toEqual([expect.objectContaining({ participant: expect.objectContaining({ email: learner }), course: expect.objectContaining({ id: t.course.id }) })]);
    expect(byType('quiz_passed')).toEqual([expect.objectContaining({ quiz_id: 'final', score: 92, lesson: expect.objectContaining({ id: quizLesson }), participant: expect.objectContaining({ email: learner }) })]);

    // The quiz-only webhook got the quiz only (signed with its own plain secret); the inactive one nothing.
    await settled(t, quizOnly, 1);
    expect(receiver.requests('/quiz-only')).toHaveLength(1);
    expect(verifySignatures(receiver.requests('/quiz-only')[0]!, SECRET)).toEqual({ xWebhookSignature: true, standardWebhooks: true });
    expect((await deliveries(t, inactive)).data).toEqual([]);
    expect(receiver.requests('/inactive')).toEqual([]);
  });
});

describe('retries, Retry-After, timeouts, 410, redirects, redelivery', () => {
  it('retries a failing receiver until it succeeds; every attempt is in the history, newest first, with one webhook-id', async () => {
    const t = await tenant();
    receiver.on('/flaky', (_r, n) => (n <= 2 ? { status: 500 } : { status: 204 }));
    const id = await webhook(t, '/flaky', ['user_registered']);
    await grant(t, uniqueEmail());
    const [delivery] = await settled(t, id, 1);
    expect(delivery).toMatchObject({ status: 'succeeded', attempt_count: 3, next_attempt_at: null });
    expect(delivery.attempts.map((a: any) => a.status_code)).toEqual([204, 500, 500]);
    expect(delivery.attempts[1].error).toContain('HTTP 500');
    expect(delivery.attempts.every((a: any) => typeof a.duration_ms === 'number' && a.attempted_at)).toBe(true);
    expect(new Set(receiver.requests('/flaky').map((r) => r.headers['webhook-id']))).toEqual(new Set([delivery.event_id]));
    expect(new Set(receiver.requests('/flaky').map((r) => r.body)).size).toBe(1);
  });

  it('honours Retry-After', async () => {
    const t = await tenant();
    receiver.on('/busy', (_r, n) => (n === 1 ? { status: 503, headers: { 'retry-after': '2' } } : { status: 200 }));
    const id = await webhook(t, '/busy', ['user_registered']);
    await grant(t, uniqueEmail());
    await settled(t, id, 1);
    const [first, second] = receiver.requests('/busy');
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(1900);
  });

  it('retries a receiver that does not answer in time, with the same webhook-id', async () => {
    const t = await tenant();
    receiver.on('/slow', (_r, n) => (n === 1 ? 'hang' : { status: 200 }));
    const id = await webhook(t, '/slow', ['user_registered']);
    await grant(t, uniqueEmail());
    const [delivery] = await settled(t, id, 1);
    expect(delivery.status).toBe('succeeded');
    expect(delivery.attempts.map((a: any) => a.status_code)).toEqual([200, null]);
    expect(delivery.attempts[1].error).toContain(`no reply within ${ATTEMPT_TIMEOUT_MS} ms`);
    const ids = receiver.requests('/slow').map((r) => r.headers['webhook-id']);
    expect(ids).toEqual([delivery.event_id, delivery.event_id]);
  });

  it('disables the webhook on 410 and sends it nothing more', async () => {
    const t = await tenant();
    receiver.on('/gone', () => ({ status: 410 }));
    const id = await webhook(t, '/gone', ['user_registered']);
    await grant(t, uniqueEmail());
    const [delivery] = await settled(t, id, 1);
    expect(delivery).toMatchObject({ status: 'failed', attempt_count: 1 });
    expect(delivery.attempts[0]).toMatchObject({ status_code: 410, error: expect.stringContaining('disabled') });
    expect((await configure(t, 'GET', `/webhooks/${id}`)).body.data.active).toBe(false);
    const later = uniqueEmail();
    await grant(t, later);
    // The later grant's run is over: it started the delivery of each of its events to every
    // subscribed active webhook before it returned, so none for this one means nothing more is sent.
    const person = await personalEmailHash(stack.orm.em.fork(), later);
    await settledWorkflows(stack.temporal, `${platformPrefix(t.platform.id)}/course/${t.course.id}/${person}/grant/`);
    const [, event] = (await eventsOf(t.platform.id)).filter((e) => e.type === 'user_registered');
    const notStarted = stack.temporal.workflow.getHandle(webhookDeliveryWorkflowId({ platformId: t.platform.id, webhookId: id, eventId: event!.id })).describe();
    await expect(notStarted).rejects.toThrow(WorkflowNotFoundError);
    expect(receiver.requests('/gone')).toHaveLength(1);
    expect((await deliveries(t, id)).data).toHaveLength(1);
  });

  it('fails a delivery whose secret_key cannot be opened with this SECRETS_KEY: one attempt, nothing sent, no retry', async () => {
    const t = await tenant();
    const id = await webhook(t, '/other-key', ['user_registered']);
    // Sealed with another SECRETS_KEY (a key changed without saving the webhook again).
    await stack.orm.em.fork().getConnection().execute('update webhooks set secret_sealed = ? where id = ?', [sealSecret(SECRET, randomBytes(32)), id]);
    await grant(t, uniqueEmail());
    const [delivery] = await settled(t, id, 1);
    expect(delivery).toMatchObject({ status: 'failed', attempt_count: 1, next_attempt_at: null });
    expect(delivery.attempts).toEqual([expect.objectContaining({ status_code: null, error: 'secret_key cannot be opened with this SECRETS_KEY; save the webhook again' })]);
    expect(receiver.requests('/other-key')).toEqual([]);
  });

  it('never follows a redirect, not even to a private address', async () => {
    const t = await tenant();
    const before = guard.calls.length;
    receiver.on('/redirect', () => ({ status: 302, headers: { location: 'http://10.0.0.1/steal' } }));
    const id = await webhook(t, '/redirect', ['user_registered']);
    await grant(t, uniqueEmail());
    const [delivery] = await settled(t, id, 1);
    expect(delivery).toMatchObject({ status: 'failed', attempt_count: 4 });
    for (const attempt of delivery.attempts) expect(attempt).toMatchObject({ status_code: 302, error: expect.stringContaining('redirects are not followed') });
    expect(delivery.attempts[0].error).toContain('no attempts left');
    const calls = guard.calls.slice(before);
    expect(calls.every((c) => c.address === '127.0.0.1')).toBe(true);
    expect(receiver.requests('/redirect')).toHaveLength(4);
    expect(receiver.requests('/steal')).toEqual([]);
  });

  it('redelivers a delivery on request: one attempt, same webhook-id, marked manual', async () => {
    const t = await tenant();
    const id = await webhook(t, '/again', ['user_registered']);
    await grant(t, uniqueEmail());
    const [delivery] = await settled(t, id, 1);
    const res = await configure(t, 'POST', `/webhooks/${id}/deliveries/${delivery.id}/redeliver`);
    expect(res.status).toBe(202);
    const [after] = await settled(t, id, 1);
    expect(after.attempts.map((a: any) => [a.status_code, a.manual])).toEqual([[200, true], [200, false]]);
    expect(receiver.requests('/again').map((r) => r.headers['webhook-id'])).toEqual([delivery.event_id, delivery.event_id]);
    // Delivered by its first attempt, the grant's own: no automatic delivery workflow, only the redelivery's.
    await expect(stack.temporal.workflow.getHandle(webhookDeliveryWorkflowId({ platformId: t.platform.id, webhookId: id, eventId: delivery.event_id })).describe()).rejects.toThrow(WorkflowNotFoundError);
  });
});

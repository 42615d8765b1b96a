/**
 * A participant's data on request (issue 29), end to end: the API, a worker with the real
 * activities and a webhook receiver on loopback. The export shows what the platform holds about
 * one address; the erasure (a workflow, started once however many requests race) removes the
 * participant with enrolments, progress and quiz results, redacts mails and events, tells the
 * webhooks, and leaves the e-mail and name in no table of the database.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIGURATION, createConfigurationKey } from '../../helpers/configuration.ts';
import { startWebhookEndToEnd, type WebhookEndToEnd } from '../../helpers/e2e.ts';
import { createCourse, createPlatform, lessonIds, type TestCourse, type TestPlatform } from '../../helpers/fixtures.ts';
import { searchEveryTable } from '../../helpers/personal-data.ts';
import { expectRepeatedErasureChangesNothing } from '../../helpers/repeated-erasure.ts';
import { platformPrefix } from '../../../domain/shared/workflow-ids.ts';
import { eventually, type TestStack } from '../../helpers/stack.ts';
import { verifySignatures, type WebhookReceiver } from '../../helpers/webhook-receiver.ts';

const SECRET = 'participant-erasure-secret-0123456789';
const u = randomBytes(4).toString('hex');
const email = `Pat.${u}@Example.com`;
const name = `Patname${u} Patsurname${u}`;
const needles = [email, encodeURIComponent(email.toLowerCase()), `Patname${u}`, `Patsurname${u}`];

let e2e: WebhookEndToEnd;
let stack: TestStack;
let receiver: WebhookReceiver;
let http: WebhookEndToEnd['http'];
let platform: TestPlatform;
let course: TestCourse;
let participantId: string;

const erase = (address: string) => http('POST', `/admin/v1/platforms/${platform.id}/participants/erase`, { operator: true, body: { email: address } });
const erasure = (erasureId: string) => http('GET', `/admin/v1/platforms/${platform.id}/participants/erasures/${erasureId}`, { operator: true });
const exportOf = (address: string) => http('GET', `/admin/v1/platforms/${platform.id}/participants/export?email=${encodeURIComponent(address)}`, { operator: true });
const typesReceived = () => receiver.requests('/hook').map((r) => r.json.type as string);

beforeAll(async () => {
  e2e = await startWebhookEndToEnd('e2e-participant-data', [200, 200, 200]);
  ({ stack, receiver, http } = e2e);
  platform = await createPlatform(stack.app, 'Erasure academy');
  course = await createCourse(stack.app, platform.id);
  const { token } = await createConfigurationKey(stack.app, platform.id);
  const hook = await http('POST', `${CONFIGURATION}/webhooks`, {
    key: token,
    body: { name: 'hook', url: receiver.url('/hook'), events: ['user_registered', 'access_granted', 'participant_erased'], secret_key: SECRET },
  });
  expect(hook.status, JSON.stringify(hook.body)).toBe(201);

  const granted = await http('POST', '/api/courses/subscribe', { key: platform.apiKey, body: { subscriptions: { course_id: course.id, email, name, access_level: 0 } } });
  expect(granted.status).toBe(200);
  await eventually(async () => expect(typesReceived().sort()).toEqual(['access_granted', 'user_registered']));
  participantId = receiver.requests('/hook').find((r) => r.json.type === 'user_registered')!.json.data.participant.id;
  const lesson = lessonIds(course, 0)[0]!;
  expect((await http('POST', `/admin/v1/platforms/${platform.id}/lesson_completions`, { operator: true, body: { email, lesson_id: lesson } })).status).toBe(201);
  expect((await http('POST', `/admin/v1/platforms/${platform.id}/quiz_results`, { operator: true, body: { email, lesson_id: lesson, quiz_id: 'final', score: 92, passed: true } })).status).toBe(201);
  const order = await http('POST', '/api/orders', { key: platform.apiKey, body: { order: { email, external_id: `ext-${u}`, ordered_contents: [{ course_ids: [course.id] }] } } });
  expect(order.status).toBe(201);
});
afterAll(() => e2e?.close());

describe('GET /admin/v1/platforms/:platform_id/participants/export', () => {
  it('answers everything the platform holds about the address, compared without letter case', async () => {
    const doc = await eventually(async () => {
      const res = await exportOf(email.toUpperCase());
      expect(res.status).toBe(200);
      expect(res.body.data.progress).toHaveLength(1);
      expect(res.body.data.mails.length).toBeGreaterThanOrEqual(1);
      // Every event of the setup recorded (progress, quiz and order events are recorded by workflows after their replies).
      expect(new Set(res.body.data.events.map((e: { type: string }) => e.type))).toEqual(new Set(['user_registered', 'access_granted', 'lesson_completed', 'quiz_passed', 'order_fulfilled']));
      return res.body.data;
    });
    expect(doc.email).toBe(email.toLowerCase());
    expect(doc.participant).toEqual([expect.objectContaining({ id: participantId, email: email.toLowerCase(), name })]);
    expect(doc.enrolments).toEqual([expect.objectContaining({ course_id: course.id, access_level: 0 })]);
    expect(doc.quiz_results).toEqual([expect.objectContaining({ quiz_id: 'final', passed: true })]);
    expect(doc.orders).toEqual([expect.objectContaining({ external_id: `ext-${u}` })]);
  });

  it('an unknown person gets an empty document, not an error; a bad address is a 400 naming email', async () => {
    const res = await exportOf(`nobody-${u}@example.com`);
    expect(res.status).toBe(200);
    const { email: address, ...lists } = res.body.data;
    expect(address).toBe(`nobody-${u}@example.com`);
    expect(Object.keys(lists).length).toBeGreaterThan(5);
    for (const list of Object.values(lists)) expect(list).toEqual([]);
    const bad = await exportOf('not-an-address');
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('email');
    expect((await http('GET', `/admin/v1/platforms/${randomUUID()}/participants/export?email=a@b.co`, { operator: true })).status).toBe(404);
  });
});

describe('POST /admin/v1/platforms/:platform_id/participants/erase', () => {
  let workflowId: string;
  let erasureId: string;

  it('12 concurrent requests make one erasure, which removes the participant with enrolments, progress and quiz results', async () => {
    const replies = await Promise.all(Array.from({ length: 12 }, (_, i) => erase(i % 3 ? email : email.toLowerCase())));
    expect(replies.map((r) => r.status)).toEqual(Array(12).fill(202));
    expect(new Set(replies.map((r) => r.body.data.workflow_id)).size).toBe(1);
    ({ workflow_id: workflowId, erasure_id: erasureId } = replies[0]!.body.data);
    expect(workflowId).toBe(`platform/${platform.id}/participant-erasure/${erasureId}`);
    expect(workflowId.toLowerCase()).not.toContain(u);

    const done = await eventually(async () => {
      const res = await erasure(erasureId);
      expect(res.body.data?.status).toBe('completed');
      return res.body.data;
    }, { timeoutMs: 90_000 });
    expect(done.counts).toMatchObject({ participant: 1, enrolments: 1, progress: 1, quiz_results: 1, orders: 1 });
    const runs = [];
    for await (const run of stack.temporal.workflow.list({ query: `WorkflowId = '${workflowId}'` })) runs.push(run);
    expect(runs).toHaveLength(1);
    expect((await http('GET', `/admin/v1/platforms/${platform.id}/participants?email=${encodeURIComponent(email)}`, { operator: true })).status).toBe(404);
  }, 120_000);

  it('nothing comes back: no table holds the e-mail or the name, the export is empty', async () => {
    expect(await searchEveryTable(stack.orm, needles)).toEqual([]);
    const { email: _address, ...lists } = (await exportOf(email)).body.data;
    for (const list of Object.values(lists)) expect(list).toEqual([]);
    expect((await http('GET', `/admin/v1/platforms/${platform.id}/emails?to=${encodeURIComponent(email)}`, { operator: true })).body.data).toEqual([]);
  });

  it('tells the webhooks: participant_erased, signed like the others, with the participant id and no personal data', async () => {
    const erased = await eventually(async () => {
      const found = receiver.requests('/hook').filter((r) => r.json.type === 'participant_erased');
      expect(found).toHaveLength(1);
      return found[0]!;
    });
    expect(verifySignatures(erased, SECRET)).toEqual({ xWebhookSignature: true, standardWebhooks: true });
    expect(erased.json.data.participant).toEqual({ id: participantId });
    expect(erased.json.data.erasure_id).toBe(erasureId);
    for (const needle of needles) expect(erased.body.toLowerCase()).not.toContain(needle.toLowerCase());
  });

  it('a repeated erasure changes nothing and reports the same; a later grant starts afresh', async () => {
    await expectRepeatedErasureChangesNothing({
      erase: () => erase(email),
      erasure: () => erasure(erasureId),
      temporal: stack.temporal,
      tenantPrefix: `${platformPrefix(platform.id)}/`,
      announcements: () => typesReceived().filter((t) => t === 'participant_erased').length,
    });

    expect((await http('POST', '/api/courses/subscribe', { key: platform.apiKey, body: { subscriptions: { course_id: course.id, email } } })).status).toBe(200);
    await eventually(async () => {
      const res = await http('GET', `/admin/v1/platforms/${platform.id}/participants?email=${encodeURIComponent(email)}`, { operator: true });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ name: null, courses: [expect.objectContaining({ course_id: course.id })] });
    });
  }, 120_000);

  it('answers 400 naming email for a bad body, 404 for an unknown platform or erasure', async () => {
    const bad = await erase('nope');
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('email');
    expect((await http('POST', `/admin/v1/platforms/${randomUUID()}/participants/erase`, { operator: true, body: { email: 'a@b.co' } })).status).toBe(404);
    expect((await erasure('0'.repeat(64))).status).toBe(404);
  });
});

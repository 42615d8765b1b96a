/** The access activities on the real database, called directly to force orderings a run rarely shows. */
import { MockActivityEnvironment } from '@temporalio/testing';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActivities, type Activities } from '../../../activities/index.ts';
import type { GrantStep, OrderFulfilmentStep } from '../../../activities/access/grants.ts';
import { recordEvents } from '../../../activities/shared/events.ts';
import { accessGranted } from '../../../domain/shared/events.ts';
import { createCourse, createPlatform, uniqueEmail, type TestCourse, type TestPlatform } from '../../helpers/fixtures.ts';
import { configure, createConfigurationKey } from '../../helpers/configuration.ts';
import { PLATFORM_URL_TEMPLATE, startTestApp, type TestStack } from '../../helpers/stack.ts';

let stack: TestStack;
let activities: Activities;
let platform: TestPlatform;
let course: TestCourse;
let other: TestCourse;

beforeAll(async () => {
  stack = await startTestApp('activities');
  activities = createActivities({ orm: stack.orm, platformUrlTemplate: PLATFORM_URL_TEMPLATE });
  platform = await createPlatform(stack.app);
  course = await createCourse(stack.app, platform.id);
  other = await createCourse(stack.app, platform.id);
});
afterAll(() => stack?.close());

/** A new participant (created and invited by a first grant of another course). */
async function participant() {
  const email = uniqueEmail();
  const { participantId } = await activities.grantCourse({ platformId: platform.id, courseId: other.id, email, accessLevel: 0, seq: 1 });
  return { id: participantId, email };
}

const grant = (p: { email: string }, seq: number, accessLevel: 0 | 1 = 0) => activities.grantCourse({ platformId: platform.id, courseId: course.id, email: p.email, accessLevel, seq });
const revoke = (p: { email: string }, seq: number) => activities.withdrawCourseAccess({ platformId: platform.id, courseId: course.id, email: p.email, seq });

describe('racing grant and revoke commands', () => {
  it('a revoke applied before an older grant makes that grant stale (the later request wins)', async () => {
    const p = await participant();
    expect((await revoke(p, 20)).outcome).toBe('not_enrolled');
    expect((await grant(p, 10)).outcome).toBe('stale');
    expect((await grant(p, 30)).outcome).toBe('applied');
  });

  it('a grant applied before an older revoke makes that revoke stale', async () => {
    const p = await participant();
    expect((await grant(p, 50)).outcome).toBe('applied');
    expect((await revoke(p, 40)).outcome).toBe('stale');
    expect((await revoke(p, 60)).outcome).toBe('applied');
  });

  it('concurrent grants of both levels end at level 1 with one enrolment', async () => {
    const p = await participant();
    await Promise.all([grant(p, 70, 0), grant(p, 71, 1), grant(p, 72, 0), grant(p, 73, 1)]);
    const rows = await stack.orm.em.fork().getConnection().execute('select access_level, active from enrolments where participant_id = ? and course_id = ?', [p.id, course.id]);
    expect(rows).toEqual([{ access_level: 1, active: true }]);
  });
});

describe('start of an enrolment', () => {
  it('is when access is first granted, not when an earlier revoke made the row', async () => {
    const p = await participant();
    await revoke(p, 80);
    const startedAt = async () =>
      new Date((await stack.orm.em.fork().getConnection().execute('select started_at from enrolments where participant_id = ? and course_id = ?', [p.id, course.id]))[0]!.started_at);
    const before = await startedAt();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await grant(p, 90)).outcome).toBe('applied');
    expect((await startedAt()).getTime()).toBeGreaterThan(before.getTime());
  });
});

describe('the course mails a grant hands on', () => {
  it("are due when the course has an active mail timed from enrolment, not when its only mail follows a lesson or is off", async () => {
    const key = (await createConfigurationKey(stack.app, platform.id)).token;
    const mails = await createCourse(stack.app, platform.id);
    const template = (body: Record<string, unknown>) => configure(stack.app, 'POST', `/courses/${mails.id}/email_templates`, key, { subject: 'Course news', description: '<p>Hi</p>', ...body });
    const grantNew = async () => (await activities.grantCourse({ platformId: platform.id, courseId: mails.id, email: uniqueEmail(), accessLevel: 0, seq: 1 })).courseMails;

    // A participant invited by the grant itself owes no reinvitation: only the course's mails count.
    expect(await grantNew()).toBe(false);
    expect((await template({ active: true, send_after_lesson: mails.sections[0]!.lessons[0]!.id })).statusCode).toBe(201);
    expect((await template({ active: false, send_after: 3 })).statusCode).toBe(201);
    expect(await grantNew()).toBe(false);
    expect((await template({ active: true, send_after: 2 })).statusCode).toBe(201);
    expect(await grantNew()).toBe(true);
  });
});

describe('a retried grant', () => {
  it('answers as its first attempt did when that attempt committed but its reply was lost', async () => {
    const email = uniqueEmail();
    // Both runs are attempts of one activity of one workflow run: the same operation.
    const attempt = new MockActivityEnvironment({
      activityId: '3',
      workflowExecution: { workflowId: `test/${email}`, runId: randomUUID() },
    });
    const input = { platformId: platform.id, courseId: course.id, email, accessLevel: 0 as const, seq: 100 };
    const first: GrantStep = await attempt.run(activities.grantCourse, input);
    const retry: GrantStep = await attempt.run(activities.grantCourse, input);
    expect(first).toMatchObject({ outcome: 'applied', created: true, invitationSent: true, invitationMailId: expect.any(String), invitationDelivery: 'sent' });
    expect(first.events.map((e) => e.type)).toEqual(['user_registered', 'access_granted']);
    // The retry finds what the first attempt recorded: the same events, the participant still
    // counted as created, and the invitation delivered by the first attempt (nothing to hand on;
    // test/activities/shared/mail-delivery.test.ts: an undelivered one is attempted again).
    expect(retry).toEqual({ ...first, invitationSent: false, invitationMailId: null, invitationDelivery: null });
    // A new grant (another operation) changes nothing and says so.
    expect(await grant({ email }, 101)).toMatchObject({ outcome: 'unchanged', created: false, events: [] });
  });
});

describe('a grant of a course of another platform', () => {
  it('fails for good and leaves nothing behind: no participant, no invitation', async () => {
    const email = uniqueEmail();
    const elsewhere = await createCourse(stack.app, (await createPlatform(stack.app)).id);
    const error = await activities.grantCourse({ platformId: platform.id, courseId: elsewhere.id, email, accessLevel: 0, seq: 1 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ type: 'CourseNotFound', nonRetryable: true });
    const rows = await stack.orm.em.fork().getConnection().execute('select 1 from participants where platform_id = ? and email = ?', [platform.id, email]);
    expect(rows).toEqual([]);
  });
});

describe('events of a retried operation', () => {
  it('a retry of the same operation returns the events already recorded instead of adding new ones', async () => {
    const event = accessGranted({ participant: { id: 'x', email: 'x@y.z' }, resource: { type: 'course', id: course.id }, accessLevel: 0, source: { kind: 'direct' } });
    const em = stack.orm.em.fork();
    const first = await em.transactional((tx) => recordEvents(tx, platform.id, [event], 'op/retry-test'));
    const retry = await em.transactional((tx) => recordEvents(tx, platform.id, [], 'op/retry-test'));
    expect(retry).toEqual(first);
    expect(first).toHaveLength(1);
  });
});

describe("an order's fulfilment step", () => {
  /** Registers an order through the API (its workflow never runs here: no worker) and returns its id. */
  async function registerOrder(email: string, courseIds: string[]): Promise<string> {
    const res = await stack.app.inject({
      method: 'POST',
      url: '/api/orders',
      headers: { 'x-api-key': platform.apiKey },
      payload: { order: { email, external_id: `ext-${randomUUID()}`, ordinal_number: 'D/1', ordered_contents: [{ product_id: 'p1', course_ids: courseIds }] } },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  }

  it('grants every course and fulfils the order once; a retry after the commit answers the same', async () => {
    const email = uniqueEmail();
    const orderId = await registerOrder(email, [course.id, other.id]);
    const attempt = new MockActivityEnvironment({ activityId: '1', workflowExecution: { workflowId: `test/${orderId}`, runId: randomUUID() } });
    const input = { platformId: platform.id, orderId, email, courses: [{ courseId: other.id, accessLevel: 0 as const }, { courseId: course.id, accessLevel: 1 as const }], seq: 500 };
    const first: OrderFulfilmentStep = await attempt.run(activities.fulfilOrderAccess, input);
    expect(first).toMatchObject({ created: true, fulfilled: true, courses: [{ courseId: other.id }, { courseId: course.id }] });
    expect(first.events.map((e) => e.type)).toEqual(['user_registered', 'access_granted', 'access_granted', 'order_fulfilled']);
    expect(first).toMatchObject({ invitationSent: true, invitationDelivery: 'sent' });
    expect(await attempt.run(activities.fulfilOrderAccess, input)).toEqual({ ...first, invitationSent: false, invitationMailId: null, invitationDelivery: null });
  });

  it('grants nothing for an order cancelled before its fulfilment', async () => {
    const email = uniqueEmail();
    const orderId = await registerOrder(email, [course.id]);
    const cancelled = await stack.app.inject({ method: 'DELETE', url: `/api/orders/${orderId}`, headers: { 'x-api-key': platform.apiKey } });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const step = await activities.fulfilOrderAccess({ platformId: platform.id, orderId, email, courses: [{ courseId: course.id, accessLevel: 0 }], seq: 501 });
    expect(step).toMatchObject({ fulfilled: false, courses: [{ courseId: course.id, courseMails: false }] });
    expect(step.events.map((e) => e.type)).toEqual(['user_registered']);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCourse, createPlatform, uniqueEmail, type TestCourse, type TestPlatform } from '../../helpers/fixtures.ts';
import { personalEmailHash } from '../../../db/repositories/shared/personal-data/salt.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';

let stack: TestStack;
let platform: TestPlatform;
let other: TestPlatform;
let course: TestCourse;
let othersCourse: TestCourse;

beforeAll(async () => {
  stack = await startTestApp('grants-api');
  [platform, other] = await Promise.all([createPlatform(stack.app), createPlatform(stack.app)]);
  [course, othersCourse] = await Promise.all([createCourse(stack.app, platform.id), createCourse(stack.app, other.id)]);
});
afterAll(() => stack?.close());

const subscribe = (payload: unknown, key = platform.apiKey) =>
  stack.app.inject({ method: 'POST', url: '/api/courses/subscribe', headers: { 'x-api-key': key, 'content-type': 'application/json' }, payload: JSON.stringify(payload) });

async function workflowsStarted(ids: string[]) {
  return Promise.all(ids.map((id) => stack.temporal.workflow.getHandle(id).describe()));
}

describe('POST /api/courses/subscribe', () => {
  it('queues one entry object durably and answers 200', async () => {
    const email = uniqueEmail();
    const res = await subscribe({ subscriptions: { course_id: course.id, email, name: 'Ann' } });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ status: 'queued', queued: 1 });
    // The person is named by the address's keyed hash, never the address (issue 41 item 3).
    const person = await personalEmailHash(stack.orm.em.fork(), email);
    expect(body.workflow_ids).toEqual([expect.stringMatching(new RegExp(`^platform/${platform.id}/course/${course.id}/${person}/grant/\\d+$`))]);
    expect(body.workflow_ids[0]).not.toContain(email);
    const [described] = await workflowsStarted(body.workflow_ids);
    expect(described?.type).toBe('grantCourseAccess');
    expect(described?.taskQueue).toBe(stack.taskQueue);
  });

  it('accepts an array of entries', async () => {
    const res = await subscribe({
      subscriptions: [
        { course_id: course.id, email: uniqueEmail() },
        { course_id: course.id, email: uniqueEmail(), access_level: 1 },
      ],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().queued).toBe(2);
  });

  it.each([
    ['an unknown course', () => ({ course_id: '00000000-0000-4000-8000-000000000000', email: uniqueEmail() })],
    ["another account's course", () => ({ course_id: othersCourse.id, email: uniqueEmail() })],
    ['an invalid e-mail', () => ({ course_id: course.id, email: 'no-at-sign' })],
    ['access_level 2', () => ({ course_id: course.id, email: uniqueEmail(), access_level: 2 })],
    ['access_level -1', () => ({ course_id: course.id, email: uniqueEmail(), access_level: -1 })],
    ['access_level "1"', () => ({ course_id: course.id, email: uniqueEmail(), access_level: '1' })],
    ['a missing course_id', () => ({ email: uniqueEmail() })],
    ['a missing e-mail', () => ({ course_id: course.id })],
  ])('rejects the whole batch for %s and processes none of it', async (_label, makeBad) => {
    const good = { course_id: course.id, email: uniqueEmail() };
    const bad = makeBad();
    const res = await subscribe({ subscriptions: [good, bad] });
    expect(res.statusCode).toBe(400);
    expect(res.json().invalid_subscriptions).toEqual([bad]);
    expect(res.json().errors[0]).toMatchObject({ index: 1 });
    const person = await personalEmailHash(stack.orm.em.fork(), good.email);
    const started = stack.temporal.workflow.list({ query: `WorkflowId STARTS_WITH "platform/${platform.id}/course/${course.id}/${person}/"` });
    for await (const execution of started) throw new Error(`unexpected workflow ${execution.workflowId}`);
  });

  it.each([
    ['no subscriptions', {}],
    ['subscriptions null', { subscriptions: null }],
    ['subscriptions a string', { subscriptions: 'x' }],
    ['an empty array', { subscriptions: [] }],
    ['a body that is an array', [{ course_id: 'x' }]],
  ])('answers 400 naming body.subscriptions for %s', async (_label, payload) => {
    const res = await subscribe(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toHaveProperty(['body.subscriptions']);
  });

  it('answers 400, not 500, for malformed JSON', async () => {
    const res = await stack.app.inject({
      method: 'POST',
      url: '/api/courses/subscribe',
      headers: { 'x-api-key': platform.apiKey, 'content-type': 'application/json' },
      payload: '{"subscriptions": [',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: expect.any(String) });
  });

  it('refuses batches above 1000 entries', async () => {
    const entries = Array.from({ length: 1001 }, () => ({ course_id: course.id, email: 'a@b.co' }));
    const res = await subscribe({ subscriptions: entries });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors['body.subscriptions'][0]).toMatch(/1000/);
  });

  it('answers 401 without a key and starts nothing', async () => {
    const res = await subscribe({ subscriptions: { course_id: course.id, email: uniqueEmail() } }, '');
    expect(res.statusCode).toBe(401);
  });
});

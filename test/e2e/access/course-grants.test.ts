/**
 * End to end through HTTP: the API listening on a port, a worker with the real activities, the real
 * PostgreSQL and Temporal. A grant is posted and its effects observed through the public and
 * operator APIs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCourse, createPlatform, lessonIds, operator, uniqueEmail, type TestCourse, type TestPlatform } from '../../helpers/fixtures.ts';
import { eventually, startTestApp, startTestWorker, type RunningWorker, type TestStack } from '../../helpers/stack.ts';

let stack: TestStack;
let worker: RunningWorker;
let baseUrl: string;
let platform: TestPlatform;
let course: TestCourse;

beforeAll(async () => {
  stack = await startTestApp('e2e-grants');
  worker = await startTestWorker({ taskQueue: stack.taskQueue, orm: stack.orm });
  baseUrl = await stack.app.listen({ port: 0, host: '127.0.0.1' });
  platform = await createPlatform(stack.app);
  course = await createCourse(stack.app, platform.id);
});
afterAll(async () => {
  await worker?.stop();
  await stack?.close();
});

async function http(method: string, path: string, { key = platform.apiKey, body, headers = {} }: { key?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as any };
}

const grant = (entries: unknown, key?: string) => http('POST', '/api/courses/subscribe', { key, body: { subscriptions: entries } });

async function participant(email: string, platformId = platform.id) {
  const res = await http('GET', `/admin/v1/platforms/${platformId}/participants?email=${encodeURIComponent(email)}`, { headers: operator });
  return res;
}

async function appliedParticipant(email: string, expectLevel: number) {
  return eventually(async () => {
    const res = await participant(email);
    expect(res.status).toBe(200);
    expect(res.body.data.courses.find((c: { course_id: string }) => c.course_id === course.id)?.access_level).toBe(expectLevel);
    return res.body.data;
  });
}

async function mailsTo(email: string) {
  const res = await http('GET', `/admin/v1/platforms/${platform.id}/emails?to=${encodeURIComponent(email)}`, { headers: operator });
  return res.body.data as { template: string; html: string; subject: string }[];
}

describe('a course grant end to end', () => {
  it('creates and invites a new participant with a login link, then enrols them at level 0', async () => {
    const email = uniqueEmail('new');
    expect((await grant({ course_id: course.id, email, name: 'Ann Smith' })).status).toBe(200);

    const data = await appliedParticipant(email, 0);
    expect(data).toMatchObject({ email, name: 'Ann Smith', invited: true, audiobook_ids: [] });
    expect(data.courses[0].visible_lesson_ids).toEqual(lessonIds(course, 0));

    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.template).toBe('user_invitation');
    expect(mails[0]?.html).toMatch(new RegExp(`https://${platform.subdomain}\\.test\\.local/login\\?invitation=[A-Za-z0-9_-]{32}`));
    expect(mails[0]?.html).toContain('Ann Smith');
  });

  it('rules 1, 3, 4: level 1 shows the premium lessons; a later level-0 grant removes nothing', async () => {
    const email = uniqueEmail('premium');
    await grant({ course_id: course.id, email });
    await appliedParticipant(email, 0);

    await grant({ course_id: course.id, email, access_level: 1 });
    const raised = await appliedParticipant(email, 1);
    expect(raised.courses[0].visible_lesson_ids).toEqual(lessonIds(course, 1));

    const again = await grant({ course_id: course.id, email, access_level: 0 });
    expect(again.status).toBe(200);
    await stack.temporal.workflow.getHandle(again.body.workflow_ids[0]).result();
    const kept = await appliedParticipant(email, 1);
    expect(kept.courses[0].visible_lesson_ids).toEqual(lessonIds(course, 1));
    expect(await mailsTo(email)).toHaveLength(1);
  });

  it('rule 5: the same grant repeated, also at the same moment, creates one participant, enrolment and invitation', async () => {
    const email = uniqueEmail('burst');
    const entry = { course_id: course.id, email, access_level: 0 };
    const replies = await Promise.all([
      ...Array.from({ length: 8 }, () => grant(entry)),
      grant({ ...entry, access_level: 1 }),
      grant({ ...entry, email: email.toUpperCase() }),
    ]);
    expect(replies.map((r) => r.status)).toEqual(Array(10).fill(200));
    const ids = [...new Set(replies.flatMap((r) => r.body.workflow_ids as string[]))];
    await Promise.all(ids.map((id) => stack.temporal.workflow.getHandle(id).result()));
    await grant(entry).then((r) => stack.temporal.workflow.getHandle(r.body.workflow_ids[0]).result());

    const data = await appliedParticipant(email, 1);
    expect(data.courses).toHaveLength(1);
    expect(await mailsTo(email)).toHaveLength(1);
    const rows = await stack.orm.em.fork().getConnection().execute(
      'select count(*)::int as n from participants where platform_id = ? and email = ?',
      [platform.id, email],
    );
    expect(rows[0]?.n).toBe(1);
  });
});

describe('course mails after a grant', () => {
  it('starts no course-mail workflow for a course without enrolment mails', async () => {
    const email = uniqueEmail('quiet');
    const res = await grant({ course_id: course.id, email });
    await stack.temporal.workflow.getHandle(res.body.workflow_ids[0]).result();
    const { id } = await appliedParticipant(email, 0).then(() => participantId(email));
    const mailsWorkflow = stack.temporal.workflow.getHandle(`platform/${platform.id}/course/${course.id}/participant/${id}/mails`);
    await expect(mailsWorkflow.describe()).rejects.toThrow(/not found/i);
  });
});

async function participantId(email: string): Promise<{ id: string }> {
  const rows: { id: string }[] = await stack.orm.em.fork().getConnection().execute('select id from participants where platform_id = ? and email = ?', [platform.id, email]);
  return rows[0]!;
}

describe('GET /api/users/enrollments', () => {
  it('lists active enrolments in active courses, comparing the e-mail without letter case', async () => {
    const email = uniqueEmail('lookup');
    const hidden = await createCourse(stack.app, platform.id, { title: 'To be hidden' });
    await grant([{ course_id: course.id, email }, { course_id: hidden.id, email }]);
    await eventually(async () => {
      const res = await http('GET', `/api/users/enrollments?email=${encodeURIComponent(email.toUpperCase())}`);
      expect(res.body.courses).toHaveLength(2);
    });
    await http('PATCH', `/admin/v1/platforms/${platform.id}/courses/${hidden.id}`, { headers: operator, body: { active: false } });

    const res = await http('GET', `/api/users/enrollments?email=${encodeURIComponent(email.toUpperCase())}`);
    expect(res.status).toBe(200);
    expect(res.body.email).toBe(email.toUpperCase());
    expect(res.body.courses).toEqual([
      { id: course.id, title: expect.any(String), started_at: expect.stringMatching(/Z$/), viewed_at: null },
    ]);
  });

  it('answers 200 with an empty list for an unknown or empty e-mail', async () => {
    expect((await http('GET', '/api/users/enrollments?email=nobody@example.com')).body).toEqual({ email: 'nobody@example.com', courses: [] });
    expect((await http('GET', '/api/users/enrollments?email=')).body).toEqual({ email: '', courses: [] });
  });

  it('answers 400 without the email parameter (a missing required parameter)', async () => {
    const res = await http('GET', '/api/users/enrollments');
    expect(res.status).toBe(400);
    expect(res.body).toEqual(expect.objectContaining({ error: expect.any(String) }));
  });
});

describe('isolation between platforms', () => {
  it("one platform's key never sees or grants another platform's courses or participants", async () => {
    const other = await createPlatform(stack.app);
    const email = uniqueEmail('isolated');
    await grant({ course_id: course.id, email });
    await appliedParticipant(email, 0);

    const refused = await grant({ course_id: course.id, email: uniqueEmail() }, other.apiKey);
    expect(refused.status).toBe(400);
    expect(refused.body.invalid_subscriptions).toHaveLength(1);

    expect((await http('GET', '/api/courses', { key: other.apiKey })).body).toEqual({ courses: [] });
    expect((await http('GET', `/api/users/enrollments?email=${encodeURIComponent(email)}`, { key: other.apiKey })).body.courses).toEqual([]);
    expect((await participant(email, other.id)).status).toBe(404);
  });
});

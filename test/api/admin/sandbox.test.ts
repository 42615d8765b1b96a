import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configure, createConfigurationKey } from '../../helpers/configuration.ts';
import { createAudiobook, createCourse, createPlatform, operator, uniqueEmail, type TestCourse, type TestPlatform } from '../../helpers/fixtures.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';

let stack: TestStack;

beforeAll(async () => {
  stack = await startTestApp('sandbox');
});
afterAll(() => stack?.close());

const sandbox = (method: 'GET' | 'POST', platformId: string) => stack.app.inject({ method, url: `/admin/v1/platforms/${platformId}/sandbox`, headers: operator });
const courseList = (apiKey: string) => stack.app.inject({ method: 'GET', url: '/api/courses', headers: { 'x-api-key': apiKey } });
const titles = (rows: { title: string }[]) => rows.map((r) => r.title).sort();

describe('the sandbox twin of a platform (the test environment)', () => {
  let platform: TestPlatform;
  let courses: TestCourse[];
  let twin: { id: string; subdomain: string; api_key: string; sandbox_of: string; courses: { id: string; source_id: string; slug: string }[] };

  beforeAll(async () => {
    platform = await createPlatform(stack.app, 'Academy');
    courses = [await createCourse(stack.app, platform.id, { title: 'First' }), await createCourse(stack.app, platform.id, { title: 'Second' })];
    await createAudiobook(stack.app, platform.id, { title: 'Listen' });
    const key = (await createConfigurationKey(stack.app, platform.id)).token;
    const patched = await configure(stack.app, 'PATCH', '/email_templates/user_invitation', key, { subject: 'Welcome to the academy' });
    expect(patched.statusCode, patched.body).toBe(200);

    const res = await sandbox('POST', platform.id);
    expect(res.statusCode, res.body).toBe(201);
    twin = res.json().data;
  });

  it('is a platform of its own with its own key, a copy of the catalogue, mapped course by course', async () => {
    expect(twin).toMatchObject({ subdomain: `${platform.subdomain}-sandbox`, sandbox_of: platform.id, api_key: expect.stringMatching(/^ak_/) });
    expect(twin.id).not.toBe(platform.id);
    expect(twin.courses.map((c) => c.source_id).sort()).toEqual(courses.map((c) => c.id).sort());
    expect(twin.courses.every((c) => !courses.some((own) => own.id === c.id))).toBe(true);

    const listed = await courseList(twin.api_key);
    expect(listed.statusCode, listed.body).toBe(200);
    const rows: { id: string; title: string }[] = listed.json().courses;
    expect(rows.map((c) => c.id).sort()).toEqual(twin.courses.map((c) => c.id).sort());
    expect(titles(rows)).toEqual(['First', 'Second']);
    // The platform's own key still sees its own courses only.
    const own: { id: string }[] = (await courseList(platform.apiKey)).json().courses;
    expect(own.map((c) => c.id).sort()).toEqual(courses.map((c) => c.id).sort());

    const [copied] = await stack.orm.em
      .fork()
      .getConnection()
      .execute(
        `select (select count(*)::int from sections where platform_id = ?) as sections, (select count(*)::int from lessons where platform_id = ?) as lessons,
                (select count(*)::int from audiobooks where platform_id = ?) as audiobooks,
                (select subject from platform_mail_templates where platform_id = ? and slug = 'user_invitation') as subject`,
        [twin.id, twin.id, twin.id, twin.id],
      );
    expect(copied).toEqual({ sections: courses.reduce((n, c) => n + c.sections.length, 0), lessons: courses.reduce((n, c) => n + c.sections.flatMap((s) => s.lessons).length, 0), audiobooks: 1, subject: 'Welcome to the academy' });
  });

  it('answers the same paths with its own data: a grant in the sandbox never reaches the platform', async () => {
    const email = uniqueEmail('tester');
    const granted = await stack.app.inject({
      method: 'POST',
      url: '/api/courses/subscribe',
      headers: { 'x-api-key': twin.api_key },
      payload: { subscriptions: { course_id: twin.courses[0]!.id, email } },
    });
    expect(granted.statusCode, granted.body).toBe(200);
    // A course id of the platform is unknown in the sandbox, and the reverse.
    const crossed = await stack.app.inject({
      method: 'POST',
      url: '/api/courses/subscribe',
      headers: { 'x-api-key': platform.apiKey },
      payload: { subscriptions: { course_id: twin.courses[0]!.id, email } },
    });
    expect(crossed.statusCode).not.toBe(200);
  });

  it('is one per platform: a second twin, a twin of a twin and a platform without one are refused', async () => {
    expect((await sandbox('POST', platform.id)).statusCode).toBe(409);
    expect((await sandbox('POST', twin.id)).statusCode).toBe(409);
    const got = await sandbox('GET', platform.id);
    expect(got.statusCode, got.body).toBe(200);
    expect(got.json().data).toEqual({ id: twin.id, subdomain: twin.subdomain, title: 'Academy (sandbox)', sandbox_of: platform.id, courses: twin.courses });
    expect(got.json().data).not.toHaveProperty('api_key');

    const lonely = await createPlatform(stack.app);
    expect((await sandbox('GET', lonely.id)).statusCode).toBe(404);
    expect((await sandbox('POST', '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });

  it('two twins requested at once make one', async () => {
    const other = await createPlatform(stack.app);
    await createCourse(stack.app, other.id);
    const statuses = (await Promise.all([sandbox('POST', other.id), sandbox('POST', other.id)])).map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, 409]);
  });
});

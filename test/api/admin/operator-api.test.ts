import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCourse, createPlatform, operator, type TestPlatform } from '../../helpers/fixtures.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';

let stack: TestStack;
let platform: TestPlatform;

beforeAll(async () => {
  stack = await startTestApp('operator');
  platform = await createPlatform(stack.app);
});
afterAll(() => stack?.close());

const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: unknown, headers: Record<string, string> = operator) =>
  stack.app.inject({ method, url: `/admin/v1${url}`, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

describe('operator API authentication', () => {
  it.each([
    ['no token', {}],
    ['a wrong token', { authorization: 'Bearer nope' }],
    ['a platform API key', { 'x-api-key': 'ak_x' }],
    ['the token under another scheme', { authorization: operator.authorization.replace('Bearer', 'Basic') }],
    ['the token with a trailing word', { authorization: `${operator.authorization} extra` }],
  ])('answers 401 for %s', async (_label, headers) => {
    const res = await call('POST', '/platforms', { subdomain: 'x', title: 'x' }, headers);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: expect.any(String) });
  });

  it.each(['bearer', 'BEARER', 'BeArEr'])('takes the scheme written %s (RFC 7235: the scheme is case-insensitive)', async (scheme) => {
    const res = await call('GET', `/platforms/${platform.id}/audit_log`, undefined, { authorization: operator.authorization.replace('Bearer', scheme) });
    expect(res.statusCode).toBe(200);
  });
});

describe('POST /admin/v1/platforms', () => {
  it('creates a platform and returns its API key once', async () => {
    const res = await call('POST', '/platforms', { subdomain: 'Academy-One', title: 'Academy', admin_email: 'boss@academy.test' });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toEqual({
      id: expect.any(String),
      subdomain: 'academy-one',
      title: 'Academy',
      admin_email: 'boss@academy.test',
      api_key: expect.stringMatching(/^ak_[A-Za-z0-9_-]{43}$/),
    });
  });

  it('refuses a taken subdomain with 409', async () => {
    const res = await call('POST', '/platforms', { subdomain: platform.subdomain, title: 'Again' });
    expect(res.statusCode).toBe(409);
  });

  it.each([
    ['a missing title', { subdomain: 'ok-name' }, 'body.title'],
    ['a bad subdomain', { subdomain: 'bad name!', title: 'x' }, 'body.subdomain'],
    ['a bad admin e-mail', { subdomain: 'ok-name-2', title: 'x', admin_email: 'nope' }, 'body.admin_email'],
  ])('answers 400 naming the field for %s', async (_label, body, field) => {
    const res = await call('POST', '/platforms', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toHaveProperty([field]);
  });
});

describe('courses', () => {
  it('creates a course with sections and lessons in order, and a slug from the title', async () => {
    const course = await createCourse(stack.app, platform.id, { title: 'Żółta Łódź' });
    expect(course.slug).toBe('zolta-lodz');
    expect(course.sections.map((s) => s.access_level)).toEqual([0, 1]);
    expect(course.sections[0]?.lessons.map((l) => l.title)).toEqual(['Intro', 'First steps']);
  });

  it('refuses a duplicate slug within a platform with 409, but allows it on another platform', async () => {
    await createCourse(stack.app, platform.id, { title: 'Dup', slug: 'dup' });
    expect((await call('POST', `/platforms/${platform.id}/courses`, { title: 'Dup', slug: 'dup' })).statusCode).toBe(409);
    const other = await createPlatform(stack.app);
    expect((await call('POST', `/platforms/${other.id}/courses`, { title: 'Dup', slug: 'dup' })).statusCode).toBe(201);
  });

  it('rejects a section level outside 0..1', async () => {
    const res = await call('POST', `/platforms/${platform.id}/courses`, { title: 'x', sections: [{ title: 's', access_level: 2, lessons: [] }] });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors)[0]).toMatch(/^body\.sections\.0\.access_level/);
  });

  it('PATCH changes only the fields sent', async () => {
    const course = await createCourse(stack.app, platform.id, { title: 'Before' });
    const res = await call('PATCH', `/platforms/${platform.id}/courses/${course.id}`, { title: 'After' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ title: 'After', active: true, slug: course.slug });
  });

  it("answers 404 for a course of another platform and for an unknown platform", async () => {
    const other = await createPlatform(stack.app);
    const course = await createCourse(stack.app, other.id);
    expect((await call('PATCH', `/platforms/${platform.id}/courses/${course.id}`, { title: 'x' })).statusCode).toBe(404);
    expect((await call('POST', '/platforms/00000000-0000-4000-8000-000000000000/courses', { title: 'x' })).statusCode).toBe(404);
  });
});

describe('participants and mail log', () => {
  it('answers 404 for an unknown participant, and the mail log starts empty', async () => {
    expect((await call('GET', `/platforms/${platform.id}/participants?email=nobody@example.com`)).statusCode).toBe(404);
    const mails = await call('GET', `/platforms/${platform.id}/emails`);
    expect(mails.json()).toEqual({ data: [] });
  });

  it('requires the email query parameter', async () => {
    const res = await call('GET', `/platforms/${platform.id}/participants`);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toHaveProperty(['querystring.email']);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAudiobook, createCourse, createPlatform, operator, type TestPlatform } from '../../helpers/fixtures.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';

let stack: TestStack;
let a: TestPlatform;
let b: TestPlatform;

beforeAll(async () => {
  stack = await startTestApp('catalogue');
  [a, b] = await Promise.all([createPlatform(stack.app, 'A'), createPlatform(stack.app, 'B')]);
});
afterAll(() => stack?.close());

const get = (url: string, headers: Record<string, string> = {}) => stack.app.inject({ method: 'GET', url, headers });

describe('X-API-KEY authentication', () => {
  it('GET /api/test answers 200 with a valid key', async () => {
    const res = await get('/api/test', { 'x-api-key': a.apiKey });
    expect(res.statusCode).toBe(200);
  });

  it.each([
    ['a missing key', {}],
    ['an empty key', { 'x-api-key': '' }],
    ['a wrong key', { 'x-api-key': 'ak_wrong' }],
  ])('answers 401 {error} for %s', async (_label, headers) => {
    for (const url of ['/api/test', '/api/courses', '/api/audiobooks', '/api/users/enrollments?email=a@b.co']) {
      const res = await get(url, headers);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: expect.any(String) });
    }
  });

  it('a regenerated key replaces the old one at once', async () => {
    const platform = await createPlatform(stack.app);
    const res = await stack.app.inject({ method: 'POST', url: `/admin/v1/platforms/${platform.id}/api_key`, headers: operator });
    expect(res.statusCode).toBe(201);
    const newKey: string = res.json().data.api_key;
    expect(newKey).not.toBe(platform.apiKey);
    expect((await get('/api/test', { 'x-api-key': platform.apiKey })).statusCode).toBe(401);
    expect((await get('/api/test', { 'x-api-key': newKey })).statusCode).toBe(200);
  });
});

describe('Referer', () => {
  it('is checked against the allowed domains when sent', async () => {
    const platform = await createPlatform(stack.app);
    const put = await stack.app.inject({
      method: 'PUT',
      url: `/admin/v1/platforms/${platform.id}/allowed_domains`,
      headers: operator,
      payload: { domains: ['Shop.Example.com'] },
    });
    expect(put.json()).toEqual({ data: { domains: ['shop.example.com'] } });
    const key = { 'x-api-key': platform.apiKey };
    expect((await get('/api/test', { ...key, referer: 'https://shop.example.com/checkout' })).statusCode).toBe(200);
    expect((await get('/api/test', { ...key, referer: 'https://evil.example.net/' })).statusCode).toBe(401);
    expect((await get('/api/test', key)).statusCode).toBe(200);
  });
});

describe('GET /api/courses and GET /api/audiobooks', () => {
  it('list only the active items of the key\'s own account', async () => {
    const active = await createCourse(stack.app, a.id, { title: 'Active course' });
    await createCourse(stack.app, a.id, { title: 'Hidden course', active: false });
    const othersCourse = await createCourse(stack.app, b.id, { title: 'B course' });
    const book = await createAudiobook(stack.app, a.id, { title: 'Active book' });
    await createAudiobook(stack.app, a.id, { title: 'Hidden book', active: false });
    await createAudiobook(stack.app, b.id, { title: 'B book' });

    const courses = await get('/api/courses', { 'x-api-key': a.apiKey });
    expect(courses.statusCode).toBe(200);
    expect(courses.json()).toEqual({ courses: [{ id: active.id, title: 'Active course' }] });

    const audiobooks = await get('/api/audiobooks', { 'x-api-key': a.apiKey });
    expect(audiobooks.json()).toEqual({ audiobooks: [{ id: book.id, title: 'Active book' }] });

    const bCourses = await get('/api/courses', { 'x-api-key': b.apiKey });
    expect(bCourses.json()).toEqual({ courses: [{ id: othersCourse.id, title: 'B course' }] });
  });

  it('a course switched off by the operator leaves the list', async () => {
    const platform = await createPlatform(stack.app);
    const course = await createCourse(stack.app, platform.id, { title: 'Soon gone' });
    const patch = await stack.app.inject({
      method: 'PATCH',
      url: `/admin/v1/platforms/${platform.id}/courses/${course.id}`,
      headers: operator,
      payload: { active: false },
    });
    expect(patch.statusCode).toBe(200);
    expect((await get('/api/courses', { 'x-api-key': platform.apiKey })).json()).toEqual({ courses: [] });
  });
});

describe('GET /api/users/enrollments', () => {
  it('answers 400 {error, errors} without the email parameter, 200 with an empty list for email=', async () => {
    const missing = await get('/api/users/enrollments', { 'x-api-key': a.apiKey });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ error: expect.any(String), errors: { 'querystring.email': [expect.any(String)] } });
    const empty = await get('/api/users/enrollments?email=', { 'x-api-key': a.apiKey });
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({ email: '', courses: [] });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlatform, type TestPlatform } from '../../helpers/fixtures.ts';
import { CONFIGURATION, configure, createConfigurationKey } from '../../helpers/configuration.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';

let stack: TestStack;
let platform: TestPlatform;
let key: string;

beforeAll(async () => {
  // The write limit is on here, as in production; each test that writes a lot uses its own key.
  stack = await startTestApp('configuration-conventions', { rateLimits: { enabled: true } });
  platform = await createPlatform(stack.app);
  key = (await createConfigurationKey(stack.app, platform.id)).token;
});
afterAll(() => stack?.close());

describe('Content-Type of writes', () => {
  it.each([
    ['text/plain', { 'content-type': 'text/plain' }, '{"primary_color":"#112233"}'],
    ['form data', { 'content-type': 'application/x-www-form-urlencoded' }, 'primary_color=%23112233'],
    ['no content type', {}, '{"primary_color":"#112233"}'],
  ])('a PATCH sent as %s gets 415', async (_label, headers, payload) => {
    const res = await stack.app.inject({ method: 'PATCH', url: `${CONFIGURATION}/platform`, headers: { 'x-api-key': key, ...headers }, payload });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({ error: expect.stringContaining('application/json') });
  });

  it('a PATCH without any body nor content type gets 415 too', async () => {
    const res = await stack.app.inject({ method: 'PATCH', url: `${CONFIGURATION}/platform`, headers: { 'x-api-key': key } });
    expect(res.statusCode).toBe(415);
  });

  it('accepts application/json with a charset', async () => {
    const res = await configure(stack.app, 'PATCH', '/platform', key, { primary_color: '#112233' }, { 'content-type': 'application/json; charset=utf-8' });
    expect(res.statusCode).toBe(200);
  });

  it('a body-less action (restore) needs no body; an empty JSON body is no body', async () => {
    await configure(stack.app, 'PATCH', '/email_templates/user_reinvitation', key, { subject: 'Copy' });
    const bare = await stack.app.inject({ method: 'POST', url: `${CONFIGURATION}/email_templates/user_reinvitation/restore`, headers: { 'x-api-key': key } });
    expect(bare.statusCode).toBe(200);
    const empty = await stack.app.inject({
      method: 'POST',
      url: `${CONFIGURATION}/email_templates/user_reinvitation/restore`,
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      payload: '',
    });
    expect(empty.statusCode).toBe(404);
  });

  it('reads need no content type', async () => {
    expect((await configure(stack.app, 'GET', '/platform', key)).statusCode).toBe(200);
  });
});

describe('validation failures', () => {
  it('answer 422 {error, errors: {field: [messages]}} naming every bad field', async () => {
    const res = await configure(stack.app, 'PATCH', '/platform', key, { primary_color: 'red', social_facebook: 'not a url', open_platform_enabled: 'yes' });
    expect(res.statusCode).toBe(422);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = res.json();
    expect(body).toEqual({ error: expect.any(String), errors: expect.any(Object) });
    expect(Object.keys(body.errors).sort()).toEqual(['open_platform_enabled', 'primary_color', 'social_facebook']);
    for (const messages of Object.values(body.errors)) expect(messages).toEqual([expect.any(String)]);
    expect(body.errors.primary_color[0]).toMatch(/#RRGGBB/);
  });

  it('names nested fields with a dot', async () => {
    const res = await configure(stack.app, 'PATCH', '/platform', key, { default_email_sender: { email: 'nope' } });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['default_email_sender.email']);
  });

  it('refuses fields that are not writable', async () => {
    const res = await configure(stack.app, 'PATCH', '/email_templates/user_invitation', key, { slug: 'x', customized: false });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(['customized', 'slug']);
  });

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])('names a field called %s like any other (422, not 500)', async (field) => {
    const own = (await createConfigurationKey(stack.app, platform.id)).token;
    const res = await configure(stack.app, 'PATCH', '/platform', own, `{"${field}": {"a": 1}, "primary_color": "red"}`);
    expect(res.statusCode, res.body).toBe(422);
    const { errors } = res.json();
    expect(Object.keys(errors).sort()).toEqual([field, 'primary_color'].sort());
    expect(Object.getOwnPropertyDescriptor(errors, field)?.value).toEqual(['is not a writable field']);
  });

  it.each([
    ['malformed JSON', '{"title": '],
    ['a JSON array', '[1, 2]'],
    ['a JSON string', '"hello"'],
  ])('answers 422 for %s', async (_label, payload) => {
    const res = await configure(stack.app, 'PATCH', '/platform', key, payload);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ error: expect.any(String), errors: expect.any(Object) });
  });

  it('leaves the access interface with its own 400', async () => {
    const grant = await stack.app.inject({
      method: 'POST',
      url: '/api/courses/subscribe',
      headers: { 'x-api-key': platform.apiKey, 'content-type': 'application/json' },
      payload: '{"subscriptions": ',
    });
    expect(grant.statusCode).toBe(400);
  });
});

describe('write limit: 10 configuration writes a minute per key', () => {
  it('answers the 11th write with 429 and Retry-After; reads go on; other keys are not affected', async () => {
    const busy = (await createConfigurationKey(stack.app, platform.id)).token;
    for (let i = 0; i < 10; i++) {
      const res = await configure(stack.app, 'PATCH', '/welcome_section', busy, { welcome_title: `Hello ${i}` });
      expect(res.statusCode, res.body).toBe(200);
    }
    const limited = await configure(stack.app, 'PATCH', '/welcome_section', busy, { welcome_title: 'one too many' });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ error: expect.stringContaining('10 writes per minute') });
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);

    expect((await configure(stack.app, 'GET', '/welcome_section', busy)).json().data.welcome_title).toBe('Hello 9');
    const fresh = (await createConfigurationKey(stack.app, platform.id)).token;
    expect((await configure(stack.app, 'PATCH', '/welcome_section', fresh, { welcome_title: 'fresh' })).statusCode).toBe(200);
  });

  it('counts every write route, including failed validations', async () => {
    const busy = (await createConfigurationKey(stack.app, platform.id)).token;
    for (let i = 0; i < 5; i++) expect((await configure(stack.app, 'PATCH', '/platform', busy, { primary_color: 'bad' })).statusCode).toBe(422);
    for (let i = 0; i < 5; i++) expect((await configure(stack.app, 'PATCH', '/email_templates/user_reinvitation', busy, { subject: `s${i}` })).statusCode).toBe(200);
    expect((await configure(stack.app, 'POST', '/email_templates/user_reinvitation/restore', busy)).statusCode).toBe(429);
  });
});

describe('OpenAPI document', () => {
  it('describes the configuration routes with their reply codes and the configuration key', async () => {
    const doc = (await stack.app.inject({ method: 'GET', url: '/docs/json' })).json();
    const paths = Object.keys(doc.paths).filter((p) => p.startsWith(CONFIGURATION));
    expect(paths).toEqual(
      expect.arrayContaining([
        `${CONFIGURATION}/self`,
        `${CONFIGURATION}/platform`,
        `${CONFIGURATION}/welcome_section`,
        `${CONFIGURATION}/email_templates`,
        `${CONFIGURATION}/email_templates/{slug}/restore`,
        `${CONFIGURATION}/courses/{course_id}/email_templates/{slug}/send_test`,
        `${CONFIGURATION}/courses/{course_id}/custom_invitation`,
      ]),
    );
    const patchPlatform = doc.paths[`${CONFIGURATION}/platform`].patch;
    expect(Object.keys(patchPlatform.responses)).toEqual(expect.arrayContaining(['200', '401', '403', '415', '422', '429']));
    expect(patchPlatform.security).toEqual([{ configurationKey: ['write_appearance'] }]);
    expect(JSON.stringify(patchPlatform.requestBody)).toContain('primary_color');
    expect(Object.keys(doc.paths[`${CONFIGURATION}/email_templates/{slug}/send_test`].post.responses)).toEqual(expect.arrayContaining(['202', '404', '422']));
  });
});

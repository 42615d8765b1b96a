import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCourse, createPlatform, operator, type TestPlatform } from '../../helpers/fixtures.ts';
import { configure, createConfigurationKey, type TestConfigurationKey } from '../../helpers/configuration.ts';
import { eventually, startTestApp, type TestStack } from '../../helpers/stack.ts';

let stack: TestStack;
let platform: TestPlatform;
let other: TestPlatform;
let fullKey: TestConfigurationKey;

beforeAll(async () => {
  stack = await startTestApp('configuration-keys');
  [platform, other] = await Promise.all([createPlatform(stack.app, 'Keys academy'), createPlatform(stack.app, 'Other')]);
  fullKey = await createConfigurationKey(stack.app, platform.id);
});
afterAll(() => stack?.close());

const get = (path: string, key?: string) => configure(stack.app, 'GET', path, key);

describe('POST /admin/v1/platforms/:platform_id/configuration_keys', () => {
  it('creates a key and shows its token once', async () => {
    const res = await stack.app.inject({
      method: 'POST',
      url: `/admin/v1/platforms/${platform.id}/configuration_keys`,
      headers: operator,
      payload: { name: 'CI deploy', scopes: ['read', 'write_appearance'], expires_at: '2099-01-01T00:00:00Z' },
    });
    expect(res.statusCode).toBe(201);
    const { data } = res.json();
    expect(data).toEqual({
      id: expect.any(String),
      name: 'CI deploy',
      prefix: data.token.slice(0, 11),
      scopes: ['read', 'write_appearance'],
      expires_at: '2099-01-01T00:00:00.000Z',
      token: expect.stringMatching(/^ck_[A-Za-z0-9_-]{43}$/),
    });
  });

  it.each([
    ['an unknown scope', { name: 'x', scopes: ['admin'] }],
    ['no scopes', { name: 'x', scopes: [] }],
    ['a bad expiry', { name: 'x', scopes: ['read'], expires_at: 'tomorrow' }],
  ])('refuses %s', async (_label, payload) => {
    const res = await stack.app.inject({ method: 'POST', url: `/admin/v1/platforms/${platform.id}/configuration_keys`, headers: operator, payload });
    expect(res.statusCode).toBe(400);
  });
});

describe('GET /self', () => {
  it('returns the platform and the key, never the token', async () => {
    const key = await createConfigurationKey(stack.app, platform.id, ['read'], { name: 'reader', expires_at: '2098-05-01T10:00:00Z' });
    const res = await get('/self', key.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: {
        platform: { subdomain: platform.subdomain, title: 'Keys academy' },
        key: { name: 'reader', prefix: key.prefix, scopes: ['read'], expires_at: '2098-05-01T10:00:00.000Z' },
      },
    });
    expect(res.body).not.toContain(key.token);
  });

  it('answers any valid key, whatever its scopes', async () => {
    const key = await createConfigurationKey(stack.app, platform.id, ['write_config']);
    const res = await get('/self', key.token);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.key.expires_at).toBeNull();
  });
});

describe('which keys are accepted', () => {
  it.each([
    ['a missing key', undefined],
    ['an empty key', ''],
    ['a wrong key', 'ck_wrong'],
  ])('answers 401 {error} for %s', async (_label, key) => {
    const res = await get('/self', key);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: expect.any(String) });
  });

  it("answers 401 for the platform's API key", async () => {
    const res = await get('/platform', platform.apiKey);
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toMatch(/configuration key/);
  });

  it('answers 401 for an expired key', async () => {
    const key = await createConfigurationKey(stack.app, platform.id, ['read'], { expires_at: new Date(Date.now() - 1000).toISOString() });
    const res = await get('/platform', key.token);
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toMatch(/expired/);
  });

  it('a key with an expiry works until then', async () => {
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const key = await createConfigurationKey(stack.app, platform.id, ['read'], { expires_at: expiresAt });
    const res = await get('/self', key.token);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.key.expires_at).toBe(expiresAt);
  });

  it('a key expiring in a moment stops at its expiry, unchanged', async () => {
    // Load-proof (issue 28): each answer is checked against when its request was sent and answered,
    // never against a pause; 200 only for a request sent before the expiry, 401 only after it.
    const expiry = Date.now() + 1500;
    const key = await createConfigurationKey(stack.app, platform.id, ['read'], { expires_at: new Date(expiry).toISOString() });
    const seen: { status: number; sent: number; answered: number }[] = [];
    await eventually(
      async () => {
        const sent = Date.now();
        const res = await get('/self', key.token);
        seen.push({ status: res.statusCode, sent, answered: Date.now() });
        expect(res.statusCode).toBe(401);
        expect(res.json().error).toMatch(/expired/);
      },
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    for (const { status, sent, answered } of seen) {
      if (status === 200) expect(sent).toBeLessThan(expiry);
      else expect(answered).toBeGreaterThanOrEqual(expiry);
    }
    expect(seen.map((r) => r.status).filter((status, i) => status !== (i === seen.length - 1 ? 401 : 200))).toEqual([]);
  });

  it('a revoked key stops working at once', async () => {
    const key = await createConfigurationKey(stack.app, platform.id);
    expect((await get('/self', key.token)).statusCode).toBe(200);
    const revoke = await stack.app.inject({ method: 'DELETE', url: `/admin/v1/platforms/${platform.id}/configuration_keys/${key.id}`, headers: operator });
    expect(revoke.statusCode).toBe(200);
    expect(revoke.json().data).toEqual({ id: key.id, revoked_at: expect.any(String) });
    const res = await get('/self', key.token);
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toMatch(/revoked/);
  });

  it("a key is revoked only through its own platform's path", async () => {
    const res = await stack.app.inject({ method: 'DELETE', url: `/admin/v1/platforms/${other.id}/configuration_keys/${fullKey.id}`, headers: operator });
    expect(res.statusCode).toBe(404);
    expect((await get('/self', fullKey.token)).statusCode).toBe(200);
  });

  it("a key sees only its own platform: another platform's course is unknown", async () => {
    const othersCourse = await createCourse(stack.app, other.id, { slug: 'only-other' });
    expect((await get(`/courses/${othersCourse.id}/email_templates`, fullKey.token)).statusCode).toBe(404);
    expect((await get('/courses/only-other/email_templates', fullKey.token)).statusCode).toBe(404);
    const self = await get('/self', fullKey.token);
    expect(self.json().data.platform.subdomain).toBe(platform.subdomain);
  });

  it('the access interface refuses a configuration key with 401', async () => {
    for (const url of ['/api/test', '/api/courses']) {
      const res = await stack.app.inject({ method: 'GET', url, headers: { 'x-api-key': fullKey.token } });
      expect(res.statusCode).toBe(401);
    }
  });
});

describe('scopes', () => {
  const routes: { method: 'GET' | 'PATCH' | 'POST'; path: string; scope: string; payload?: unknown }[] = [
    { method: 'GET', path: '/platform', scope: 'read' },
    { method: 'PATCH', path: '/platform', scope: 'write_appearance', payload: { primary_color: '#112233' } },
    { method: 'GET', path: '/welcome_section', scope: 'read' },
    { method: 'PATCH', path: '/welcome_section', scope: 'write_appearance', payload: { welcome_title: 'Hi' } },
    { method: 'GET', path: '/email_templates', scope: 'read' },
    { method: 'GET', path: '/email_templates/user_reinvitation', scope: 'read' },
    { method: 'PATCH', path: '/email_templates/user_reinvitation', scope: 'write_appearance', payload: { subject: 'Again' } },
    { method: 'POST', path: '/email_templates/user_reinvitation/restore', scope: 'write_appearance' },
    { method: 'POST', path: '/email_templates/user_reinvitation/send_test', scope: 'write_appearance', payload: { email: 'x@example.com' } },
  ];
  const keys: Record<string, TestConfigurationKey> = {};
  beforeAll(async () => {
    for (const scope of ['read', 'write_appearance', 'write_config']) keys[scope] = await createConfigurationKey(stack.app, platform.id, [scope]);
  });

  it.each(routes)('$method $path needs $scope: every other scope gets 403', async ({ method, path, scope, payload }) => {
    for (const [granted, key] of Object.entries(keys)) {
      const res = await configure(stack.app, method, path, key.token, payload);
      if (granted === scope) {
        expect(res.statusCode, `${granted}: ${res.body}`).not.toBe(403);
      } else {
        expect(res.statusCode, `${granted}: ${res.body}`).toBe(403);
        expect(res.json()).toEqual({ error: expect.stringContaining(scope) });
      }
    }
  });

  it('course template routes need read to read and write_appearance to write', async () => {
    const course = await createCourse(stack.app, platform.id);
    const read = keys.read!.token;
    const write = keys.write_appearance!.token;
    expect((await get(`/courses/${course.id}/email_templates`, read)).statusCode).toBe(200);
    expect((await get(`/courses/${course.id}/email_templates`, write)).statusCode).toBe(403);
    expect((await configure(stack.app, 'PATCH', `/courses/${course.id}/custom_invitation`, read, { enabled: true })).statusCode).toBe(403);
    expect((await configure(stack.app, 'PATCH', `/courses/${course.id}/custom_invitation`, write, { enabled: true })).statusCode).toBe(200);
    const lesson = course.sections[0]!.lessons[0]!.id;
    const create = { send_after_lesson: lesson, subject: 'Well done', description: '<p>Next</p>', active: true };
    expect((await configure(stack.app, 'POST', `/courses/${course.id}/email_templates`, read, create)).statusCode).toBe(403);
    expect((await configure(stack.app, 'POST', `/courses/${course.id}/email_templates`, write, create)).statusCode).toBe(201);
  });
});

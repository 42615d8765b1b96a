import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlatform, operator, type TestPlatform } from '../../helpers/fixtures.ts';
import { auditLog, CONFIGURATION, configure, createConfigurationKey, type TestConfigurationKey } from '../../helpers/configuration.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';

let stack: TestStack;
let platform: TestPlatform;
let key: TestConfigurationKey;

beforeAll(async () => {
  stack = await startTestApp('configuration-audit', { rateLimits: { enabled: true } });
  platform = await createPlatform(stack.app);
  key = await createConfigurationKey(stack.app, platform.id, ['read', 'write_appearance']);
});
afterAll(() => stack?.close());

const latest = async (platformId = platform.id) => (await auditLog(stack.app, platformId))[0];

describe('GET /admin/v1/platforms/:platform_id/audit_log', () => {
  it('records an accepted request with time, method, path (without query), status and key prefix', async () => {
    const before = Date.now();
    expect((await configure(stack.app, 'GET', '/platform?x=1', key.token)).statusCode).toBe(200);
    const entry = await latest();
    expect(entry).toEqual({ at: expect.any(String), method: 'GET', path: `${CONFIGURATION}/platform`, status: 200, key_prefix: key.prefix });
    expect(Date.parse(entry!.at)).toBeGreaterThanOrEqual(before - 1000);
  });

  it('records a rejected request: 403 for a missing scope', async () => {
    const reader = await createConfigurationKey(stack.app, platform.id, ['read']);
    expect((await configure(stack.app, 'PATCH', '/platform', reader.token, { title: 'x' })).statusCode).toBe(403);
    expect(await latest()).toMatchObject({ method: 'PATCH', path: `${CONFIGURATION}/platform`, status: 403, key_prefix: reader.prefix });
  });

  it('records a request to an unknown configuration path: 404 {error} for any valid key', async () => {
    const res = await configure(stack.app, 'GET', '/no_such_thing', key.token);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: expect.any(String) });
    expect(await latest()).toMatchObject({ method: 'GET', path: `${CONFIGURATION}/no_such_thing`, status: 404, key_prefix: key.prefix });
    expect((await configure(stack.app, 'GET', '/no_such_thing', 'ck_wrong')).statusCode).toBe(401);
  });

  it('records 415 and 422', async () => {
    await stack.app.inject({ method: 'PATCH', url: `${CONFIGURATION}/platform`, headers: { 'x-api-key': key.token, 'content-type': 'text/plain' }, payload: 'x' });
    expect(await latest()).toMatchObject({ status: 415, key_prefix: key.prefix });
    await configure(stack.app, 'PATCH', '/platform', key.token, { primary_color: 'blue' });
    expect(await latest()).toMatchObject({ status: 422, key_prefix: key.prefix });
  });

  it('records 401 for an expired key, a revoked key and the platform API key of a known platform', async () => {
    const expired = await createConfigurationKey(stack.app, platform.id, ['read'], { expires_at: '2000-01-01T00:00:00Z' });
    expect((await configure(stack.app, 'GET', '/self', expired.token)).statusCode).toBe(401);
    expect(await latest()).toMatchObject({ path: `${CONFIGURATION}/self`, status: 401, key_prefix: expired.prefix });

    const revoked = await createConfigurationKey(stack.app, platform.id);
    await stack.app.inject({ method: 'DELETE', url: `/admin/v1/platforms/${platform.id}/configuration_keys/${revoked.id}`, headers: operator });
    expect((await configure(stack.app, 'GET', '/welcome_section', revoked.token)).statusCode).toBe(401);
    expect(await latest()).toMatchObject({ path: `${CONFIGURATION}/welcome_section`, status: 401, key_prefix: revoked.prefix });

    expect((await configure(stack.app, 'GET', '/platform', platform.apiKey)).statusCode).toBe(401);
    expect(await latest()).toMatchObject({ status: 401, key_prefix: platform.apiKey.slice(0, 11) });
  });

  it('records 429', async () => {
    const busy = await createConfigurationKey(stack.app, platform.id);
    for (let i = 0; i < 10; i++) await configure(stack.app, 'PATCH', '/welcome_section', busy.token, { welcome_title: `t${i}` });
    expect((await configure(stack.app, 'PATCH', '/welcome_section', busy.token, { welcome_title: 'over' })).statusCode).toBe(429);
    expect(await latest()).toMatchObject({ method: 'PATCH', status: 429, key_prefix: busy.prefix });
  });

  it('holds no token, key or body, and a key of another platform lands only in that log', async () => {
    const other = await createPlatform(stack.app);
    const othersKey = await createConfigurationKey(stack.app, other.id);
    await configure(stack.app, 'PATCH', '/email_templates/user_reinvitation', othersKey.token, { subject: 'Secret subject 123' });
    const log = JSON.stringify(await auditLog(stack.app, platform.id));
    const othersLog = JSON.stringify(await auditLog(stack.app, other.id));
    for (const secret of [key.token, othersKey.token, platform.apiKey, 'Secret subject 123']) {
      expect(log).not.toContain(secret);
      expect(othersLog).not.toContain(secret);
    }
    expect(log).not.toContain(othersKey.prefix);
    expect(othersLog).toContain(othersKey.prefix);
  });

  it('an unknown key has no platform and is recorded nowhere', async () => {
    const before = (await auditLog(stack.app, platform.id)).length;
    expect((await configure(stack.app, 'GET', '/self', 'ck_unknown-key')).statusCode).toBe(401);
    expect((await auditLog(stack.app, platform.id)).length).toBe(before);
  });
});

/**
 * `GET /email_delivery`, `GET` and `PUT /email_delivery/:provider` against local stand-ins of the
 * providers (provider_a's HTTP API, provider_b's SMTP server) on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, configure, createConfigurationKey, mailLog, type TestConfigurationKey } from '../../helpers/configuration.ts';
import { createPlatform, type TestPlatform } from '../../helpers/fixtures.ts';
import { PROVIDER_A_KEYS, PROVIDER_B_USER, PROVIDER_C_KEYS, SIMULATOR, startProviderStandIns, type ProviderStandIns } from '../../helpers/mail-providers.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';

let stack: TestStack;
let providers: ProviderStandIns;

beforeAll(async () => {
  providers = await startProviderStandIns();
  stack = await startTestApp('email-delivery', { mailEndpoints: providers.endpoints });
});
afterAll(async () => {
  await stack?.close();
  await providers?.close();
});

/** A platform of its own and a key with every scope, so tests do not see each other's providers. */
async function freshPlatform(): Promise<{ platform: TestPlatform; key: TestConfigurationKey }> {
  const platform = await createPlatform(stack.app, 'Delivery academy');
  return { platform, key: await createConfigurationKey(stack.app, platform.id) };
}

const put = (key: TestConfigurationKey, name: string, body: unknown) => configure(stack.app, 'PUT', `/email_delivery/${name}`, key.token, body);
const get = (key: TestConfigurationKey, path = '') => configure(stack.app, 'GET', `/email_delivery${path}`, key.token);

const ALL_SECRETS = [...Object.values(PROVIDER_A_KEYS), ...Object.values(PROVIDER_B_USER), ...Object.values(PROVIDER_C_KEYS)];

function expectNoSecrets(text: string) {
  for (const secret of ALL_SECRETS) expect(text).not.toContain(secret);
}

const providerA = { active: true, smtp_account: 'main', email: 'news@academy.test', ...PROVIDER_A_KEYS };
const providerB = { active: true, region: 'eu-west-1', email: 'mail@academy.test', display_name: 'Academy', ...PROVIDER_B_USER };
const providerC = { active: true, smtp_account: 'c-account', email: 'c@academy.test', ...PROVIDER_C_KEYS };

describe('GET /email_delivery', () => {
  it('shows every provider, unconfigured, and no active provider before anything is saved', async () => {
    const { key } = await freshPlatform();
    const res = await get(key);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: {
        active_provider: null,
        provider_a: { configured: false, active: false, smtp_account: null, email: null, app_key_configured: false, secret_key_configured: false },
        provider_b: { configured: false, active: false, region: null, email: null, display_name: null, smtp_username_configured: false, smtp_password_configured: false },
        provider_c: { configured: false, active: false, smtp_account: null, email: null, application_key_configured: false, authorization_key_configured: false },
      },
    });
  });

  it('answers 404 {error} for a provider it does not know, on read and on write', async () => {
    const { key } = await freshPlatform();
    for (const res of [await get(key, '/provider_x'), await put(key, 'provider_x', { active: false })]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: expect.any(String) });
    }
  });
});

describe('scopes', () => {
  it('reads with `read`, writes with `write_config`, and answers 403 otherwise', async () => {
    const { platform } = await freshPlatform();
    const reader = await createConfigurationKey(stack.app, platform.id, ['read']);
    const writer = await createConfigurationKey(stack.app, platform.id, ['write_config']);
    const appearance = await createConfigurationKey(stack.app, platform.id, ['read', 'write_appearance']);

    expect((await get(reader)).statusCode).toBe(200);
    expect((await get(reader, '/provider_c')).statusCode).toBe(200);
    expect((await get(writer)).statusCode).toBe(403);
    expect((await put(reader, 'provider_c', providerC)).statusCode).toBe(403);
    expect((await put(appearance, 'provider_c', providerC)).statusCode).toBe(403);
    expect((await get(reader, '/provider_c')).json().data.configured).toBe(false);

    const saved = await put(writer, 'provider_c', providerC);
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await get(reader, '/provider_c')).json().data.configured).toBe(true);
  });
});

describe('PUT /email_delivery/provider_a', () => {
  it('verifies the key pair with provider_a, saves, and replies with the read shape without secrets', async () => {
    const { key } = await freshPlatform();
    const before = providers.a.calls.length;
    const res = await put(key, 'provider_a', providerA);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      data: { configured: true, active: true, smtp_account: 'main', email: 'news@academy.test', app_key_configured: true, secret_key_configured: true },
    });
    expectNoSecrets(res.body);

    const verification = providers.a.calls.slice(before);
    expect(verification).toHaveLength(1);
    expect(verification[0]).toMatchObject({ method: 'GET', path: '/v1/account' });
    expect(verification[0]?.headers.authorization).toBe(`Basic ${Buffer.from(`${PROVIDER_A_KEYS.app_key}:${PROVIDER_A_KEYS.secret_key}`).toString('base64')}`);

    const all = await get(key);
    expect(all.json().data.active_provider).toBe('provider_a');
    expectNoSecrets(all.body);
    expect((await get(key, '/provider_a')).json()).toEqual(res.json());
  });

  it('answers 422 for a key pair provider_a refuses, and saves nothing', async () => {
    const { platform, key } = await freshPlatform();
    const res = await put(key, 'provider_a', { ...providerA, secret_key: 'wrong-secret' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ error: expect.any(String), errors: { app_key: [expect.stringContaining('refused')], secret_key: [expect.stringContaining('refused')] } });
    expect(res.body).not.toContain('wrong-secret');
    expect((await get(key)).json().data).toMatchObject({ active_provider: null, provider_a: { configured: false, active: false, email: null } });
    const rows = await stack.orm.em.fork().getConnection().execute('select 1 from mail_delivery_providers where platform_id = ?', [platform.id]);
    expect(rows).toEqual([]);
  });

  it('keeps a stored secret that is left out or sent empty, and verifies with it', async () => {
    const { key } = await freshPlatform();
    expect((await put(key, 'provider_a', providerA)).statusCode).toBe(200);
    const before = providers.a.calls.length;

    const res = await put(key, 'provider_a', { email: 'changed@academy.test', app_key: '', secret_key: '' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ email: 'changed@academy.test', app_key_configured: true, secret_key_configured: true, smtp_account: 'main' });
    // The stored pair went to the verification: it was kept, not replaced by "".
    expect(providers.a.calls.slice(before).map((c) => c.headers.authorization)).toEqual([
      `Basic ${Buffer.from(`${PROVIDER_A_KEYS.app_key}:${PROVIDER_A_KEYS.secret_key}`).toString('base64')}`,
    ]);
  });

  it('refuses to clear a secret (422); `active: false` disables without a verification', async () => {
    const { key } = await freshPlatform();
    expect((await put(key, 'provider_a', providerA)).statusCode).toBe(200);

    const cleared = await put(key, 'provider_a', { app_key: null });
    expect(cleared.statusCode).toBe(422);
    expect(cleared.json().errors.app_key).toEqual([expect.stringContaining('cannot be cleared')]);

    const before = providers.a.calls.length;
    const disabled = await put(key, 'provider_a', { active: false });
    expect(disabled.statusCode).toBe(200);
    expect(disabled.json().data).toMatchObject({ active: false, configured: true, app_key_configured: true, secret_key_configured: true });
    expect(providers.a.calls.length).toBe(before);
    expect((await get(key)).json().data.active_provider).toBeNull();
  });

  it('stores secrets sealed, and keeps them out of the audit log', async () => {
    const { platform, key } = await freshPlatform();
    expect((await put(key, 'provider_a', providerA)).statusCode).toBe(200);
    const rows: { fields: unknown; sealed_secrets: Record<string, string> }[] = await stack.orm.em
      .fork()
      .getConnection()
      .execute('select fields, sealed_secrets from mail_delivery_providers where platform_id = ?', [platform.id]);
    expect(Object.keys(rows[0]!.sealed_secrets).sort()).toEqual(['app_key', 'secret_key']);
    expectNoSecrets(JSON.stringify(rows));
    expect(rows[0]!.sealed_secrets.app_key).toMatch(/^v1\./);

    const audit = await auditLog(stack.app, platform.id);
    expect(audit.some((e) => e.method === 'PUT' && e.path === '/api/v1/configuration/email_delivery/provider_a' && e.status === 200)).toBe(true);
    expectNoSecrets(JSON.stringify(audit));
  });
});

describe('validation', () => {
  it.each([
    ['an active provider without its secrets', 'provider_c', { active: true, email: 'c@academy.test' }, ['application_key', 'authorization_key']],
    ['an active provider without its e-mail', 'provider_c', { ...providerC, email: null }, ['email']],
    ['one secret without the other', 'provider_c', { application_key: 'only-one' }, ['authorization_key']],
    ['a region that is not one', 'provider_b', { ...providerB, region: 'Europe West' }, ['region']],
    ['an invalid e-mail', 'provider_a', { email: 'not-an-address' }, ['email']],
    ['a field of another provider', 'provider_b', { app_key: 'x' }, ['app_key']],
    ['a secret that is not a string', 'provider_c', { application_key: 42 }, ['application_key']],
  ])('answers 422 {error, errors} for %s', async (_label, name, body, fields) => {
    const { key } = await freshPlatform();
    const res = await put(key, name, body);
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual([...fields].sort());
    expect((await get(key)).json().data[name].configured).toBe(false);
  });

  it('answers 415 for a write that is not JSON', async () => {
    const { key } = await freshPlatform();
    const res = await configure(stack.app, 'PUT', '/email_delivery/provider_c', key.token, 'active=false', { 'content-type': 'text/plain' });
    expect(res.statusCode).toBe(415);
  });
});

describe('PUT /email_delivery/provider_b', () => {
  it("sends a test mail to the provider's simulator through its SMTP server and records it", async () => {
    const { platform, key } = await freshPlatform();
    const before = providers.b.received.length;
    const res = await put(key, 'provider_b', providerB);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({
      configured: true,
      active: true,
      region: 'eu-west-1',
      email: 'mail@academy.test',
      display_name: 'Academy',
      smtp_username_configured: true,
      smtp_password_configured: true,
    });

    const arrived = providers.b.received.slice(before);
    expect(arrived).toHaveLength(1);
    expect(arrived[0]).toMatchObject({ to: [SIMULATOR], from: 'mail@academy.test', user: PROVIDER_B_USER.smtp_username });
    expect(arrived[0]?.subject).toContain('provider_b settings test');

    const log = await mailLog(stack.app, platform.id, SIMULATOR);
    expect(log).toEqual([expect.objectContaining({ to: SIMULATOR, template: 'provider_test', provider: 'provider_b', status: 'sent' })]);
  });

  it('answers 422 when the SMTP server refuses the credentials, and saves nothing', async () => {
    const { key } = await freshPlatform();
    const res = await put(key, 'provider_b', { ...providerB, smtp_password: 'wrong-password' });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(['smtp_password', 'smtp_username']);
    expect(res.body).not.toContain('wrong-password');
    expect((await get(key)).json().data.provider_b.configured).toBe(false);
  });
});

describe('which provider sends (rule 3: the first active in the order a, b, c)', () => {
  it('follows the order and `active: false`', async () => {
    const { key } = await freshPlatform();
    const activeProvider = async () => (await get(key)).json().data.active_provider;

    expect((await put(key, 'provider_c', providerC)).statusCode).toBe(200);
    expect(await activeProvider()).toBe('provider_c');
    expect((await put(key, 'provider_b', providerB)).statusCode).toBe(200);
    expect(await activeProvider()).toBe('provider_b');
    expect((await put(key, 'provider_a', providerA)).statusCode).toBe(200);
    expect(await activeProvider()).toBe('provider_a');

    expect((await put(key, 'provider_a', { active: false })).statusCode).toBe(200);
    expect(await activeProvider()).toBe('provider_b');
    expect((await put(key, 'provider_b', { active: false })).statusCode).toBe(200);
    expect(await activeProvider()).toBe('provider_c');
    expect((await put(key, 'provider_c', { active: false })).statusCode).toBe(200);
    expect(await activeProvider()).toBeNull();

    const all = (await get(key)).json().data;
    expect([all.provider_a.configured, all.provider_b.configured, all.provider_c.configured]).toEqual([true, true, true]);
  });
});

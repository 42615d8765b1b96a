/**
 * `PUT /email_delivery/:provider` makes its provider check (a network call) before it locks the
 * provider's row: a slow provider holds no lock, and another save of the same provider goes
 * through meanwhile and is not overwritten.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAIL_ENDPOINTS } from '../../../domain/shared/mail-endpoints.ts';
import { configure, createConfigurationKey, type TestConfigurationKey } from '../../helpers/configuration.ts';
import { createPlatform, type TestPlatform } from '../../helpers/fixtures.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';

/** provider_a's verification call, answered 200 only when the test opens the gate. */
let server: Server;
let received = 0;
let gate: Promise<void> = Promise.resolve();
let openGate: () => void = () => undefined;
const closeGate = () => {
  gate = new Promise((resolve) => (openGate = resolve));
};

let stack: TestStack;

beforeAll(async () => {
  server = createServer((request, response) => {
    received += 1;
    request.resume();
    void gate.then(() => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  stack = await startTestApp('email-delivery-check', { mailEndpoints: { ...DEFAULT_MAIL_ENDPOINTS, providerAApiUrl: `http://127.0.0.1:${port}` } });
});
afterAll(async () => {
  openGate();
  await stack?.close();
  await new Promise((resolve) => server?.close(resolve));
});

const providerA = { active: true, smtp_account: 'main', email: 'news@academy.test', app_key: 'a-app-key', secret_key: 'a-secret-key' };
const put = (key: TestConfigurationKey, body: unknown) => configure(stack.app, 'PUT', '/email_delivery/provider_a', key.token, body);

async function savedPlatform(): Promise<{ platform: TestPlatform; key: TestConfigurationKey }> {
  const platform = await createPlatform(stack.app, 'Check academy');
  const key = await createConfigurationKey(stack.app, platform.id);
  const first = await put(key, providerA);
  expect(first.statusCode, first.body).toBe(200);
  return { platform, key };
}

async function checkStarted(before: number): Promise<void> {
  for (let i = 0; i < 200 && received === before; i++) await new Promise((resolve) => setTimeout(resolve, 25));
  expect(received).toBeGreaterThan(before);
}

describe('PUT /email_delivery/:provider while the provider check runs', () => {
  it('holds no lock on the provider row during the check', async () => {
    const { platform, key } = await savedPlatform();
    closeGate();
    const before = received;
    const saving = put(key, { smtp_account: 'second' });
    await checkStarted(before);

    // Another transaction can lock the row at once: the check runs outside any transaction.
    const locked = await stack.orm.em.fork().transactional((tx) =>
      tx.execute("select id from mail_delivery_providers where platform_id = ? and provider = 'provider_a' for update nowait", [platform.id]),
    );
    expect(locked).toHaveLength(1);

    openGate();
    const res = await saving;
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ smtp_account: 'second', active: true });
  });

  it('lets another save of the provider through meanwhile, and saves over it without losing it', async () => {
    const { key } = await savedPlatform();
    closeGate();
    const before = received;
    const saving = put(key, { smtp_account: 'checked' });
    await checkStarted(before);

    // Needs no check (inactive, no new secret), so it is saved while the first one waits for provider_a.
    const disable = await put(key, { active: false });
    expect(disable.statusCode, disable.body).toBe(200);
    expect(disable.json().data).toMatchObject({ active: false, smtp_account: 'main' });

    openGate();
    const res = await saving;
    expect(res.statusCode, res.body).toBe(200);
    // Started over from the disabled provider: the change it sent lands, the disabling stays.
    expect(res.json().data).toMatchObject({ active: false, smtp_account: 'checked', app_key_configured: true });
    const stored = await configure(stack.app, 'GET', '/email_delivery/provider_a', key.token);
    expect(stored.json().data).toEqual(res.json().data);
  });
});

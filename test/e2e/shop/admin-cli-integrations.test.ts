/** `npm run admin` for a shop's payment gateway and integrations: secrets from the environment, never echoed. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestShop, type TestShop } from '../../helpers/shop.ts';
import { ADMIN_TOKEN, startTestApp, type TestStack } from '../../helpers/stack.ts';

const run = promisify(execFile);
let stack: TestStack;
let url: string;
let shop: TestShop;
const SECRETS = {
  STRIPE_SECRET_KEY: 'sk_test_clikey4242424242',
  STRIPE_WEBHOOK_SECRET: 'whsec_clisecret1234567890',
  GA4_API_SECRET: 'cli-mp-secret-1',
  MAILCHIMP_API_KEY: 'abcdefabcdefabcdefabcdefabcdef12-us5',
};

beforeAll(async () => {
  stack = await startTestApp('admin-cli-integrations');
  url = await stack.app.listen({ port: 0, host: '127.0.0.1' });
  shop = await createTestShop(stack.app, 'cli-integrations');
});
afterAll(() => stack?.close());

async function admin(env: Record<string, string>, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return run(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', ...args, '--url', url], { env: { ...process.env, ADMIN_TOKEN, ...env } }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
}

describe('operator CLI: payment gateway and integrations', () => {
  it('sets Stripe, GA4 and Mailchimp from secrets in the environment; the replies say configured and never show them', async () => {
    const outputs: string[] = [];
    const gateway = await admin(SECRETS, 'payment-gateway', shop.id, 'stripe', '--dunning-day', '2', '--dunning-day', '4');
    expect(gateway.code, gateway.stderr).toBe(0);
    expect(JSON.parse(gateway.stdout).data).toMatchObject({ mode: 'stripe', dunning_days: [2, 4], secret_key_configured: true, webhook_secret_configured: true });
    const analytics = await admin(SECRETS, 'analytics', shop.id, 'G-CLI12345');
    expect(analytics.code, analytics.stderr).toBe(0);
    expect(JSON.parse(analytics.stdout).data).toEqual({ configured: true, measurement_id: 'G-CLI12345', api_secret_configured: true });
    const marketing = await admin(SECRETS, 'marketing', shop.id, 'cliaudience', '--tag', 'customer', '--product-tag', '12=atlas', '--product-tag', '12=maps');
    expect(marketing.code, marketing.stderr).toBe(0);
    expect(JSON.parse(marketing.stdout).data).toMatchObject({ configured: true, provider: 'mailchimp', list_id: 'cliaudience', api_key_configured: true, tags: ['customer'], product_tags: { 12: ['atlas', 'maps'] } });
    outputs.push(gateway.stdout, analytics.stdout, marketing.stdout);
    for (const show of ['payment-gateway-show', 'analytics-show', 'marketing-show']) {
      const shown = await admin({}, show, shop.id);
      expect(shown.code, shown.stderr).toBe(0);
      expect(JSON.parse(shown.stdout).data).toMatchObject(show === 'payment-gateway-show' ? { mode: 'stripe' } : { configured: true });
      outputs.push(shown.stdout);
    }
    for (const secret of Object.values(SECRETS)) expect(outputs.join('\n')).not.toContain(secret);
  });

  it('refuses to send a secret it was not given in the environment, and reports the API\'s 422', async () => {
    const missing = await admin({ STRIPE_SECRET_KEY: '', STRIPE_WEBHOOK_SECRET: '' }, 'payment-gateway', shop.id, 'stripe');
    expect(missing).toMatchObject({ code: 2, stderr: expect.stringContaining('set STRIPE_SECRET_KEY in the environment') });
    const refused = await admin(SECRETS, 'analytics', shop.id, 'not-a-ga4-id');
    expect(refused.code).toBe(1);
    expect(Object.keys(JSON.parse(refused.stdout).errors)).toContain('measurement_id');
    expect(refused.stdout).not.toContain(SECRETS.GA4_API_SECRET);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriberHash } from '../../../adapters/marketing/mailchimp.ts';
import { startEndToEnd, type EndToEnd } from '../../helpers/e2e.ts';
import { insertProduct } from '../../helpers/shop-catalogue.ts';
import { adminPost, createTestShop, operator, type TestShop } from '../../helpers/shop.ts';
import { eventually } from '../../helpers/stack.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../helpers/webhook-receiver.ts';

/**
 * An integration the tool refuses, through a real clearing workflow: a 4xx answer (bad secret,
 * bad key) ends its activity at once and the order's effect log holds `failed` with the tool's
 * reason; a transient 5xx is retried until the tool takes it (`done`).
 */
let e2e: EndToEnd;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  e2e = await startEndToEnd('shop-integration-failures', {
    integrationEndpoints: { ga4Url: receiver.url('/mp/collect'), mailchimpApiUrl: receiver.url('/3.0') },
  });
});
afterAll(async () => {
  await e2e.close();
  await receiver.close();
});

type Effect = { effect: string; status: string; detail: string };

async function configure(shop: TestShop, measurementId: string, apiSecret: string, listId: string, apiKey: string) {
  const analytics = await e2e.http('PUT', `/admin/v1/shops/${shop.id}/integrations/analytics`, { operator: true, body: { measurement_id: measurementId, api_secret: apiSecret } });
  expect(analytics.status).toBe(200);
  const marketing = await e2e.http('PUT', `/admin/v1/shops/${shop.id}/integrations/marketing`, { operator: true, body: { provider: 'mailchimp', api_key: apiKey, list_id: listId, tags: ['customer'] } });
  expect(marketing.status).toBe(200);
}

/** Places and clears an order of `shop`; the analytics and marketing effects once both are recorded. */
async function clearAndWait(shop: TestShop, email: string): Promise<Record<string, Effect>> {
  const productId = await insertProduct(e2e.stack.orm, shop.id, { name: 'Atlas', sku: 'ATLAS', price: '80.00' });
  const order = await adminPost(e2e.stack.app, `/admin/v1/shops/${shop.id}/orders`, { email, items: [{ product_id: productId }] });
  expect((await e2e.http('PATCH', `/api/v1/orders/${order.id}/clear`, { headers: { 'x-api-key': shop.key } })).status).toBe(200);
  return eventually(
    async () => {
      const rows = (await e2e.stack.app.inject({ method: 'GET', url: `/admin/v1/shops/${shop.id}/orders/${order.id}/effects`, headers: operator })).json().data as Effect[];
      const byEffect = Object.fromEntries(rows.map((row) => [row.effect, row]));
      expect(byEffect.analytics_purchase).toBeDefined();
      expect(byEffect.marketing_tags).toBeDefined();
      return byEffect;
    },
    { timeoutMs: 120_000, intervalMs: 250 },
  );
}

describe('an integration the tool refuses, in a real clearing', () => {
  it('GA4 answering 400 is failed at once with the reason; Mailchimp answering 503 once is retried and done', async () => {
    const shop = await createTestShop(e2e.stack.app, 'refused-ga4');
    const secret = 'mp-secret-refused';
    await configure(shop, 'G-REFUSED1', secret, 'audretry', '0123456789abcdef0123456789abcdef-us21');
    const collect = `/mp/collect?measurement_id=G-REFUSED1&api_secret=${secret}`;
    receiver.on(collect, () => ({ status: 400 }));
    const member = `/3.0/lists/audretry/members/${subscriberHash('ga4@example.com')}`;
    receiver.on(member, (_request, nth) => ({ status: nth === 1 ? 503 : 200 }));

    const effects = await clearAndWait(shop, 'ga4@example.com');
    expect(effects.analytics_purchase).toMatchObject({ status: 'failed', detail: 'GA4 Measurement Protocol answered HTTP 400' });
    expect(effects.analytics_purchase!.detail).not.toContain(secret);
    // Not retried: the refusal ended the activity at its first attempt.
    expect(receiver.requests(collect)).toHaveLength(1);
    expect(effects.marketing_tags).toMatchObject({ status: 'done', detail: 'customer' });
    expect(receiver.requests(member).length).toBeGreaterThanOrEqual(2);
    expect(receiver.requests(`${member}/tags`)).toHaveLength(1);
  });

  it('Mailchimp refusing the API key (401) is failed at once with the reason, the key never in it', async () => {
    const shop = await createTestShop(e2e.stack.app, 'refused-mailchimp');
    const apiKey = 'fedcba9876543210fedcba9876543210-us7';
    await configure(shop, 'G-FINE2', 'mp-secret-fine', 'audrefused', apiKey);
    const member = `/3.0/lists/audrefused/members/${subscriberHash('mc@example.com')}`;
    receiver.on(member, () => ({ status: 401 }));

    const effects = await clearAndWait(shop, 'mc@example.com');
    expect(effects.marketing_tags).toMatchObject({ status: 'failed', detail: 'Mailchimp answered HTTP 401' });
    expect(effects.marketing_tags!.detail).not.toContain(apiKey);
    expect(receiver.requests(member)).toHaveLength(1);
    expect(receiver.requests(`${member}/tags`)).toHaveLength(0);
    expect(effects.analytics_purchase).toMatchObject({ status: 'done' });
  });
});

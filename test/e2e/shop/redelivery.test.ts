/**
 * Issue 28 end to end: the order's `webhook` and `club_webhook` effects say what happened to their
 * deliveries (delivered with the HTTP status, failed with the reason: an HTTP status, an address
 * the SSRF rules refuse), and a failed delivery, once its receiver is fixed, is redelivered by the
 * operator (shop webhook) and by the shop (club webhook): one manual attempt, `succeeded`, and the
 * effect then says delivered. A worker with real activities, a receiver on loopback (allowlisted).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookEndToEnd, type WebhookEndToEnd } from '../../helpers/e2e.ts';
import { insertProduct } from '../../helpers/shop-catalogue.ts';
import { adminPost, createTestShop, type TestShop } from '../../helpers/shop.ts';
import { eventually, type TestStack } from '../../helpers/stack.ts';
import type { WebhookReceiver } from '../../helpers/webhook-receiver.ts';

const SECRET = 'redelivery-e2e-secret-0123456789';

let e2e: WebhookEndToEnd;
let stack: TestStack;
let receiver: WebhookReceiver;
let http: WebhookEndToEnd['http'];
let guard: WebhookEndToEnd['guard'];
let shop: TestShop;
let orderId: number;
const hooks = { ok: '', down: '', private: '' };
/** The receivers at /down and /club answer 503 until fixed. */
const fixed = { down: false, club: false };

interface Delivery {
  id: string;
  event_id: string;
  status: string;
  attempts: { status_code: number | null; error: string | null; manual: boolean }[];
}

beforeAll(async () => {
  // One retry (after 100 ms): a delivery to a broken receiver ends `failed` quickly.
  e2e = await startWebhookEndToEnd('e2e-shop-redelivery', [100]);
  ({ stack, receiver, http, guard } = e2e);
  shop = await createTestShop(stack.app, 'redelivery');
  const productId = await insertProduct(stack.orm, shop.id, { name: 'Atlas', sku: 'ATLAS', price: '10.00' });
  const create = async (url: string) => (await adminPost(stack.app, `/admin/v1/shops/${shop.id}/webhooks`, { url, events: ['order_cleared'], secret_key: SECRET })).id as string;
  hooks.ok = await create(receiver.url('/ok'));
  hooks.down = await create(receiver.url('/down'));
  hooks.private = await create('http://169.254.169.254/latest/meta-data');
  receiver.on('/down', () => ({ status: fixed.down ? 200 : 503 }));
  receiver.on('/club', () => ({ status: fixed.club ? 200 : 503 }));
  const club = await http('PATCH', '/api/v1/configuration/club', { headers: { 'x-api-key': shop.key }, body: { webhook_url: receiver.url('/club'), webhook_secret_key: SECRET } });
  expect(club.status).toBe(200);
  orderId = (await adminPost(stack.app, `/admin/v1/shops/${shop.id}/orders`, { email: 'ann@example.com', items: [{ product_id: productId, quantity: 1 }] })).id;
});
afterAll(() => e2e?.close());

const effects = async () => {
  const res = await http('GET', `/admin/v1/shops/${shop.id}/orders/${orderId}/effects`, { operator: true });
  expect(res.status).toBe(200);
  // After placing: placing's own lines (source `placed`) are order-confirmation.test.ts's.
  return (res.body.data as { effect: string; source: string; status: string; detail: string }[]).filter((e) => e.source !== 'placed');
};
const webhookEffect = async (webhookId: string) => (await effects()).find((e) => e.effect === 'webhook' && e.detail.includes(webhookId));
const clubEffect = async () => (await effects()).find((e) => e.effect === 'club_webhook');
const shopDeliveries = async (webhookId: string) => (await http('GET', `/admin/v1/shops/${shop.id}/webhooks/${webhookId}/deliveries`, { operator: true })).body.data as Delivery[];
const clubDeliveries = async () => (await http('GET', `/admin/v1/shops/${shop.id}/club/deliveries`, { operator: true })).body.data as Delivery[];

describe('delivery outcomes in the effect log, and redelivery', () => {
  it('records what happened: delivered (HTTP 200), failed with the last status, failed with the SSRF refusal', async () => {
    expect((await http('PATCH', `/api/v1/orders/${orderId}/clear`, { headers: { 'x-api-key': shop.key } })).status).toBe(200);

    const delivered = await eventually(async () => {
      const effect = await webhookEffect(hooks.ok);
      expect(effect?.status).toBe('done');
      expect(effect?.detail).not.toContain('under way');
      return effect!;
    });
    expect(delivered.detail).toBe(`order_cleared delivered to webhook ${hooks.ok} (127.0.0.1:${new URL(receiver.url('/ok')).port}) (HTTP 200)`);

    const down = await eventually(async () => {
      const effect = await webhookEffect(hooks.down);
      expect(effect?.status).toBe('failed');
      return effect!;
    });
    expect(down.detail).toContain('failed: HTTP 503');
    expect(receiver.requests('/down')).toHaveLength(2);

    const refused = await eventually(async () => {
      const effect = await webhookEffect(hooks.private);
      expect(effect?.status).toBe('failed');
      return effect!;
    });
    expect(refused.detail).toContain('169.254.169.254');
    expect(refused.detail).toContain('refused');
    expect(guard.calls.some((call) => call.address === '169.254.169.254' || call.url.hostname === '169.254.169.254')).toBe(false);

    const club = await eventually(async () => {
      const effect = await clubEffect();
      expect(effect?.status).toBe('failed');
      return effect!;
    });
    expect(club.detail).toContain('HTTP 503');
  });

  it('the operator redelivers the failed shop webhook delivery once its receiver is fixed: one manual attempt, succeeded, effect done', async () => {
    const [failed] = await shopDeliveries(hooks.down);
    expect(failed).toMatchObject({ status: 'failed' });
    fixed.down = true;
    const res = await http('POST', `/admin/v1/shops/${shop.id}/webhooks/${hooks.down}/deliveries/${failed!.id}/redeliver`, { operator: true });
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ id: failed!.id, status: expect.stringMatching(/^(pending|succeeded)$/) });

    const [after] = await eventually(async () => {
      const rows = await shopDeliveries(hooks.down);
      expect(rows[0]?.status).toBe('succeeded');
      return rows;
    });
    expect(after!.attempts.map((a) => [a.status_code, a.manual])).toEqual([
      [200, true],
      [503, false],
      [503, false],
    ]);
    // The same event: the same webhook-id on every attempt.
    expect(new Set(receiver.requests('/down').map((r) => r.headers['webhook-id']))).toEqual(new Set([failed!.event_id]));
    await eventually(async () => expect(await webhookEffect(hooks.down)).toMatchObject({ status: 'done', detail: expect.stringContaining('(HTTP 200)') }));
    // A redelivery to an address the SSRF rules refuse is refused again: a failed manual attempt, the effect stays failed.
    const [refused] = await shopDeliveries(hooks.private);
    expect((await http('POST', `/admin/v1/shops/${shop.id}/webhooks/${hooks.private}/deliveries/${refused!.id}/redeliver`, { operator: true })).status).toBe(202);
    const [stillRefused] = await eventually(async () => {
      const rows = await shopDeliveries(hooks.private);
      expect(rows[0]?.status).toBe('failed');
      expect(rows[0]?.attempts).toHaveLength(2);
      return rows;
    });
    expect(stillRefused!.attempts[0]).toMatchObject({ manual: true, status_code: null, error: expect.stringContaining('refused') });
    expect(await webhookEffect(hooks.private)).toMatchObject({ status: 'failed', detail: expect.stringContaining('refused') });
  });

  it('the shop redelivers its failed club webhook delivery: one manual attempt, succeeded, club_webhook done', async () => {
    const [failed] = await clubDeliveries();
    expect(failed).toMatchObject({ status: 'failed' });
    fixed.club = true;
    const res = await http('POST', `/api/v1/configuration/club/deliveries/${failed!.id}/redeliver`, { headers: { 'x-api-key': shop.key } });
    expect(res.status).toBe(202);
    const [after] = await eventually(async () => {
      const rows = await clubDeliveries();
      expect(rows[0]?.status).toBe('succeeded');
      return rows;
    });
    expect(after!.attempts[0]).toMatchObject({ status_code: 200, manual: true });
    expect(after!.attempts.filter((a) => a.manual)).toHaveLength(1);
    await eventually(async () => expect(await clubEffect()).toMatchObject({ status: 'done', detail: expect.stringContaining('delivered') }));
  });
});

/**
 * The club webhook end to end: the club integration set through the API, a worker with real
 * activities, and a receiver on loopback (reachable through the allowlist 127.0.0.1/32, as the
 * shop webhook tests do). An order reaching the club's status (by a status change or by clearing)
 * with a listed product, or any order once the list is empty, sends one webhook signed with the
 * club's key to the address with its token, once per order and status.
 */
import { WorkflowNotFoundError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clubWebhookWorkflowId } from '../../../domain/shop/workflow-ids.ts';
import { startWebhookEndToEnd, type WebhookEndToEnd } from '../../helpers/e2e.ts';
import { insertProduct } from '../../helpers/shop-catalogue.ts';
import { adminPost, createTestShop, type TestShop } from '../../helpers/shop.ts';
import { eventually, type TestStack } from '../../helpers/stack.ts';
import { verifySignatures, type WebhookReceiver } from '../../helpers/webhook-receiver.ts';

const SECRET = 'club-e2e-signing-secret-0123456789';
const CLUB_PATH = '/club/in?token=club-token-77';

let e2e: WebhookEndToEnd;
let stack: TestStack;
let receiver: WebhookReceiver;
let http: WebhookEndToEnd['http'];
let shop: TestShop;
const products = { listed: 0, other: 0 };

beforeAll(async () => {
  e2e = await startWebhookEndToEnd('e2e-shop-club', [200, 200]);
  ({ stack, receiver, http } = e2e);
  shop = await createTestShop(stack.app, 'club-e2e');
  products.listed = await insertProduct(stack.orm, shop.id, { name: 'Members Pass', sku: 'PASS', price: '50.00' });
  products.other = await insertProduct(stack.orm, shop.id, { name: 'Mug', sku: 'MUG', price: '20.00' });
});
afterAll(() => e2e?.close());

const shopApi = (method: string, path: string, body?: unknown) => http(method, path, { headers: { 'x-api-key': shop.key }, body });
const placeOrder = (productId: number) => adminPost(stack.app, `/admin/v1/shops/${shop.id}/orders`, { email: 'member@example.com', items: [{ product_id: productId }] });
const setStatus = (orderId: number, statusId: number) => shopApi('PATCH', `/api/v1/orders/${orderId}/status`, { order_status_id: statusId });
/** The order's `club_webhook` lines after placing (placing at New, not the club's status, logs its own `skipped` line). */
const clubEffects = async (orderId: number, shopId = shop.id) => {
  const res = await http('GET', `/admin/v1/shops/${shopId}/orders/${orderId}/effects`, { operator: true });
  return (res.body.data as { effect: string; source: string; status: string; detail: string }[]).filter((e) => e.effect === 'club_webhook' && e.source !== 'placed');
};
const clubRequests = () => receiver.requests(CLUB_PATH);
const clubDeliveries = async (orderId: number) =>
  ((await http('GET', `/admin/v1/shops/${shop.id}/club/deliveries`, { operator: true })).body.data as { order_id: number }[]).filter((d) => d.order_id === orderId);

describe('the club webhook', () => {
  it('is configured through the API with the address (and its token) never shown', async () => {
    const res = await shopApi('PATCH', '/api/v1/configuration/club', { webhook_url: receiver.url(CLUB_PATH), webhook_secret_key: SECRET, product_ids: [products.listed] });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ configured: true, webhook_host: '127.0.0.1', order_status_id: shop.statuses.Paid, product_ids: [products.listed] });
    expect(JSON.stringify(res.body)).not.toContain('club-token-77');
  });

  it('an order with a listed product reaching the club status by a status change: one signed POST to the address with its token', async () => {
    const order = await placeOrder(products.listed);
    expect((await setStatus(order.id, shop.statuses.Paid!)).status).toBe(200);
    const [request] = await eventually(async () => {
      expect(clubRequests()).toHaveLength(1);
      return clubRequests();
    });
    expect(verifySignatures(request!, SECRET)).toEqual({ xWebhookSignature: true, standardWebhooks: true });
    expect(request!.json).toMatchObject({
      type: 'club_order_status_reached',
      timestamp: expect.any(String),
      data: {
        id: request!.headers['webhook-id'],
        order: { id: order.id, ordinal_number: order.ordinal_number, order_status_id: shop.statuses.Paid, email: 'member@example.com', items: [expect.objectContaining({ product_id: products.listed })] },
        club: { order_status_id: shop.statuses.Paid, fires_for_all_products: false, products: [{ id: products.listed, name: 'Members Pass' }] },
      },
    });
    expect(request!.body).not.toMatch(/"uuid"/);
    await eventually(async () => expect((await clubEffects(order.id)).map((e) => e.status)).toEqual(['done']));

    // Again at the same status (a repeated PATCH), and back to it after another status: never sent twice.
    expect((await setStatus(order.id, shop.statuses.Paid!)).status).toBe(200);
    expect((await setStatus(order.id, shop.statuses.Sent!)).status).toBe(200);
    expect((await setStatus(order.id, shop.statuses.Paid!)).status).toBe(200);
    const effects = await eventually(async () => {
      const rows = await clubEffects(order.id);
      expect(rows).toHaveLength(3);
      return rows;
    });
    // The two later changes' workflows run side by side: their entries may be listed in either order.
    expect(effects.map((e) => e.status).sort()).toEqual(['done', 'skipped', 'skipped']);
    expect(effects.filter((e) => e.detail.includes('once per order and status'))).toHaveLength(1);
    expect(effects.filter((e) => e.detail.includes(`goes at order status ${shop.statuses.Paid}, not ${shop.statuses.Sent}`))).toHaveLength(1);
    // A skipped effect starts no delivery: the order has its one, sent once.
    expect(await clubDeliveries(order.id)).toHaveLength(1);
    expect(clubRequests()).toHaveLength(1);
  });

  it('an order without a listed product is skipped; once the last product is removed, clearing sends it for any order', async () => {
    const mugOnly = await placeOrder(products.other);
    expect((await shopApi('PATCH', `/api/v1/orders/${mugOnly.id}/clear`)).status).toBe(200);
    const [skipped] = await eventually(async () => {
      const rows = await clubEffects(mugOnly.id);
      expect(rows).toHaveLength(1);
      return rows;
    });
    expect(skipped).toMatchObject({ status: 'skipped', detail: 'the order holds no product of the club list' });

    const removed = await shopApi('DELETE', `/api/v1/configuration/club/products/${products.listed}`);
    expect(removed.body.data).toMatchObject({ product_ids: [], fires_for_all_products: true });
    const another = await placeOrder(products.other);
    expect((await shopApi('PATCH', `/api/v1/orders/${another.id}/clear`)).status).toBe(200);
    const requests = await eventually(async () => {
      expect(clubRequests()).toHaveLength(2);
      return clubRequests();
    });
    expect(verifySignatures(requests[1]!, SECRET)).toEqual({ xWebhookSignature: true, standardWebhooks: true });
    expect(requests[1]!.json.data).toMatchObject({ order: { id: another.id, paid: true, order_status: 'Paid' }, club: { fires_for_all_products: true, products: [] } });
    // Delivered by the clearing's own first attempt (DESIGN.md section 4, "Deliveries"): its effect says so, and no delivery workflow ran.
    await eventually(async () => expect(await clubEffects(another.id)).toEqual([expect.objectContaining({ status: 'done', detail: expect.stringContaining('delivered') })]));
    const clubWorkflow = stack.temporal.workflow.getHandle(clubWebhookWorkflowId({ shopId: shop.id, orderId: another.id, statusId: shop.statuses.Paid! }));
    await expect(clubWorkflow.describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);
  });

  it('with the key cleared the webhook goes unsigned; switched off, nothing goes', async () => {
    expect((await shopApi('PATCH', '/api/v1/configuration/club', { webhook_secret_key: null })).body.data.webhook_secret_key_configured).toBe(false);
    const unsigned = await placeOrder(products.other);
    await setStatus(unsigned.id, shop.statuses.Paid!);
    const requests = await eventually(async () => {
      expect(clubRequests()).toHaveLength(3);
      return clubRequests();
    });
    expect(requests[2]!.headers['x-webhook-signature']).toBeUndefined();
    expect(requests[2]!.headers['webhook-id']).toBe(requests[2]!.json.data.id);

    await shopApi('PATCH', '/api/v1/configuration/club', { active: false });
    const off = await placeOrder(products.other);
    await setStatus(off.id, shop.statuses.Paid!);
    await eventually(async () => expect((await clubEffects(off.id)).map((e) => [e.status, e.detail])).toEqual([['skipped', 'the club integration is switched off']]));
    // The skipped effect started no delivery.
    expect(await clubDeliveries(off.id)).toEqual([]);
    expect(clubRequests()).toHaveLength(3);
  });

  it('refused by the SSRF rules (a private address not on the allowlist): the effect is failed with the reason, nothing sent', async () => {
    const refused = await createTestShop(stack.app, 'club-e2e-refused');
    const productId = await insertProduct(stack.orm, refused.id, { name: 'Pass', sku: 'PASS', price: '50.00' });
    const configured = await http('PATCH', '/api/v1/configuration/club', { headers: { 'x-api-key': refused.key }, body: { webhook_url: 'http://10.0.0.1/club?token=t' } });
    expect(configured.status).toBe(200);
    const order = await adminPost(stack.app, `/admin/v1/shops/${refused.id}/orders`, { email: 'member@example.com', items: [{ product_id: productId }] });
    expect((await http('PATCH', `/api/v1/orders/${order.id}/clear`, { headers: { 'x-api-key': refused.key } })).status).toBe(200);
    const [effect] = await eventually(
      async () => {
        const rows = await clubEffects(order.id, refused.id);
        expect(rows.map((e) => e.status)).toEqual(['failed']);
        return rows;
      },
      { timeoutMs: 60_000 },
    );
    expect(effect!.detail).toMatch(/^club webhook to 10\.0\.0\.1 failed: /);
    expect(effect!.detail).not.toContain('token=t');
    const deliveries = await http('GET', '/api/v1/configuration/club/deliveries', { headers: { 'x-api-key': refused.key } });
    expect(deliveries.status).toBe(200);
    expect(deliveries.body.data).toEqual([expect.objectContaining({ order_id: order.id, status: 'failed', attempts: [expect.objectContaining({ status_code: null, error: effect!.detail.replace(/^club webhook to 10\.0\.0\.1 failed: /, '') })] })]);
    expect(deliveries.body.meta).toMatchObject({ page: 1, per_page: 25, total: 1 });
  });
});

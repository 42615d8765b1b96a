import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriberHash } from '../../../adapters/marketing/mailchimp.ts';
import { OrderStatus } from '../../../db/entities/shop/index.ts';
import { SHOP_FILTER } from '../../../db/tenant.ts';
import { startEndToEnd, type EndToEnd } from '../../helpers/e2e.ts';
import { insertProduct } from '../../helpers/shop-catalogue.ts';
import { adminPost, createTestShop, operator, type TestShop } from '../../helpers/shop.ts';
import { eventually } from '../../helpers/stack.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../helpers/webhook-receiver.ts';
import { buyer } from '../../helpers/storefront.ts';

/** Clearing and status changes through HTTP with a real worker: every effect in the order's log. */
let e2e: EndToEnd;
let receiver: WebhookReceiver;
let shop: TestShop;
let productId: number;
let other: TestShop; // no integrations
const MAILCHIMP_KEY = '0123456789abcdef0123456789abcdef-us21';

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  e2e = await startEndToEnd('shop-order-effects', {
    integrationEndpoints: { ga4Url: receiver.url('/mp/collect'), mailchimpApiUrl: receiver.url('/3.0') },
  });
  shop = await createTestShop(e2e.stack.app, 'effects');
  other = await createTestShop(e2e.stack.app, 'effects-other');
  await e2e.http('PATCH', `/admin/v1/shops/${shop.id}`, { operator: true, body: { automatic_invoicing: true } });
  productId = await insertProduct(e2e.stack.orm, shop.id, { name: 'Atlas', sku: 'ATLAS', price: '120.00' });
  const analytics = await e2e.http('PUT', `/admin/v1/shops/${shop.id}/integrations/analytics`, { operator: true, body: { measurement_id: 'G-TEST123', api_secret: 'mp-secret-1' } });
  expect(analytics.status).toBe(200);
  const marketing = await e2e.http('PUT', `/admin/v1/shops/${shop.id}/integrations/marketing`, {
    operator: true,
    body: { provider: 'mailchimp', api_key: MAILCHIMP_KEY, list_id: 'aud1', tags: ['customer'], product_tags: { [productId]: ['atlas-buyer'] } },
  });
  expect(marketing.status).toBe(200);
});
afterAll(async () => {
  await e2e.close();
  await receiver.close();
});

/** The order's effect log after placing (placing's own lines, source `placed`, are order-confirmation.test.ts's). */
const effectsOf = async (orderId: number) =>
  (
    (await e2e.stack.app.inject({ method: 'GET', url: `/admin/v1/shops/${shop.id}/orders/${orderId}/effects`, headers: operator })).json().data as {
      effect: string;
      source: string;
      status: string;
      detail: string;
    }[]
  ).filter((e) => e.source !== 'placed');

describe('clearing an order', () => {
  it('runs every effect once: invoice from the shop sequence, analytics purchase, marketing tags, the rest skipped', async () => {
    const order = await adminPost(e2e.stack.app, `/admin/v1/shops/${shop.id}/orders`, { email: 'ann@example.com', items: [{ product_id: productId, quantity: 2 }] });
    const cleared = await e2e.http('PATCH', `/api/v1/orders/${order.id}/clear`, { headers: { 'x-api-key': shop.key } });
    expect(cleared.status).toBe(200);
    const effects = await eventually(async () => {
      const rows = await effectsOf(order.id);
      expect(rows).toHaveLength(11);
      return rows;
    }, { timeoutMs: 120_000 });
    // The Paid status's own effects ran beside the clearing's (issue 22): its mail (none configured) and order_status_changed.
    expect(effects.filter((e) => e.effect === 'status_mail')).toEqual([expect.objectContaining({ status: 'skipped', detail: 'the status has no mail' })]);
    expect(effects.filter((e) => e.effect === 'webhook').map((e) => e.detail).sort()).toEqual(['no shop webhook subscribed to order_cleared', 'no shop webhook subscribed to order_status_changed']);
    const byEffect = Object.fromEntries(effects.map((e) => [e.effect, e]));
    expect(byEffect.invoice).toMatchObject({ status: 'done', detail: `FV/${new Date().getUTCFullYear()}/1` });
    expect(byEffect.analytics_purchase).toMatchObject({ status: 'done' });
    expect(byEffect.marketing_tags).toMatchObject({ status: 'done' });
    expect(byEffect.download_codes).toMatchObject({ status: 'skipped' });
    expect(byEffect.club_webhook).toMatchObject({ status: 'skipped', detail: 'no club integration' });
    expect(byEffect.course_access).toMatchObject({ status: 'skipped', detail: 'no product of this order sells courses' });
    const detail = await e2e.http('GET', `/api/v1/orders/${order.id}`, { headers: { 'x-api-key': shop.key } });
    expect(detail.body.data.invoice_number).toBe(`FV/${new Date().getUTCFullYear()}/1`);

    const [purchase] = receiver.requests().filter((r) => r.path.startsWith('/mp/collect'));
    expect(purchase!.path).toContain('measurement_id=G-TEST123');
    expect(purchase!.path).toContain('api_secret=mp-secret-1');
    expect(purchase!.json.events[0]).toMatchObject({ name: 'purchase', params: { currency: 'PLN', value: 240, transaction_id: `${shop.id}:${order.ordinal_number}` } });
    // No client id was given with the order: one per order, never its uuid (the secret cart key).
    expect(purchase!.json.client_id).toBe(`${shop.id}.${order.id}`);
    expect(purchase!.json.client_id).not.toContain(order.uuid);
    // Mailchimp: the member (md5 of the lower-case e-mail) is upserted, then tagged; basic auth with the key.
    const member = `/3.0/lists/aud1/members/${subscriberHash('Ann@Example.com')}`;
    const [upsert] = receiver.requests(member);
    expect(upsert).toMatchObject({ json: { email_address: 'ann@example.com', status_if_new: 'transactional' } });
    const [tags] = receiver.requests(`${member}/tags`);
    expect(tags!.json).toEqual({ tags: [{ name: 'customer', status: 'active' }, { name: 'atlas-buyer', status: 'active' }] });
    expect(tags!.headers.authorization).toBe(`Basic ${Buffer.from(`coursehub:${MAILCHIMP_KEY}`).toString('base64')}`);
    expect(byEffect.marketing_tags).toMatchObject({ status: 'done', detail: 'customer, atlas-buyer' });
  });

  it("reports the buyer's GA client id that the storefront cart was given (the raw _ga cookie, normalized) as the purchase's client_id", async () => {
    const store = buyer(e2e.stack.app, shop.subdomain);
    const cart = (await store.post('/carts', { items: [{ product_id: productId }], email: 'ga@example.com' })).json().data;
    const patched = await store.patch(`/carts/${cart.id}`, { analytics_client_id: 'GA1.1.1234567890.1712345678' });
    expect(patched.statusCode, patched.body).toBe(200);
    const checkout = await store.post(`/carts/${cart.id}/checkout`);
    expect(checkout.statusCode, checkout.body).toBe(201);
    const order = checkout.json().data as { order_id: number; ordinal_number: number };
    expect((await e2e.http('PATCH', `/api/v1/orders/${order.order_id}/clear`, { headers: { 'x-api-key': shop.key } })).status).toBe(200);
    const purchase = await eventually(async () => {
      const found = receiver.requests().find((r) => r.path.startsWith('/mp/collect') && r.json.events[0].params.transaction_id === `${shop.id}:${order.ordinal_number}`);
      expect(found).toBeDefined();
      return found!;
    }, { timeoutMs: 120_000 });
    expect(purchase.json.client_id).toBe('1234567890.1712345678');
    expect(purchase.json.events[0]).toMatchObject({ name: 'purchase', params: { value: 120 } });
  });

  it('records analytics and marketing skipped for a shop without them: another shop\'s settings never reach its orders', async () => {
    const otherProduct = await insertProduct(e2e.stack.orm, other.id, { name: 'Globe', sku: 'GLOBE', price: '50.00' });
    const order = await adminPost(e2e.stack.app, `/admin/v1/shops/${other.id}/orders`, { email: 'bob@example.com', items: [{ product_id: otherProduct }] });
    const before = receiver.requests().length;
    expect((await e2e.http('PATCH', `/api/v1/orders/${order.id}/clear`, { headers: { 'x-api-key': other.key } })).status).toBe(200);
    const effects = await eventually(async () => {
      const rows = (await e2e.stack.app.inject({ method: 'GET', url: `/admin/v1/shops/${other.id}/orders/${order.id}/effects`, headers: operator })).json().data as { effect: string; status: string; detail: string }[];
      expect(rows.map((r) => r.effect)).toEqual(expect.arrayContaining(['analytics_purchase', 'marketing_tags']));
      return Object.fromEntries(rows.map((e) => [e.effect, e]));
    });
    expect(effects.analytics_purchase).toMatchObject({ status: 'skipped', detail: 'no analytics integration configured' });
    expect(effects.marketing_tags).toMatchObject({ status: 'skipped', detail: 'no marketing integration configured' });
    expect(receiver.requests().slice(before).filter((r) => r.path.startsWith('/mp') || r.path.startsWith('/3.0'))).toEqual([]);
  });
});

describe('changing an order status', () => {
  it('sends the status mail from the status\'s sender with tags filled from the order, once per change', async () => {
    const sender = await adminPost(e2e.stack.app, `/admin/v1/shops/${shop.id}/senders`, { name: 'Atlas Shop', email: 'shop@example.com' });
    const em = e2e.stack.orm.em.fork();
    em.setFilterParams(SHOP_FILTER, { shopId: shop.id });
    const sent = await em.findOneOrFail(OrderStatus, shop.statuses.Sent!);
    sent.sendEmailOnStatusChange = true;
    sent.senderId = sender.id;
    sent.email = { subject: 'Order {{NUMER_ZAMOWIENIA}} is on its way', content: '<p>Hello, total {{KWOTA}}</p>' };
    await em.flush();

    const order = await adminPost(e2e.stack.app, `/admin/v1/shops/${shop.id}/orders`, { email: 'bob@example.com', items: [{ product_id: productId }] });
    const patch = () => e2e.http('PATCH', `/api/v1/orders/${order.id}/status`, { headers: { 'x-api-key': shop.key }, body: { order_status_id: sent.id } });
    expect((await patch()).status).toBe(200);
    expect((await patch()).status).toBe(200);
    const mails = await eventually(async () => {
      const res = await e2e.http('GET', `/admin/v1/shops/${shop.id}/emails?to=bob@example.com`, { operator: true });
      expect(res.body.data).toHaveLength(1);
      return res.body.data;
    });
    expect(mails[0]).toMatchObject({ to: 'bob@example.com', kind: 'status_mail', subject: `Order ${order.ordinal_number} is on its way`, html: '<p>Hello, total 120.00 PLN</p>' });
    const effects = await eventually(async () => {
      const rows = await effectsOf(order.id);
      expect(rows).toHaveLength(5);
      return rows;
    });
    expect(effects.find((e) => e.effect === 'status_mail')).toMatchObject({ status: 'done' });
    expect(effects.find((e) => e.effect === 'club_webhook')).toMatchObject({ status: 'skipped' });
  });
});

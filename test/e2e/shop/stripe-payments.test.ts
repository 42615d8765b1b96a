import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signStripeWebhook, stripeAdapter } from '../../../adapters/payments/stripe.ts';
import { subscriberRenewalActivities } from '../../../activities/shop/subscriber-renewal.ts';
import { PLATFORM_URL_TEMPLATE, eventually, startTestApp, startTestWorker, type RunningWorker, type TestStack } from '../../helpers/stack.ts';
import { insertProduct } from '../../helpers/shop-catalogue.ts';
import { adminPost, createTestShop, operator, type TestShop } from '../../helpers/shop.ts';

/**
 * Stripe end to end (issue 23): the shop's keys sealed and never shown, an order paid through a
 * PaymentIntent on stripe-mock, the signed webhook clearing it once, the saved card charged
 * off-session for the renewal, and declines from a stand-in that answers Stripe's error bodies.
 */
const SECRET_KEY = 'sk_test_secretkey4242424242';
const WEBHOOK_SECRET = 'whsec_signingsecret1234567890';
const logs: string[] = [];
let stack: TestStack;
let worker: RunningWorker;
let shop: TestShop;
let other: TestShop;
let magazine: number;
const stripeApiUrl = () => inject('stripeMockUrl');

beforeAll(async () => {
  stack = await startTestApp('shop-stripe', { logStream: { write: (line) => void logs.push(line) }, logLevel: 'info', integrationEndpoints: { stripeApiUrl: stripeApiUrl() } });
  worker = await startTestWorker({ taskQueue: stack.taskQueue, orm: stack.orm, integrationEndpoints: { stripeApiUrl: stripeApiUrl() } });
  [shop, other] = await Promise.all([createTestShop(stack.app, 'stripe'), createTestShop(stack.app, 'stripe-other')]);
  magazine = await insertProduct(stack.orm, shop.id, { name: 'Magazine', price: '30.00' });
  const plan = await stack.app.inject({
    method: 'POST',
    url: '/api/v1/subscription_plans',
    headers: shop.headers(),
    payload: { subscription_plan: { name: 'Monthly', automatic_renewal: true, products: [{ product_id: magazine, interval: 30 }] } },
  });
  expect(plan.statusCode, plan.body).toBe(201);
});
afterAll(async () => {
  await worker?.stop();
  await stack?.close();
});

const put = (path: string, payload: object, shopId = shop.id) =>
  stack.app.inject({ method: 'PUT', url: `/admin/v1/shops/${shopId}/${path}`, headers: { ...operator, 'content-type': 'application/json' }, payload });
const sql = <T>(query: string, params: unknown[] = []) => stack.orm.em.fork().getConnection().execute<T[]>(query, params);
const pay = (orderId: number, shopId = shop.id) => stack.app.inject({ method: 'POST', url: `/admin/v1/shops/${shopId}/orders/${orderId}/payment`, headers: operator });

function event(type: string, intent: { id: string; amount: number; currency: string; payment_method?: string; customer?: string }) {
  return JSON.stringify({ id: `evt_${Math.random().toString(36).slice(2)}`, object: 'event', type, data: { object: { object: 'payment_intent', metadata: {}, ...intent } } });
}
const deliver = (payload: string, signature = signStripeWebhook(payload, WEBHOOK_SECRET), shopId = shop.id) =>
  stack.app.inject({ method: 'POST', url: `/webhooks/stripe/${shopId}`, headers: { 'content-type': 'application/json', 'stripe-signature': signature }, payload });

describe('PUT /admin/v1/shops/:shop_id/payment_gateway, mode stripe', () => {
  it('seals the keys: the reply says they are configured and never shows them', async () => {
    const res = await put('payment_gateway', { mode: 'stripe', secret_key: SECRET_KEY, webhook_secret: WEBHOOK_SECRET });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ mode: 'stripe', dunning_days: [1, 3, 5], secret_key_configured: true, webhook_secret_configured: true, webhook_path: `/webhooks/stripe/${shop.id}` });
    const [row] = await sql<{ secret_key_sealed: string; webhook_secret_sealed: string }>('select secret_key_sealed, webhook_secret_sealed from shop_payment_gateways where shop_id = ?', [shop.id]);
    expect(row!.secret_key_sealed).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain('secretkey4242');
    expect((await stack.app.inject({ method: 'GET', url: `/admin/v1/shops/${shop.id}/payment_gateway`, headers: operator })).body).not.toContain(SECRET_KEY);
  });

  it.each([
    ['no secret key', { mode: 'stripe', webhook_secret: WEBHOOK_SECRET }, 'secret_key'],
    ['a publishable key', { mode: 'stripe', secret_key: 'pk_test_abcdef', webhook_secret: WEBHOOK_SECRET }, 'secret_key'],
    ['no webhook secret', { mode: 'stripe', secret_key: SECRET_KEY }, 'webhook_secret'],
    ['a webhook secret without whsec_', { mode: 'stripe', secret_key: SECRET_KEY, webhook_secret: 'signing-1234' }, 'webhook_secret'],
  ])('answers 422 naming the field for %s, without echoing the value', async (_label, body, field) => {
    const res = await put('payment_gateway', body, other.id);
    expect(res.statusCode, res.body).toBe(422);
    expect(Object.keys(res.json().errors).join(' ')).toContain(field);
    expect(res.body).not.toContain('pk_test_abcdef');
    expect(res.body).not.toContain('signing-1234');
  });
});

describe('PUT /admin/v1/shops/:shop_id/integrations/analytics and /marketing', () => {
  it('stores the GA4 property and the mailing tool per shop, secrets sealed and never shown', async () => {
    const analytics = await put('integrations/analytics', { measurement_id: 'G-ABC1234', api_secret: 'ga-secret-value' }, other.id);
    expect(analytics.json()).toEqual({ data: { configured: true, measurement_id: 'G-ABC1234', api_secret_configured: true } });
    const marketing = await put('integrations/marketing', { provider: 'mailchimp', api_key: '0123456789abcdef0123456789abcdef-us21', list_id: 'aud9', tags: ['buyer', 'buyer'], product_tags: { '12': ['vip'] } }, other.id);
    expect(marketing.json()).toEqual({ data: { configured: true, provider: 'mailchimp', list_id: 'aud9', api_key_configured: true, tags: ['buyer'], product_tags: { '12': ['vip'] } } });
    const got = await stack.app.inject({ method: 'GET', url: `/admin/v1/shops/${other.id}/integrations/marketing`, headers: operator });
    expect(got.json().data.api_key_configured).toBe(true);
    expect(got.body).not.toContain('0123456789abcdef');
    const none = await stack.app.inject({ method: 'GET', url: `/admin/v1/shops/${shop.id}/integrations/analytics`, headers: operator });
    expect(none.json()).toEqual({ data: { configured: false, measurement_id: null, api_secret_configured: false } });
    const [row] = await sql<{ api_secret_sealed: string }>('select api_secret_sealed from shop_analytics_integrations where shop_id = ?', [other.id]);
    expect(row!.api_secret_sealed).not.toContain('ga-secret-value');
  });

  it.each([
    ['analytics', { measurement_id: 'UA-1', api_secret: 'ga-secret-value' }, 'measurement_id'],
    ['analytics', { measurement_id: 'G-ABC1234' }, 'api_secret'],
    ['marketing', { provider: 'getresponse', api_key: '0123456789abcdef0123456789abcdef-us21', list_id: 'a' }, 'provider'],
    ['marketing', { provider: 'mailchimp', api_key: 'no-data-center', list_id: 'a' }, 'api_key'],
    ['marketing', { provider: 'mailchimp', api_key: '0123456789abcdef0123456789abcdef-us21', list_id: 'a', product_tags: { abc: ['x'] } }, 'product_tags'],
  ])('answers 422 for bad %s settings naming %s', async (kind, body, field) => {
    const res = await put(`integrations/${kind}`, body, other.id);
    expect(res.statusCode, res.body).toBe(422);
    expect(Object.keys(res.json().errors).join(' ')).toContain(field);
  });
});

describe('paying an order and the signed webhook', () => {
  let orderId: number;
  let intent: { payment_intent_id: string; amount: string; currency: string; client_secret: string };

  it('starts a PaymentIntent for the order total with the buyer\'s customer, saving the card for the subscription; a repeat answers the same', async () => {
    orderId = (await adminPost(stack.app, `/admin/v1/shops/${shop.id}/orders`, { email: 'Reader@Example.com', items: [{ product_id: magazine, quantity: 2 }] })).id;
    const res = await pay(orderId);
    expect(res.statusCode, res.body).toBe(200);
    intent = res.json().data;
    expect(intent).toMatchObject({ provider: 'stripe', payment_intent_id: expect.stringMatching(/^pi_/), client_secret: expect.any(String), amount: '60.00', currency: 'PLN' });
    expect((await pay(orderId)).json().data.payment_intent_id).toBe(intent.payment_intent_id);
    const [payment] = await sql<{ save_for_later: boolean; customer_id: string }>('select save_for_later, customer_id from shop_order_payments where order_id = ?', [orderId]);
    expect(payment!.save_for_later).toBe(true);
    expect(await sql('select customer_id from shop_stripe_customers where shop_id = ? and email = ?', [shop.id, 'reader@example.com'])).toEqual([{ customer_id: payment!.customer_id }]);
  });

  it('refuses a payment for a shop whose gateway is not Stripe, and for an unknown order', async () => {
    const foreign = await insertProduct(stack.orm, other.id, { name: 'Globe', price: '10.00' });
    const otherOrder = (await adminPost(stack.app, `/admin/v1/shops/${other.id}/orders`, { email: 'a@example.com', items: [{ product_id: foreign }] })).id;
    expect((await pay(otherOrder, other.id)).statusCode).toBe(409);
    expect((await pay(otherOrder)).statusCode).toBe(404);
  });

  it('refuses a forged, altered or replayed event (400) and changes nothing', async () => {
    const body = event('payment_intent.succeeded', { id: intent.payment_intent_id, amount: 6000, currency: 'pln', payment_method: 'pm_card_visa', customer: 'cus_x' });
    expect((await deliver(body, signStripeWebhook(body, 'whsec_someoneelse'))).statusCode).toBe(400);
    expect((await deliver(body.replace('6000', '1'), signStripeWebhook(body, WEBHOOK_SECRET))).statusCode).toBe(400);
    expect((await deliver(body, signStripeWebhook(body, WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 3600))).statusCode).toBe(400);
    expect((await deliver(body, 'garbage')).statusCode).toBe(400);
    // The other shop has no Stripe webhook endpoint.
    expect((await deliver(body, undefined, other.id)).statusCode).toBe(404);
    const [order] = await sql<{ paid: boolean }>('select paid from shop_orders where id = ?', [orderId]);
    expect(order!.paid).toBe(false);
  });

  it('clears the order once on payment_intent.succeeded, delivered twice and followed by a late event', async () => {
    const body = event('payment_intent.succeeded', { id: intent.payment_intent_id, amount: 6000, currency: 'pln', payment_method: 'pm_card_visa', customer: 'cus_x' });
    const first = await deliver(body);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ received: true, outcome: `order ${orderId} cleared` });
    const [cleared] = await sql<{ paid: boolean; transaction_id: string; cleared_at: Date }>('select paid, transaction_id, cleared_at from shop_orders where id = ?', [orderId]);
    expect(cleared).toMatchObject({ paid: true, transaction_id: intent.payment_intent_id });
    expect((await deliver(body)).json()).toEqual({ received: true, outcome: `order ${orderId} was already paid` });
    const late = event('payment_intent.payment_failed', { id: intent.payment_intent_id, amount: 6000, currency: 'pln' });
    expect((await deliver(late)).json()).toEqual({ received: true, outcome: 'ignored payment_intent.payment_failed' });
    const [after] = await sql<{ paid: boolean; cleared_at: Date }>('select paid, cleared_at from shop_orders where id = ?', [orderId]);
    expect(after).toEqual({ paid: true, cleared_at: cleared!.cleared_at });
    // One clearing: the subscription effect made one subscriber, with the saved card for renewals.
    const subscribers = await eventually(async () => {
      const rows = await sql<{ id: number; payment_reference: string }>('select id, payment_reference from shop_subscribers where order_id = ?', [orderId]);
      expect(rows).toHaveLength(1);
      return rows;
    }, { timeoutMs: 60_000 });
    const [payment] = await sql<{ customer_id: string }>('select customer_id from shop_order_payments where order_id = ?', [orderId]);
    expect(subscribers[0]!.payment_reference).toBe(`stripe:${payment!.customer_id}:pm_card_visa`);
    const effects = await eventually(async () => {
      const res = await stack.app.inject({ method: 'GET', url: `/admin/v1/shops/${shop.id}/orders/${orderId}/effects`, headers: operator });
      const rows = (res.json().data as { effect: string; status: string }[]).filter((e) => e.effect === 'subscription');
      expect(rows).toHaveLength(1);
      return rows;
    }, { timeoutMs: 60_000 });
    expect(effects[0]!.status).toBe('done');
  });

  it('an event for a payment that is not this shop\'s, or of another amount, changes nothing', async () => {
    expect((await deliver(event('payment_intent.succeeded', { id: 'pi_unknown', amount: 6000, currency: 'pln' }))).json().outcome).toBe('ignored: not a payment of this shop');
  });

  it('never writes the keys, secrets or client secret to the log', () => {
    const text = logs.join('\n');
    expect(text.length).toBeGreaterThan(0);
    for (const secret of [SECRET_KEY, WEBHOOK_SECRET, 'ga-secret-value', '0123456789abcdef0123456789abcdef-us21', intent.client_secret]) expect(text).not.toContain(secret);
  });
});

describe('storefront checkout paying with Stripe', () => {
  const store = (path: string, subdomain = shop.subdomain) => `/store/v1/${subdomain}${path}`;
  const storePost = (path: string, payload?: object, subdomain?: string) =>
    stack.app.inject({ method: 'POST', url: store(path, subdomain), ...(payload && { headers: { 'content-type': 'application/json' }, payload }) });
  const openCart = async (items: { product_id: number; quantity?: number }[], subdomain?: string) => {
    const res = await storePost('/carts', { items, email: 'Buyer@Example.com' }, subdomain);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.id as string;
  };

  it('answers the PaymentIntent of the order, the same on a repeat, and the webhook clears the storefront order', async () => {
    const book = await insertProduct(stack.orm, shop.id, { name: 'Storefront book', price: '25.00' });
    const cartId = await openCart([{ product_id: book, quantity: 2 }]);
    const first = await storePost(`/carts/${cartId}/checkout`);
    expect(first.statusCode, first.body).toBe(201);
    const { order_id: orderId, payment } = first.json().data;
    expect(payment).toEqual({ provider: 'stripe', payment_intent_id: expect.stringMatching(/^pi_/), client_secret: expect.any(String), amount: '50.00', currency: 'PLN' });
    const [stored] = await sql<{ payment_intent_id: string; amount: string }>('select payment_intent_id, amount from shop_order_payments where order_id = ?', [orderId]);
    expect(stored).toEqual({ payment_intent_id: payment.payment_intent_id, amount: '50.00' });
    const again = await storePost(`/carts/${cartId}/checkout`);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data.payment.payment_intent_id).toBe(payment.payment_intent_id);
    // The operator's route answers the same PaymentIntent for the storefront order.
    expect((await pay(orderId)).json().data.payment_intent_id).toBe(payment.payment_intent_id);

    const body = event('payment_intent.succeeded', { id: payment.payment_intent_id, amount: 5000, currency: 'pln', payment_method: 'pm_card_visa' });
    expect((await deliver(body)).json()).toEqual({ received: true, outcome: `order ${orderId} cleared` });
    const [order] = await sql<{ paid: boolean; transaction_id: string; uuid: string }>('select paid, transaction_id, uuid from shop_orders where id = ?', [orderId]);
    expect(order).toEqual({ paid: true, transaction_id: payment.payment_intent_id, uuid: cartId });
    // A checkout repeated after the payment still answers the payment it was paid with.
    const paid = await storePost(`/carts/${cartId}/checkout`);
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().data.payment.payment_intent_id).toBe(payment.payment_intent_id);
    expect(await sql('select count(*)::int as n from shop_order_payments where order_id = ?', [orderId])).toEqual([{ n: 1 }]);
  });

  it('answers payment null for a zero-total order and for a shop whose gateway is not Stripe, starting no payment', async () => {
    const gift = await insertProduct(stack.orm, shop.id, { name: 'Free sample', price: '0.00' });
    const free = await storePost(`/carts/${await openCart([{ product_id: gift }])}/checkout`);
    expect(free.statusCode, free.body).toBe(201);
    expect(free.json().data).toMatchObject({ total: '0.00', payment: null });
    const globe = await insertProduct(stack.orm, other.id, { name: 'Storefront globe', price: '10.00' });
    const approve = await storePost(`/carts/${await openCart([{ product_id: globe }], other.subdomain)}/checkout`, undefined, other.subdomain);
    expect(approve.statusCode, approve.body).toBe(201);
    expect(approve.json().data).toMatchObject({ total: '10.00', payment: null });
    for (const id of [free.json().data.order_id, approve.json().data.order_id]) expect(await sql('select order_id from shop_order_payments where order_id = ?', [id])).toEqual([]);
  });
});

/** A stand-in for Stripe's API that answers every PaymentIntent with a card error, as Stripe does (402). */
async function decliningStripe(code: string, declineCode?: string): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(402, { 'content-type': 'application/json', 'request-id': 'req_standin' });
      res.end(
        JSON.stringify({
          error: {
            type: 'card_error',
            code,
            ...(declineCode && { decline_code: declineCode }),
            message: 'Your card was declined.',
            payment_intent: { id: 'pi_declined', object: 'payment_intent', status: 'requires_payment_method' },
          },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('renewal charges through Stripe', () => {
  async function subscriberOf(): Promise<{ id: number; periodId: number; periodEnd: number }> {
    const [row] = await sql<{ id: number; period_id: number; ends_at: Date }>(
      `select s.id, p.id as period_id, p.ends_at from shop_subscribers s join shop_subscriber_periods p on p.subscriber_id = s.id
       where s.shop_id = ? and s.payment_reference like 'stripe:%' order by p.ends_at desc limit 1`,
      [shop.id],
    );
    return { id: row!.id, periodId: row!.period_id, periodEnd: new Date(row!.ends_at).getTime() };
  }

  it('charges the saved card off-session and turns the approval into the renewal order', async () => {
    const subscriber = await subscriberOf();
    const activities = subscriberRenewalActivities({ orm: stack.orm, platformUrlTemplate: PLATFORM_URL_TEMPLATE, integrationEndpoints: { stripeApiUrl: stripeApiUrl() } });
    const charged = await activities.chargeRenewal({ shopId: shop.id, subscriberId: subscriber.id, periodId: subscriber.periodId, periodEnd: subscriber.periodEnd, attempt: 0 });
    expect(charged.status).toBe('approved');
    const [charge] = await sql<{ gateway_reference: string; amount: string }>('select gateway_reference, amount from shop_subscriber_charges where subscriber_id = ?', [subscriber.id]);
    // The renewal items are the first order's: two magazines.
    expect(charge).toMatchObject({ gateway_reference: expect.stringMatching(/^pi_/), amount: '60.00' });
    const renewed = await activities.renewSubscriber({ shopId: shop.id, subscriberId: subscriber.id, chargeId: (charged as { chargeId: number }).chargeId });
    const [order] = await sql<{ paid: boolean; transaction_id: string; total: string }>('select paid, transaction_id, total from shop_orders where id = ?', [renewed.orderId]);
    expect(order).toEqual({ paid: true, transaction_id: charge!.gateway_reference, total: '60.00' });
  });

  it.each([
    ['a decline', 'card_declined', 'insufficient_funds', 'card_declined: insufficient_funds'],
    ['a card that needs the customer (authentication_required)', 'authentication_required', undefined, 'authentication_required'],
  ])('records %s as a declined attempt for the dunning schedule', async (_label, code, declineCode, reason) => {
    const standIn = await decliningStripe(code, declineCode);
    try {
      const subscriber = await subscriberOf();
      const activities = subscriberRenewalActivities({ orm: stack.orm, platformUrlTemplate: PLATFORM_URL_TEMPLATE, integrationEndpoints: { stripeApiUrl: standIn.url } });
      const attempt = code === 'card_declined' ? 1 : 2;
      const charged = await activities.chargeRenewal({ shopId: shop.id, subscriberId: subscriber.id, periodId: subscriber.periodId, periodEnd: subscriber.periodEnd, attempt });
      expect(charged).toMatchObject({ status: 'declined', reason });
      const facts = await activities.loadRenewalSchedule({ shopId: shop.id, subscriberId: subscriber.id });
      expect(facts.failedAttempts).toBe(attempt);
    } finally {
      await standIn.close();
    }
  });
});

/** A stand-in for Stripe's API answering every request with one status and error body, recording the paths. */
async function answeringStripe(status: number, error: object): Promise<{ url: string; paths: string[]; close(): Promise<void> }> {
  const paths: string[] = [];
  const server: Server = createServer((req, res) => {
    paths.push(`${req.method} ${req.url}`);
    req.resume();
    req.on('end', () => {
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': 'req_standin' });
      res.end(JSON.stringify({ error }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, paths, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('erasure of a Stripe buyer', () => {
  it('detaching a saved card: done at Stripe, and an already detached card is no error; a refused key is', async () => {
    await expect(stripeAdapter({ secretKey: SECRET_KEY, apiUrl: stripeApiUrl() }).detachPaymentMethod('pm_card_visa')).resolves.toBeUndefined();
    const detached = await answeringStripe(400, { type: 'invalid_request_error', message: 'The payment method you provided is not attached to a customer so detachment is impossible.' });
    const refused = await answeringStripe(401, { type: 'authentication_error', message: 'Invalid API Key provided' });
    try {
      await expect(stripeAdapter({ secretKey: SECRET_KEY, apiUrl: detached.url }).detachPaymentMethod('pm_gone')).resolves.toBeUndefined();
      expect(detached.paths).toEqual(['POST /v1/payment_methods/pm_gone/detach']);
      await expect(stripeAdapter({ secretKey: SECRET_KEY, apiUrl: refused.url }).detachPaymentMethod('pm_x')).rejects.toThrow();
    } finally {
      await Promise.all([detached.close(), refused.close()]);
    }
  });

  it('erases the buyer: saved cards cleared after the detach, the Stripe customer row gone, the order payment kept without customer and card', async () => {
    const res = await stack.app.inject({ method: 'POST', url: `/admin/v1/shops/${shop.id}/customers/erase`, headers: { ...operator, 'content-type': 'application/json' }, payload: { email: 'reader@example.com' } });
    expect(res.statusCode, res.body).toBe(202);
    await eventually(async () => {
      expect(await sql('select customer_id from shop_stripe_customers where shop_id = ? and email = ?', [shop.id, 'reader@example.com'])).toEqual([]);
      expect(await sql(`select id from shop_subscribers where shop_id = ? and payment_reference like 'stripe:%'`, [shop.id])).toEqual([]);
      const payments = await sql<{ customer_id: string | null; payment_method_id: string | null }>(
        'select p.customer_id, p.payment_method_id from shop_order_payments p join shop_orders o on o.id = p.order_id where p.shop_id = ? and o.email like ?',
        [shop.id, 'erased-%'],
      );
      expect(payments.length).toBeGreaterThan(0);
      for (const p of payments) expect(p).toEqual({ customer_id: null, payment_method_id: null });
    }, { timeoutMs: 120_000 });
  }, 180_000);
});

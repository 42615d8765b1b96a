import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signStripeWebhook } from '../../../adapters/payments/stripe.ts';
import { subscriberWorkflowId } from '../../../domain/shop/workflow-ids.ts';
import { subscriberStateQuery } from '../../../workflows/shop/subscription-signals.ts';
import { eventually, startTestApp, startTestWorker, type RunningWorker, type TestStack } from '../../helpers/stack.ts';
import { insertProduct } from '../../helpers/shop-catalogue.ts';
import { adminPost, createTestShop, operator, type TestShop } from '../../helpers/shop.ts';

/**
 * A renewal through the whole subscriber workflow against stripe-mock (issue 23): an order paid
 * with a PaymentIntent saving the card, cleared by the signed webhook, activates the subscriber
 * with the saved Stripe card; its period end moved a few seconds ahead, the workflow charges the
 * card off-session at Stripe and the approval becomes the paid renewal order and the next period.
 */
const SECRET_KEY = 'sk_test_renewalkey4242424242';
const WEBHOOK_SECRET = 'whsec_renewalsecret1234567890';
let stack: TestStack;
let worker: RunningWorker;
let shop: TestShop;
let magazine: number;
const stripeApiUrl = () => inject('stripeMockUrl');

beforeAll(async () => {
  stack = await startTestApp('shop-stripe-renewal', { integrationEndpoints: { stripeApiUrl: stripeApiUrl() } });
  worker = await startTestWorker({ taskQueue: stack.taskQueue, orm: stack.orm, integrationEndpoints: { stripeApiUrl: stripeApiUrl() } });
  shop = await createTestShop(stack.app, 'stripe-renewal');
  magazine = await insertProduct(stack.orm, shop.id, { name: 'Magazine', price: '25.00' });
  const plan = await stack.app.inject({
    method: 'POST',
    url: '/api/v1/subscription_plans',
    headers: shop.headers(),
    payload: { subscription_plan: { name: 'Monthly', automatic_renewal: true, extension_strategy: 'continuous', products: [{ product_id: magazine, interval: 30 }] } },
  });
  expect(plan.statusCode, plan.body).toBe(201);
  const gateway = await stack.app.inject({
    method: 'PUT',
    url: `/admin/v1/shops/${shop.id}/payment_gateway`,
    headers: operator,
    payload: { mode: 'stripe', secret_key: SECRET_KEY, webhook_secret: WEBHOOK_SECRET },
  });
  expect(gateway.statusCode, gateway.body).toBe(200);
});
afterAll(async () => {
  await worker?.stop();
  await stack?.close();
});

const sql = <T>(query: string, params: unknown[] = []) => stack.orm.em.fork().getConnection().execute<T[]>(query, params);
const api = (method: 'GET' | 'PATCH', url: string, payload?: object) =>
  stack.app.inject({ method, url, headers: { 'x-api-key': shop.keys.write_subscriptions, ...(payload ? { 'content-type': 'application/json' } : {}) }, payload });

describe('a Stripe subscriber renewed by the subscriber workflow', () => {
  it('charges the saved card off-session at Stripe when the period ends and creates the paid renewal order', async () => {
    const email = 'stripe-reader@example.com';
    const order = await adminPost(stack.app, `/admin/v1/shops/${shop.id}/orders`, { email, items: [{ product_id: magazine, quantity: 2 }] });
    const paid = await stack.app.inject({ method: 'POST', url: `/admin/v1/shops/${shop.id}/orders/${order.id}/payment`, headers: operator });
    expect(paid.statusCode, paid.body).toBe(200);
    const intent = paid.json().data as { payment_intent_id: string };
    const body = JSON.stringify({
      id: `evt_${Math.random().toString(36).slice(2)}`,
      object: 'event',
      type: 'payment_intent.succeeded',
      data: { object: { object: 'payment_intent', id: intent.payment_intent_id, amount: 5000, currency: 'pln', payment_method: 'pm_card_visa', customer: 'cus_any', metadata: {} } },
    });
    const delivered = await stack.app.inject({
      method: 'POST',
      url: `/webhooks/stripe/${shop.id}`,
      headers: { 'content-type': 'application/json', 'stripe-signature': signStripeWebhook(body, WEBHOOK_SECRET) },
      payload: body,
    });
    expect(delivered.statusCode, delivered.body).toBe(200);

    // The clearing's subscription effect activates the subscriber with the saved Stripe card and starts its workflow.
    const subscriber = await eventually(
      async () => {
        const res = await api('GET', `/api/v1/subscribers?email=${encodeURIComponent(email)}`);
        const rows = res.json().data as { id: number; service_ref: string }[];
        expect(rows).toHaveLength(1);
        return rows[0]!;
      },
      { timeoutMs: 60_000 },
    );
    const [saved] = await sql<{ payment_reference: string }>('select payment_reference from shop_subscribers where id = ?', [subscriber.id]);
    expect(saved!.payment_reference).toMatch(/^stripe:cus_[^:]+:pm_card_visa$/);
    const handle = stack.temporal.workflow.getHandle(subscriberWorkflowId({ shopId: shop.id, subscriberId: subscriber.id }));
    await eventually(async () => expect((await handle.query(subscriberStateQuery)).status).toBe('active'), { timeoutMs: 60_000 });

    const soon = new Date(Date.now() + 3000).toISOString();
    const moved = await api('PATCH', `/api/v1/subscribers/${subscriber.id}/period`, { active_until: soon });
    expect(moved.statusCode, moved.body).toBe(200);

    const renewed = await eventually(
      async () => {
        const data = (await api('GET', `/api/v1/subscribers/${subscriber.id}`)).json().data;
        expect(data.periods).toHaveLength(2);
        return data;
      },
      { timeoutMs: 120_000, intervalMs: 500 },
    );
    const renewal = renewed.periods[1];
    expect(renewal).toMatchObject({ kind: 'renewal', starts_at: soon });
    expect(renewed.renewals_done).toBe(1);

    const billing = (await stack.app.inject({ method: 'GET', url: `/admin/v1/shops/${shop.id}/subscribers/${subscriber.id}/billing`, headers: operator })).json().data;
    expect(billing.charges).toEqual([expect.objectContaining({ attempt: 1, amount: '50.00', status: 'approved', order_id: renewal.order_id, gateway_reference: expect.stringMatching(/^pi_/) })]);
    // The charge is a PaymentIntent of its own, not the first order's.
    expect(billing.charges[0].gateway_reference).not.toBe(intent.payment_intent_id);

    const renewalOrder = (await stack.app.inject({ method: 'GET', url: `/api/v1/orders/${renewal.order_id}`, headers: shop.headers() })).json().data;
    expect(renewalOrder).toMatchObject({ paid: true, total: '50.00', email, subscriber_identifier: subscriber.service_ref, transaction_id: billing.charges[0].gateway_reference });
    await eventually(async () => expect(await handle.query(subscriberStateQuery)).toMatchObject({ status: 'active', renewalsDone: 1, nextChargeAt: renewal.ends_at }), { timeoutMs: 60_000 });
    await handle.terminate('test over');
  }, 300_000);
});

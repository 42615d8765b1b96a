/**
 * Issue 12 end to end: clearing an order of an automatic-plan product activates the subscription
 * and starts its renewal workflow; moving the period end a few seconds ahead through the API makes
 * the workflow charge the saved payment through the test gateway, and the renewal order appears.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriberWorkflowId } from '../../../domain/shop/workflow-ids.ts';
import { subscriberStateQuery } from '../../../workflows/shop/subscription-signals.ts';
import { startEndToEnd, type EndToEnd } from '../../helpers/e2e.ts';
import { insertProduct } from '../../helpers/shop-catalogue.ts';
import { adminPost, createTestShop, type TestShop } from '../../helpers/shop.ts';
import { eventually } from '../../helpers/stack.ts';

let e2e: EndToEnd;
let shop: TestShop;
let productId: number;

/** A shop's "Box club" plan (automatic, continuous, 30 days) of its product "Monthly box" at 39.00. */
async function boxClub(of: TestShop): Promise<number> {
  const product = await insertProduct(e2e.stack.orm, of.id, { name: 'Monthly box', price: '39.00' });
  const plan = await e2e.http('POST', '/api/v1/subscription_plans', {
    key: of.key,
    body: {
      subscription_plan: {
        name: 'Box club',
        automatic_renewal: true,
        extension_strategy: 'continuous',
        send_email_about_activation: true,
        send_email_about_renewal: true,
        products: [{ product_id: product, interval: 30 }],
      },
    },
  });
  expect(plan.status, JSON.stringify(plan.body)).toBe(201);
  return product;
}

beforeAll(async () => {
  e2e = await startEndToEnd('shop-subscription-renewal');
  shop = await createTestShop(e2e.stack.app, 'renewals');
  productId = await boxClub(shop);
});
afterAll(() => e2e?.close());

const subscribersOf = async (email: string, of = shop) =>
  (await e2e.http('GET', `/api/v1/subscribers?email=${encodeURIComponent(email)}`, { key: of.keys.write_subscriptions })).body.data as { id: number; service_ref: string }[];
const detail = async (id: number, of = shop) => (await e2e.http('GET', `/api/v1/subscribers/${id}`, { key: of.keys.write_subscriptions })).body.data;
const mails = async (email: string, of = shop) =>
  ((await e2e.http('GET', `/admin/v1/shops/${of.id}/emails?to=${encodeURIComponent(email)}`, { operator: true })).body.data as { subject: string; kind: string }[]).map((m) => m.subject);

async function activatedSubscriber(email: string, of = shop, product = productId) {
  const order = await adminPost(e2e.stack.app, `/admin/v1/shops/${of.id}/orders`, { email, items: [{ product_id: product }], placed_ip: '203.0.113.7' });
  const cleared = await e2e.http('PATCH', `/api/v1/orders/${order.id}/clear`, { key: of.key });
  expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
  const [subscriber] = await eventually(async () => {
    const found = await subscribersOf(email, of);
    expect(found).toHaveLength(1);
    return found;
  });
  const handle = e2e.stack.temporal.workflow.getHandle(subscriberWorkflowId({ shopId: of.id, subscriberId: subscriber!.id }));
  return { order, subscriber: subscriber!, handle };
}

describe('a subscription bought in the shop', () => {
  it('activates on clearing, and renews when its period end comes: a paid renewal order and the next period', async () => {
    expect((await e2e.http('PUT', `/admin/v1/shops/${shop.id}/payment_gateway`, { operator: true, body: { mode: 'approve' } })).status).toBe(200);
    const email = 'box-fan@example.com';
    const { order, subscriber, handle } = await activatedSubscriber(email);

    const effects = await eventually(async () => {
      const rows = (await e2e.http('GET', `/admin/v1/shops/${shop.id}/orders/${order.id}/effects`, { operator: true })).body.data as { effect: string; status: string }[];
      expect(rows.filter((r) => r.effect === 'subscription')).toHaveLength(1);
      return rows;
    });
    expect(effects.find((r) => r.effect === 'subscription')).toMatchObject({ status: 'done' });
    const initial = await detail(subscriber.id);
    expect(initial.periods).toHaveLength(1);
    await eventually(async () => expect(await handle.query(subscriberStateQuery)).toMatchObject({ status: 'active', nextChargeAt: initial.active_until, renewalsDone: 0 }));
    await eventually(async () => expect(await mails(email)).toContain('Twoja subskrypcja Box club jest aktywna'));

    const soon = new Date(Date.now() + 3000).toISOString();
    const moved = await e2e.http('PATCH', `/api/v1/subscribers/${subscriber.id}/period`, { key: shop.keys.write_subscriptions, body: { active_until: soon } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    // No check of the moved charge instant in between: on a loaded machine the charge may already
    // be done. The renewal period starting at the moved end (below) shows the move was taken.

    const renewed = await eventually(
      async () => {
        const data = await detail(subscriber.id);
        expect(data.periods).toHaveLength(2);
        return data;
      },
      { timeoutMs: 60_000 },
    );
    const renewal = renewed.periods[1];
    // continuous: the next period starts at the (moved) end and lasts the link's 30 days
    expect(renewal).toMatchObject({ kind: 'renewal', starts_at: soon, ends_at: new Date(Date.parse(soon) + 30 * 86_400_000).toISOString() });
    expect(renewed.renewals_done).toBe(1);

    const renewalOrder = await e2e.http('GET', `/api/v1/orders/${renewal.order_id}`, { key: shop.key });
    expect(renewalOrder.status).toBe(200);
    expect(renewalOrder.body.data).toMatchObject({ paid: true, total: '39.00', subscriber_identifier: subscriber.service_ref, placed_ip: null, email });
    await eventually(async () => expect(await mails(email)).toContain('Twoja subskrypcja Box club została odnowiona'));
    // The renewal order went through the clearing's effects; it activated no second subscriber.
    const renewalEffects = await eventually(async () => {
      const rows = (await e2e.http('GET', `/admin/v1/shops/${shop.id}/orders/${renewal.order_id}/effects`, { operator: true })).body.data as { effect: string; status: string; detail: string }[];
      expect(rows.map((r) => r.effect)).toEqual(expect.arrayContaining(['invoice', 'subscription']));
      return rows;
    });
    expect(renewalEffects.find((r) => r.effect === 'subscription')).toMatchObject({ status: 'skipped', detail: `a renewal order of subscriber ${subscriber.service_ref}` });
    expect(await subscribersOf(email)).toHaveLength(1);
    const billing = await e2e.http('GET', `/admin/v1/shops/${shop.id}/subscribers/${subscriber.id}/billing`, { operator: true });
    expect(billing.body.data).toMatchObject({
      workflow_id: handle.workflowId,
      charges: [{ attempt: 1, period_id: initial.periods[0].id, amount: '39.00', status: 'approved', order_id: renewal.order_id }],
    });
    await eventually(async () => expect(await handle.query(subscriberStateQuery)).toMatchObject({ renewalsDone: 1, nextChargeAt: renewal.ends_at }));
    await handle.terminate('test over');
  }, 150_000);

  it('with a declining gateway, records the failed attempt and sends the notice, and charges nothing while paused', async () => {
    expect((await e2e.http('PUT', `/admin/v1/shops/${shop.id}/payment_gateway`, { operator: true, body: { mode: 'decline', dunning_days: [1, 2] } })).status).toBe(200);
    const email = 'declined@example.com';
    const { subscriber, handle } = await activatedSubscriber(email);
    await eventually(async () => expect((await handle.query(subscriberStateQuery)).status).toBe('active'));
    const soon = new Date(Date.now() + 2000).toISOString();
    expect((await e2e.http('PATCH', `/api/v1/subscribers/${subscriber.id}/period`, { key: shop.keys.write_subscriptions, body: { active_until: soon } })).status).toBe(200);
    await eventually(async () => expect(await handle.query(subscriberStateQuery)).toMatchObject({ status: 'dunning', failedAttempts: 1, nextChargeAt: new Date(Date.parse(soon) + 86_400_000).toISOString() }), {
      timeoutMs: 60_000,
    });
    await eventually(async () => expect(await mails(email)).toContain('Nie udało się odnowić subskrypcji Box club'));
    const billing = await e2e.http('GET', `/admin/v1/shops/${shop.id}/subscribers/${subscriber.id}/billing`, { operator: true });
    expect(billing.body.data).toMatchObject({
      state: { status: 'dunning', failed_attempts: 1 },
      charges: [{ attempt: 1, status: 'declined', decline_reason: 'declined by the test gateway', order_id: null }],
    });

    expect((await e2e.http('PATCH', `/api/v1/subscribers/${subscriber.id}`, { key: shop.keys.write_subscriptions, body: { renewal_paused: true } })).status).toBe(200);
    await eventually(async () => expect(await handle.query(subscriberStateQuery)).toMatchObject({ status: 'paused', nextChargeAt: null }));
    await handle.terminate('test over');
    expect((await e2e.http('PUT', `/admin/v1/shops/${shop.id}/payment_gateway`, { operator: true, body: { mode: 'approve' } })).body.data).toEqual({ mode: 'approve', dunning_days: [1, 2] });
  }, 150_000);
});

describe('a shop without a payment gateway (DESIGN.md section 10)', () => {
  it('takes no money: the renewal order waits unpaid at New with its confirmation, and the next period starts when the owner clears it', async () => {
    const own = await createTestShop(e2e.stack.app, 'renewals-none');
    const product = await boxClub(own);
    const email = 'transfer-fan@example.com';
    const { subscriber, handle } = await activatedSubscriber(email, own, product);
    const initial = await detail(subscriber.id, own);
    // From now on placing at New mails the buyer what to pay.
    const newMail = await e2e.http('PATCH', `/api/v1/configuration/order_statuses/${own.statuses.New}`, {
      key: own.key,
      body: { send_email_on_status_change: true, email: { subject: 'Do zapłaty: zamówienie {{NUMER_ZAMOWIENIA}}', content: '<p>Kwota: {{KWOTA}}</p>' } },
    });
    expect(newMail.status, JSON.stringify(newMail.body)).toBe(200);

    const soon = new Date(Date.now() + 3000).toISOString();
    expect((await e2e.http('PATCH', `/api/v1/subscribers/${subscriber.id}/period`, { key: own.keys.write_subscriptions, body: { active_until: soon } })).status).toBe(200);
    const charge = await eventually(
      async () => {
        const billing = (await e2e.http('GET', `/admin/v1/shops/${own.id}/subscribers/${subscriber.id}/billing`, { operator: true })).body.data;
        expect(billing.charges).toEqual([expect.objectContaining({ attempt: 1, status: 'unpaid', amount: '39.00', gateway_reference: null, order_id: expect.any(Number) })]);
        return billing.charges[0];
      },
      { timeoutMs: 60_000 },
    );
    const unpaid = (await e2e.http('GET', `/api/v1/orders/${charge.order_id}`, { key: own.key })).body.data;
    expect(unpaid).toMatchObject({ paid: false, paid_at: null, invoice_number: null, order_status_id: own.statuses.New, subscriber_identifier: subscriber.service_ref, total: '39.00' });
    await eventually(async () => expect(await mails(email, own)).toContain(`Do zapłaty: zamówienie ${unpaid.ordinal_number}`));
    // Unpaid: no new period, still active, in dunning until paid.
    expect((await detail(subscriber.id, own)).periods).toHaveLength(1);
    await eventually(async () => expect(await handle.query(subscriberStateQuery)).toMatchObject({ status: 'dunning', renewalsDone: 0 }));

    // The transfer arrived: the owner clears the order, and the period it pays starts.
    expect((await e2e.http('PATCH', `/api/v1/orders/${charge.order_id}/clear`, { key: own.key })).status).toBe(200);
    const renewed = await eventually(async () => {
      const data = await detail(subscriber.id, own);
      expect(data.periods).toHaveLength(2);
      return data;
    });
    expect(renewed.periods[1]).toMatchObject({ kind: 'renewal', order_id: charge.order_id, starts_at: soon, ends_at: new Date(Date.parse(soon) + 30 * 86_400_000).toISOString() });
    expect(renewed.renewals_done).toBe(1);
    await eventually(async () => expect(await handle.query(subscriberStateQuery)).toMatchObject({ status: 'active', renewalsDone: 1, nextChargeAt: renewed.active_until }));
    expect(initial.periods).toHaveLength(1);
  });
});

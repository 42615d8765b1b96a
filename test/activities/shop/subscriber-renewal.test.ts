import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriberRenewalActivities } from '../../../activities/shop/subscriber-renewal.ts';
import { shopEm } from '../../../db/repositories/shared/tenant-em.ts';
import { markOrderCleared } from '../../../db/repositories/shop/order-transitions.ts';
import { gatewaySettings, saveGatewaySettings } from '../../../db/repositories/shop/subscriber-billing.ts';
import type { ChargeRequest, PaymentGateway } from '../../../domain/shop/payment-gateway.ts';
import { testGateway } from '../../../adapters/payments/test-gateway.ts';
import { DAY_MS } from '../../../domain/shop/subscription-periods.ts';
import { createDeliveryType, createPaymentType, insertProduct } from '../../helpers/shop-catalogue.ts';
import { adminPost, createTestShop, operator, type TestShop } from '../../helpers/shop.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';

/** The renewal's database steps against PostgreSQL (the orchestration: test/workflows). */
let stack: TestStack;
let shop: TestShop;
const ref = {} as Record<'monthly' | 'yearly' | 'immediatePlan' | 'product' | 'premium' | 'addOn' | 'plain' | 'quick' | 'manual' | 'manualPlan' | 'manualNow' | 'manualNowPlan', number>;
const gatewayCalls: ChargeRequest[] = [];
let activities: ReturnType<typeof subscriberRenewalActivities>;

beforeAll(async () => {
  stack = await startTestApp('shop-subscriber-renewal-activities');
  shop = await createTestShop(stack.app, 'renew-act');
  ref.product = await insertProduct(stack.orm, shop.id, { name: 'Magazine', price: '30.00' });
  ref.premium = await insertProduct(stack.orm, shop.id, { name: 'Premium magazine', price: '50.00' });
  ref.addOn = await insertProduct(stack.orm, shop.id, { name: 'Add-on', price: '7.50' });
  ref.plain = await insertProduct(stack.orm, shop.id, { name: 'Book', price: '12.00' });
  ref.quick = await insertProduct(stack.orm, shop.id, { name: 'Daily news', price: '3.00' });
  const plan = async (body: object) => {
    const res = await stack.app.inject({ method: 'POST', url: '/api/v1/subscription_plans', headers: shop.headers(), payload: { subscription_plan: body } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.id as number;
  };
  ref.monthly = await plan({
    name: 'Monthly',
    automatic_renewal: true,
    extension_strategy: 'continuous',
    send_email_about_activation: true,
    send_email_about_renewal: false,
    products: [{ product_id: ref.product, interval: 30, renewals_limit: 0 }],
  });
  ref.yearly = await plan({ name: 'Premium', automatic_renewal: true, superseded_subscription_plan_id: ref.monthly, products: [{ product_id: ref.premium, interval: 365 }] });
  ref.immediatePlan = await plan({ name: 'Daily', automatic_renewal: true, extension_strategy: 'immediate', products: [{ product_id: ref.quick, interval: 1 }] });
  ref.manual = await insertProduct(stack.orm, shop.id, { name: 'Course pass', price: '90.00' });
  ref.manualNow = await insertProduct(stack.orm, shop.id, { name: 'Day pass', price: '9.00' });
  ref.manualPlan = await plan({ name: 'Pass', automatic_renewal: false, extension_strategy: 'continuous', superseded_subscription_plan_id: ref.immediatePlan, products: [{ product_id: ref.manual, interval: 10 }] });
  ref.manualNowPlan = await plan({ name: 'Day', automatic_renewal: false, extension_strategy: 'immediate', products: [{ product_id: ref.manualNow, interval: 10 }] });
  // The built-in test gateway, set to approve (a shop never set has none: the last describe), counted.
  await saveGatewaySettings(shopEm(stack.orm, shop.id), shop.id, { mode: 'approve', dunningDays: [1, 3, 5] });
  activities = subscriberRenewalActivities({ orm: stack.orm, platformUrlTemplate: '' }, async (em) => {
    const gateway = testGateway((await gatewaySettings(em)).mode as 'approve' | 'decline');
    return { charge: (request) => (gatewayCalls.push(request), gateway.charge(request)) } satisfies PaymentGateway;
  });
});
afterAll(() => stack.close());

const sql = <T>(query: string, params: unknown[] = []) => stack.orm.em.fork().getConnection().execute<T[]>(query, params);
/** Raw statements answer timestamps as strings. */
const ms = (value: Date | string) => new Date(value).getTime();
const input = (orderId: number) => ({ shopId: shop.id, orderId, source: 'clear' as const });

/** A placed and cleared order (clearing as PATCH .../clear writes it). */
async function paidOrder(items: object[], email = 'reader@example.com') {
  const order = await adminPost(stack.app, `/admin/v1/shops/${shop.id}/orders`, { email, items, placed_ip: '203.0.113.9' });
  await markOrderCleared(shopEm(stack.orm, shop.id), shop.id, order.id, new Date());
  return order.id as number;
}

async function activated(items: object[], email?: string) {
  const orderId = await paidOrder(items, email);
  const activation = await activities.activateSubscriptions(input(orderId));
  return { orderId, activation, subscriberId: activation.subscriberIds[0]! };
}

describe('activateSubscriptions', () => {
  it('creates the subscriber and its first period from the payment, once per order', async () => {
    const { orderId, activation, subscriberId } = await activated([{ product_id: ref.product, quantity: 2 }, { product_id: ref.plain }]);
    expect(activation).toMatchObject({ outcome: { status: 'done' }, subscriberIds: [expect.any(Number)], endedIds: [] });
    const [row] = await sql<{ service_ref: string; email: string; renewal_items: unknown; payment_reference: string; status: string }>(
      'select service_ref, email, renewal_items, payment_reference, status from shop_subscribers where id = ?',
      [subscriberId],
    );
    expect(row).toMatchObject({ email: 'reader@example.com', status: 'active', renewal_items: [{ product_id: ref.product, quantity: 2, price: null }] });
    expect(row!.service_ref).toMatch(/^sub_[0-9a-f]{32}$/);
    expect(row!.payment_reference).toBeTruthy();
    const [order] = await sql<{ paid_at: string }>('select paid_at from shop_orders where id = ?', [orderId]);
    const periods = await sql<{ kind: string; starts_at: string; ends_at: string; order_id: number }>('select kind, starts_at, ends_at, order_id from shop_subscriber_periods where subscriber_id = ?', [subscriberId]);
    expect(periods.map((p) => ({ ...p, starts_at: ms(p.starts_at), ends_at: ms(p.ends_at) }))).toEqual([
      { kind: 'initial', starts_at: ms(order!.paid_at), ends_at: ms(order!.paid_at) + 30 * DAY_MS, order_id: orderId },
    ]);

    const again = await activities.activateSubscriptions(input(orderId));
    expect(again.subscriberIds).toEqual([subscriberId]);
    expect(await sql('select id from shop_subscribers where order_id = ?', [orderId])).toHaveLength(1);
    expect(await sql('select id from shop_subscriber_periods where subscriber_id = ?', [subscriberId])).toHaveLength(1);
  });

  it('skips an order without an automatic plan product, and a renewal order', async () => {
    const plain = await paidOrder([{ product_id: ref.plain }]);
    expect((await activities.activateSubscriptions(input(plain))).outcome).toEqual({ status: 'skipped', detail: 'no product of a subscription plan' });
    const renewal = await paidOrder([{ product_id: ref.product }]);
    await sql('update shop_orders set subscriber_identifier = ? where id = ?', ['sub_x', renewal]);
    expect(await activities.activateSubscriptions(input(renewal))).toMatchObject({ outcome: { status: 'skipped' }, subscriberIds: [] });
  });

  it('ends the superseded plan\'s active subscription of the same customer', async () => {
    const email = 'upgrade@example.com';
    const monthly = await activated([{ product_id: ref.product }], email);
    const someoneElse = await activated([{ product_id: ref.product }], 'other@example.com');
    const premium = await activated([{ product_id: ref.premium }], email);
    expect(premium.activation.endedIds).toEqual([monthly.subscriberId]);
    const statuses = await sql<{ id: number; status: string }>('select id, status from shop_subscribers where id in (?, ?, ?) order by id', [monthly.subscriberId, someoneElse.subscriberId, premium.subscriberId]);
    expect(statuses.map((s) => s.status)).toEqual(['ended', 'active', 'active']);
  });
});

describe('activateSubscriptions of a manual plan (automatic_renewal false)', () => {
  const periodsOf = (subscriberId: number) => sql<{ kind: string; starts_at: string; ends_at: string; order_id: number }>('select kind, starts_at, ends_at, order_id from shop_subscriber_periods where subscriber_id = ? order by id', [subscriberId]);

  it('makes a subscriber with a period of the link\'s interval, never charged, and ends the superseded plan', async () => {
    const email = 'pass@example.com';
    const daily = await activated([{ product_id: ref.quick }], email);
    const { orderId, activation, subscriberId } = await activated([{ product_id: ref.manual }], email);
    expect(activation).toMatchObject({ outcome: { status: 'done' }, subscriberIds: [subscriberId], endedIds: [daily.subscriberId], extendedIds: [] });
    const [order] = await sql<{ paid_at: string }>('select paid_at from shop_orders where id = ?', [orderId]);
    expect((await periodsOf(subscriberId)).map((p) => [p.kind, ms(p.ends_at) - ms(p.starts_at), ms(p.starts_at)])).toEqual([['initial', 10 * DAY_MS, ms(order!.paid_at)]]);
    const schedule = await activities.loadRenewalSchedule({ shopId: shop.id, subscriberId });
    expect(schedule.automaticRenewal).toBe(false);
  });

  it('a second purchase extends the running period by extension_strategy (continuous: from its end), once per order', async () => {
    const email = 'again@example.com';
    const first = await activated([{ product_id: ref.manual }], email);
    const second = await activated([{ product_id: ref.manual }], email);
    expect(second.activation).toMatchObject({ subscriberIds: [first.subscriberId], extendedIds: [first.subscriberId] });
    const periods = await periodsOf(first.subscriberId);
    expect(periods.map((p) => [p.kind, p.order_id])).toEqual([['initial', first.orderId], ['renewal', second.orderId]]);
    expect(ms(periods[1]!.starts_at)).toBe(ms(periods[0]!.ends_at));
    expect(ms(periods[1]!.ends_at) - ms(periods[1]!.starts_at)).toBe(10 * DAY_MS);
    expect(await sql('select id from shop_subscribers where lower(email) = ? and plan_id = ?', [email, ref.manualPlan])).toHaveLength(1);
    // A retried activation finds its extension.
    const again = await activities.activateSubscriptions(input(second.orderId));
    expect(again.subscriberIds).toEqual([first.subscriberId]);
    expect(await periodsOf(first.subscriberId)).toHaveLength(2);
  });

  it('immediate: the extension starts at the new payment', async () => {
    const email = 'now@example.com';
    const first = await activated([{ product_id: ref.manualNow }], email);
    const second = await activated([{ product_id: ref.manualNow }], email);
    const [order] = await sql<{ paid_at: string }>('select paid_at from shop_orders where id = ?', [second.orderId]);
    const periods = await periodsOf(first.subscriberId);
    expect(periods).toHaveLength(2);
    expect(ms(periods[1]!.starts_at)).toBe(ms(order!.paid_at));
  });
});

describe('chargeRenewal and renewSubscriber', () => {
  it('charges the renewal items once per attempt and turns the charge into one paid renewal order and the next period (continuous)', async () => {
    const { subscriberId } = await activated([{ product_id: ref.product }], 'renew@example.com');
    await sql('update shop_subscribers set renewal_items = ?::jsonb where id = ?', [JSON.stringify([{ product_id: ref.product, quantity: 2, price: '20.00' }, { product_id: ref.addOn, quantity: 1, price: null }]), subscriberId]);
    const schedule = await activities.loadRenewalSchedule({ shopId: shop.id, subscriberId });
    expect(schedule).toMatchObject({ status: 'active', paused: false, failedAttempts: 0, renewalsDone: 0, reminders: [], dunningMs: [1, 3, 5].map((d) => d * DAY_MS) });

    const before = gatewayCalls.length;
    const attempt = { shopId: shop.id, subscriberId, periodId: schedule.periodId, periodEnd: schedule.period.end, attempt: 1 };
    const charged = await activities.chargeRenewal(attempt);
    expect(charged.status).toBe('approved');
    expect(await activities.chargeRenewal(attempt)).toEqual(charged);
    expect(gatewayCalls.length - before).toBe(1);
    expect(gatewayCalls.at(-1)).toMatchObject({ amount: '47.50', currency: 'PLN', idempotencyKey: `shop/${shop.id}/subscriber/${subscriberId}/period/${schedule.periodId}/end/${schedule.period.end}/attempt/1` });

    const chargeId = (charged as { chargeId: number }).chargeId;
    const renewed = await activities.renewSubscriber({ shopId: shop.id, subscriberId, chargeId });
    expect(await activities.renewSubscriber({ shopId: shop.id, subscriberId, chargeId })).toEqual(renewed);

    const [order] = await sql<{ paid: boolean; total: string; placed_ip: string | null; subscriber_identifier: string; email: string; status: string }>(
      `select o.paid, o.total, o.placed_ip, o.subscriber_identifier, o.email, s.kind as status from shop_orders o join shop_order_statuses s on s.id = o.order_status_id where o.id = ?`,
      [renewed.orderId],
    );
    const [subscriber] = await sql<{ service_ref: string; renewals_done: number }>('select service_ref, renewals_done from shop_subscribers where id = ?', [subscriberId]);
    expect(order).toEqual({ paid: true, total: '47.50', placed_ip: null, subscriber_identifier: subscriber!.service_ref, email: 'renew@example.com', status: 'PaidDefaultOrderStatus' });
    const items = await sql<{ product_id: number; quantity: number; unit_price: string }>('select product_id, quantity, unit_price from shop_order_items where order_id = ? order by id', [renewed.orderId]);
    expect(items).toEqual([
      { product_id: ref.product, quantity: 2, unit_price: '20.00' },
      { product_id: ref.addOn, quantity: 1, unit_price: '7.50' },
    ]);
    expect(subscriber!.renewals_done).toBe(1);
    const periods = await sql<{ id: number; kind: string; starts_at: string; ends_at: string }>('select id, kind, starts_at, ends_at from shop_subscriber_periods where subscriber_id = ? order by id', [subscriberId]);
    expect(periods).toHaveLength(2);
    expect(periods[1]).toMatchObject({ id: renewed.periodId, kind: 'renewal' });
    expect(ms(periods[1]!.starts_at)).toBe(ms(periods[0]!.ends_at));
    expect(ms(periods[1]!.ends_at)).toBe(ms(periods[0]!.ends_at) + 30 * DAY_MS);
    // The period is renewed: a late attempt on the old one charges nothing.
    expect(await activities.chargeRenewal({ ...attempt, attempt: 2 })).toMatchObject({ status: 'skipped' });
  });

  it('records the renewal order of an approved charge even when the product was switched off after the charge', async () => {
    const { subscriberId } = await activated([{ product_id: ref.quick }], 'switched-off@example.com');
    const schedule = await activities.loadRenewalSchedule({ shopId: shop.id, subscriberId });
    const charged = await activities.chargeRenewal({ shopId: shop.id, subscriberId, periodId: schedule.periodId, periodEnd: schedule.period.end, attempt: 1 });
    expect(charged.status).toBe('approved');
    await sql('update shop_products set active = false where id = ?', [ref.quick]);
    try {
      const renewed = await activities.renewSubscriber({ shopId: shop.id, subscriberId, chargeId: (charged as { chargeId: number }).chargeId });
      const [order] = await sql<{ paid: boolean }>('select paid from shop_orders where id = ?', [renewed.orderId]);
      expect(order).toEqual({ paid: true });
    } finally {
      await sql('update shop_products set active = true where id = ?', [ref.quick]);
    }
  });

  it('starts an immediate plan\'s next period at the payment, and a later interval from renewal_interval_days', async () => {
    const { subscriberId } = await activated([{ product_id: ref.quick }], 'daily@example.com');
    await sql('update shop_subscribers set renewal_interval_days = 7 where id = ?', [subscriberId]);
    const schedule = await activities.loadRenewalSchedule({ shopId: shop.id, subscriberId });
    const charged = await activities.chargeRenewal({ shopId: shop.id, subscriberId, periodId: schedule.periodId, periodEnd: schedule.period.end, attempt: 1 });
    const renewed = await activities.renewSubscriber({ shopId: shop.id, subscriberId, chargeId: (charged as { chargeId: number }).chargeId });
    const [charge] = await sql<{ at: string }>('select at from shop_subscriber_charges where subscriber_id = ?', [subscriberId]);
    const [period] = await sql<{ starts_at: string; ends_at: string }>('select starts_at, ends_at from shop_subscriber_periods where id = ?', [renewed.periodId]);
    expect([ms(period!.starts_at), ms(period!.ends_at)]).toEqual([ms(charge!.at), ms(charge!.at) + 7 * DAY_MS]);
  });

  it('records a declined attempt in the history and counts it for dunning; a paused subscriber is not charged', async () => {
    const { subscriberId } = await activated([{ product_id: ref.product }], 'declined@example.com');
    const { periodId, period } = await activities.loadRenewalSchedule({ shopId: shop.id, subscriberId });
    const periodEnd = period.end;
    await saveGatewaySettings(shopEm(stack.orm, shop.id), shop.id, { mode: 'decline', dunningDays: [2, 4] });
    try {
      expect(await activities.chargeRenewal({ shopId: shop.id, subscriberId, periodId, periodEnd, attempt: 1 })).toMatchObject({ status: 'declined', reason: 'declined by the test gateway' });
      expect(await activities.loadRenewalSchedule({ shopId: shop.id, subscriberId })).toMatchObject({ failedAttempts: 1, dunningMs: [2 * DAY_MS, 4 * DAY_MS] });
      await sql('update shop_subscribers set renewal_paused = true where id = ?', [subscriberId]);
      const calls = gatewayCalls.length;
      expect(await activities.chargeRenewal({ shopId: shop.id, subscriberId, periodId, periodEnd, attempt: 2 })).toEqual({ status: 'skipped', reason: 'renewal is paused' });
      expect(gatewayCalls.length).toBe(calls);
      const history = await sql<{ attempt: number; status: string; amount: string }>('select attempt, status, amount from shop_subscriber_charges where subscriber_id = ?', [subscriberId]);
      expect(history).toEqual([{ attempt: 1, status: 'declined', amount: '30.00' }]);

      // A moved end (PATCH .../period) starts a fresh dunning cycle; an attempt for the old end charges nothing.
      await sql('update shop_subscribers set renewal_paused = false where id = ?', [subscriberId]);
      await sql('update shop_subscriber_periods set ends_at = ? where id = ?', [new Date(periodEnd + DAY_MS), periodId]);
      expect(await activities.loadRenewalSchedule({ shopId: shop.id, subscriberId })).toMatchObject({ failedAttempts: 0, period: { end: periodEnd + DAY_MS } });
      expect(await activities.chargeRenewal({ shopId: shop.id, subscriberId, periodId, periodEnd, attempt: 2 })).toEqual({ status: 'skipped', reason: 'the period end moved' });
    } finally {
      await saveGatewaySettings(shopEm(stack.orm, shop.id), shop.id, { mode: 'approve', dunningDays: [1, 3, 5] });
    }
  });

  it('declines without a gateway call when a renewal item is no longer sold', async () => {
    const gone = await insertProduct(stack.orm, shop.id, { name: 'Withdrawn', price: '9.00' });
    const { subscriberId } = await activated([{ product_id: ref.product }], 'gone@example.com');
    await sql('update shop_subscribers set renewal_items = ?::jsonb where id = ?', [JSON.stringify([{ product_id: gone, quantity: 1, price: null }]), subscriberId]);
    await sql('update shop_products set active = false where id = ?', [gone]);
    const { periodId, period } = await activities.loadRenewalSchedule({ shopId: shop.id, subscriberId });
    const periodEnd = period.end;
    const calls = gatewayCalls.length;
    expect(await activities.chargeRenewal({ shopId: shop.id, subscriberId, periodId, periodEnd, attempt: 1 })).toMatchObject({ status: 'declined', reason: `products ${gone} are no longer sold` });
    expect(gatewayCalls.length).toBe(calls);
  });
});

describe('a shop without a payment gateway (DESIGN.md section 10)', () => {
  it('charges nothing: the first attempt places the renewal order unpaid at New with the first order\'s addresses and types (delivery at its current price); clearing it starts the next period once', async () => {
    const courier = await createDeliveryType(stack.app, shop.id, { name: 'Courier', default_price: '12.00', vat_rate: 23 });
    const transfer = await createPaymentType(stack.app, shop.id, { name: 'Bank transfer', default_price: '0.00' });
    const address = { first_name: 'Zofia', last_name: 'Żak', address: 'ul. Żurawia 3', postcode: '00-515', city: 'Warszawa', country: 'Polska' };
    const first = await adminPost(stack.app, `/admin/v1/shops/${shop.id}/orders`, {
      email: 'no-gateway@example.com',
      items: [{ product_id: ref.product }],
      delivery_type_id: courier,
      payment_type_id: transfer,
      delivery_address: address,
      invoice_address: { ...address, company: 'Żak sp. z o.o.', nip: '1234563218' },
    });
    await markOrderCleared(shopEm(stack.orm, shop.id), shop.id, first.id, new Date());
    const subscriberId = (await activities.activateSubscriptions(input(first.id))).subscriberIds[0]!;
    await saveGatewaySettings(shopEm(stack.orm, shop.id), shop.id, { mode: 'none', dunningDays: [1, 3] });
    try {
      // The courier costs more now: the renewal pays today's price.
      expect((await stack.app.inject({ method: 'PATCH', url: `/admin/v1/shops/${shop.id}/delivery_types/${courier}`, headers: operator, payload: { default_price: '15.00' } })).statusCode).toBe(200);
      const { periodId, period } = await activities.loadRenewalSchedule({ shopId: shop.id, subscriberId });
      const calls = gatewayCalls.length;
      const attempt = { shopId: shop.id, subscriberId, periodId, periodEnd: period.end };
      const unpaid = await activities.chargeRenewal({ ...attempt, attempt: 1 });
      expect(unpaid).toMatchObject({ status: 'unpaid', orderId: expect.any(Number) });
      expect(await activities.chargeRenewal({ ...attempt, attempt: 1 })).toEqual(unpaid);
      expect(gatewayCalls.length).toBe(calls);
      const orderId = (unpaid as { orderId: number }).orderId;
      const [order] = await sql<Record<string, unknown>>(
        'select o.paid, o.invoice_number, o.total, o.delivery_type_id, o.delivery_method, o.payment_type_id, o.delivery_address, o.invoice_address, o.subscriber_identifier, s.kind from shop_orders o join shop_order_statuses s on s.id = o.order_status_id where o.id = ?',
        [orderId],
      );
      expect(order).toMatchObject({ paid: false, invoice_number: null, total: '45.00', delivery_type_id: courier, delivery_method: 'Courier', payment_type_id: transfer, kind: 'NewDefaultOrderStatus' });
      expect(order!.delivery_address).toMatchObject(address);
      expect(order!.invoice_address).toMatchObject({ nip: '1234563218' });
      expect(order!.subscriber_identifier).toEqual(expect.stringMatching(/^sub_/));

      // Still unpaid at the next attempt: the same order, the attempt counted for dunning.
      expect(await activities.chargeRenewal({ ...attempt, attempt: 2 })).toMatchObject({ status: 'unpaid', orderId });
      expect(await activities.loadRenewalSchedule({ shopId: shop.id, subscriberId })).toMatchObject({ periodId, failedAttempts: 2 });
      expect(await sql('select id from shop_orders where subscriber_identifier = ?', [order!.subscriber_identifier])).toHaveLength(1);

      // The owner clears it: the next period starts (continuous: at the old end), once.
      await markOrderCleared(shopEm(stack.orm, shop.id), shop.id, orderId, new Date());
      const paid = await activities.activateSubscriptions(input(orderId));
      expect(paid).toMatchObject({ outcome: { status: 'done' }, subscriberIds: [], extendedIds: [subscriberId] });
      expect((await activities.activateSubscriptions(input(orderId))).extendedIds).toEqual([subscriberId]);
      const renewed = await activities.loadRenewalSchedule({ shopId: shop.id, subscriberId });
      expect(renewed).toMatchObject({ failedAttempts: 0, renewalsDone: 1, period: { start: period.end, end: period.end + 30 * DAY_MS } });
      expect(await sql('select count(*)::int as n from shop_subscriber_periods where subscriber_id = ?', [subscriberId])).toEqual([{ n: 2 }]);
    } finally {
      await saveGatewaySettings(shopEm(stack.orm, shop.id), shop.id, { mode: 'approve', dunningDays: [1, 3, 5] });
    }
  });
});

describe('endSubscriber and sendSubscriberMail', () => {
  it('sends the plan\'s mails once per period into the shop\'s mail log, and always the expiry', async () => {
    const { subscriberId } = await activated([{ product_id: ref.product }], 'mails@example.com');
    const { periodId } = await activities.loadRenewalSchedule({ shopId: shop.id, subscriberId });
    const mail = (kind: Parameters<typeof activities.sendSubscriberMail>[0]['kind']) => activities.sendSubscriberMail({ shopId: shop.id, subscriberId, periodId, kind });
    expect(await mail('activation')).toMatch(/^activation mail to mails@example.com (sent|recorded)$/);
    await mail('activation');
    expect(await mail('renewal')).toBe('the plan does not send renewal mails');
    const ended = await activities.endSubscriber({ shopId: shop.id, subscriberId, status: 'expired' });
    expect(ended.status).toBe('expired');
    await mail('expired');
    const log = await sql<{ kind: string; subject: string }>(`select kind, subject from shop_mails where shop_id = ? and "to" = ? order by sent_at`, [shop.id, 'mails@example.com']);
    expect(log).toEqual([
      { kind: 'subscription', subject: 'Twoja subskrypcja Monthly jest aktywna' },
      { kind: 'subscription', subject: 'Twoja subskrypcja Monthly wygasła' },
    ]);
    // An ended subscription stays ended.
    expect((await activities.endSubscriber({ shopId: shop.id, subscriberId, status: 'ended' })).status).toBe('expired');
  });
});

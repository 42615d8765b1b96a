import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestShop, operator, type TestShop } from '../../../helpers/shop.ts';
import { insertSubscriber } from '../../../helpers/shop-subscribers.ts';
import { startTestApp, type TestStack } from '../../../helpers/stack.ts';

/** The test payment gateway's settings and a subscriber's billing through the operator API (DESIGN.md section 8). */
let stack: TestStack;
let shop: TestShop;
let other: TestShop;

beforeAll(async () => {
  stack = await startTestApp('shop-payment-gateway');
  [shop, other] = await Promise.all([createTestShop(stack.app, 'gw-one'), createTestShop(stack.app, 'gw-two')]);
});
afterAll(() => stack.close());

const put = (payload: unknown, shopId = shop.id, headers: Record<string, string> = operator) =>
  stack.app.inject({ method: 'PUT', url: `/admin/v1/shops/${shopId}/payment_gateway`, headers: { ...headers, 'content-type': 'application/json' }, payload: payload as object });
const get = (shopId = shop.id) => stack.app.inject({ method: 'GET', url: `/admin/v1/shops/${shopId}/payment_gateway`, headers: operator });

describe('PUT /admin/v1/shops/:shop_id/payment_gateway', () => {
  it('starts without a gateway (nothing is charged), with retries after 1, 3 and 5 days', async () => {
    expect((await get(other.id)).json()).toEqual({ data: { mode: 'none', dunning_days: [1, 3, 5] } });
  });

  it('sets the mode (200), keeps the dunning schedule when not sent, and only for this shop', async () => {
    const declined = await put({ mode: 'decline' });
    expect(declined.statusCode).toBe(200);
    expect(declined.json()).toEqual({ data: { mode: 'decline', dunning_days: [1, 3, 5] } });
    expect((await put({ mode: 'approve', dunning_days: [2, 7] })).json().data).toEqual({ mode: 'approve', dunning_days: [2, 7] });
    expect((await put({ mode: 'decline' })).json().data).toEqual({ mode: 'decline', dunning_days: [2, 7] });
    expect((await get()).json().data).toEqual({ mode: 'decline', dunning_days: [2, 7] });
    expect((await get(other.id)).json().data.mode).toBe('none');
    // Back to no gateway, keeping the schedule.
    expect((await put({ mode: 'none' })).json().data).toEqual({ mode: 'none', dunning_days: [2, 7] });
  });

  it('keeps one row per shop under concurrent writes', async () => {
    const replies = await Promise.all(['approve', 'decline', 'approve', 'decline'].map((mode) => put({ mode }, other.id)));
    expect(replies.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    const rows = await stack.orm.em.fork().getConnection().execute('select id from shop_payment_gateways where shop_id = ?', [other.id]);
    expect(rows).toHaveLength(1);
  });

  it.each([
    ['an unknown mode', { mode: 'maybe' }, 'mode'],
    ['no mode', {}, 'mode'],
    ['an unknown field', { mode: 'approve', card: '4242' }, ''],
    ['an empty schedule', { mode: 'approve', dunning_days: [] }, 'dunning_days'],
    ['a schedule out of order', { mode: 'approve', dunning_days: [3, 1] }, 'dunning_days'],
    ['a day out of range', { mode: 'approve', dunning_days: [0] }, 'dunning_days'],
  ])('answers 422 for %s', async (_label, body, field) => {
    const res = await put(body);
    expect(res.statusCode, res.body).toBe(422);
    expect(Object.keys(res.json().errors).join(' ')).toContain(field);
  });

  it('answers 404 for an unknown shop and 401 without the operator token', async () => {
    expect((await put({ mode: 'approve' }, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await put({ mode: 'approve' }, shop.id, {})).statusCode).toBe(401);
  });
});

describe('GET /admin/v1/shops/:shop_id/subscribers/:subscriber_id/billing', () => {
  it('answers the charge history (empty before the first renewal) and 404 for another shop\'s subscriber', async () => {
    const plan = await stack.app.inject({ method: 'POST', url: '/api/v1/subscription_plans', headers: shop.headers(), payload: { subscription_plan: { name: 'Plan' } } });
    const now = Date.now();
    const id = await insertSubscriber(stack.orm, shop.id, { planId: plan.json().data.id, periods: [{ startsAt: new Date(now), endsAt: new Date(now + 86_400_000) }] });
    const billing = (shopId: string) => stack.app.inject({ method: 'GET', url: `/admin/v1/shops/${shopId}/subscribers/${id}/billing`, headers: operator });
    const res = await billing(shop.id);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ workflow_id: `shop/${shop.id}/subscriber/${id}`, state: null, charges: [] });
    expect((await billing(other.id)).statusCode).toBe(404);
  });
});

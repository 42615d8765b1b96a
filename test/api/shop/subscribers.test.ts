import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShopScope } from '../../../domain/shop/scopes.ts';
import { subscriberWorkflowId } from '../../../domain/shop/workflow-ids.ts';
import { insertProduct } from '../../helpers/shop-catalogue.ts';
import { insertSubscriber, type SubscriberRow } from '../../helpers/shop-subscribers.ts';
import { createTestShop, type TestShop } from '../../helpers/shop.ts';
import { startTestApp, uniqueTaskQueue, type TestStack } from '../../helpers/stack.ts';

const DAY = 86_400_000;
let stack: TestStack;
let shop: TestShop;
let other: TestShop;
const ref = {} as Record<'plan' | 'otherPlan' | 'product' | 'cheap' | 'hidden' | 'foreignProduct', number>;

beforeAll(async () => {
  stack = await startTestApp('shop-subscribers');
  [shop, other] = await Promise.all([createTestShop(stack.app, 'subs-one'), createTestShop(stack.app, 'subs-two')]);
  const plan = (on: TestShop) => stack.app.inject({ method: 'POST', url: '/api/v1/subscription_plans', headers: on.headers(), payload: { subscription_plan: { name: 'Monthly' } } });
  ref.plan = (await plan(shop)).json().data.id;
  ref.otherPlan = (await plan(other)).json().data.id;
  ref.product = await insertProduct(stack.orm, shop.id, { price: '49.90' });
  ref.cheap = await insertProduct(stack.orm, shop.id, { price: '5.00' });
  ref.hidden = await insertProduct(stack.orm, shop.id, { hidden: true });
  ref.foreignProduct = await insertProduct(stack.orm, other.id);
});
afterAll(() => stack.close());

const call = (method: 'GET' | 'PATCH', url: string, payload?: unknown, scope: ShopScope = 'write_subscriptions', on = shop) =>
  stack.app.inject({ method, url: `/api/v1${url}`, headers: on.headers(scope), ...(payload === undefined ? {} : { payload: payload as object }) });

const days = (n: number) => new Date(Date.now() + n * DAY);
/** A subscriber of `shop` (plan `ref.plan`) whose running period began 10 days ago and ends in 20 days. */
const subscriber = (row: Partial<SubscriberRow> = {}, on = shop) =>
  insertSubscriber(stack.orm, on.id, { planId: on === shop ? ref.plan : ref.otherPlan, periods: [{ startsAt: days(-10), endsAt: days(20) }], ...row });

describe('GET /api/v1/subscribers', () => {
  it('answers 400 without email, subscription_plan_id or custom_identifier', async () => {
    for (const query of ['', '?active=true', '?expires_before=2030-01-01', '?email=', '?custom_identifier=%20', '?subscription_plan_id=', '?subscription_plan_id=&email=']) {
      const res = await call('GET', `/subscribers${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error).toMatch(/email, subscription_plan_id or custom_identifier/);
    }
  });

  it('narrows by email (ignoring case), custom_identifier and plan, within the shop', async () => {
    const email = `Reader-${randomUUID().slice(0, 6)}@Example.com`;
    const label = `crm-${randomUUID()}`;
    const id = await subscriber({ email, customIdentifier: label });
    await subscriber({ email }, other);
    const byEmail = (await call('GET', `/subscribers?email=${encodeURIComponent(email.toLowerCase())}`)).json();
    expect(byEmail.data.map((s: { id: number }) => s.id)).toEqual([id]);
    expect(byEmail.meta).toEqual({ page: 1, per_page: 25, total: 1, total_pages: 1 });
    expect((await call('GET', `/subscribers?custom_identifier=${label}`)).json().data.map((s: { id: number }) => s.id)).toEqual([id]);
    const byPlan = (await call('GET', `/subscribers?subscription_plan_id=${ref.plan}&per_page=100`)).json();
    expect(byPlan.data.map((s: { id: number }) => s.id)).toContain(id);
    expect((await call('GET', `/subscribers?subscription_plan_id=${ref.otherPlan}`)).json().meta.total).toBe(0);
  });

  it('filters active and the latest period end (expires_before, expires_after)', async () => {
    const email = `filters-${randomUUID().slice(0, 6)}@example.com`;
    const running = await subscriber({ email });
    // An old period that ended long ago must not count: the latest end is in 40 days.
    const renewed = await subscriber({ email, periods: [{ startsAt: days(-60), endsAt: days(-30) }, { startsAt: days(-30), endsAt: days(40) }] });
    const lapsed = await subscriber({ email, periods: [{ startsAt: days(-60), endsAt: days(-2) }] });
    const ended = await subscriber({ email, status: 'ended' });
    const ids = async (query: string) => (await call('GET', `/subscribers?email=${email}${query}`)).json().data.map((s: { id: number }) => s.id);
    expect(await ids('&active=true')).toEqual([running, renewed]);
    // The list answers each one's latest end (the same as the detail), not an older period's.
    const listed = (await call('GET', `/subscribers?email=${email}`)).json().data as { id: number; active: boolean; active_until: string }[];
    for (const row of listed) expect(row.active_until).toBe((await call('GET', `/subscribers/${row.id}`)).json().data.active_until);
    expect(Date.parse(listed.find((row) => row.id === renewed)!.active_until)).toBeGreaterThan(days(39).getTime());
    expect(await ids('&active=false')).toEqual([lapsed, ended]);
    expect(await ids(`&expires_before=${encodeURIComponent(days(30).toISOString())}`)).toEqual([running, lapsed, ended]);
    expect(await ids(`&expires_after=${encodeURIComponent(days(30).toISOString())}`)).toEqual([renewed]);
    expect(await ids(`&expires_after=${days(0).toISOString().slice(0, 10)}&expires_before=${days(35).toISOString().slice(0, 10)}`)).toEqual([running, ended]);
    expect((await call('GET', `/subscribers?email=${email}&expires_before=soon`)).statusCode).toBe(422);
  });
});

describe('GET /api/v1/subscribers/:id', () => {
  it('answers the subscriber with its full period history, oldest first', async () => {
    const periods = [{ startsAt: days(-60), endsAt: days(-30) }, { startsAt: days(-30), endsAt: days(0.5) }];
    const id = await subscriber({ customIdentifier: 'detail', renewalItems: [{ product_id: ref.product, quantity: 2, price: null }], periods });
    const res = await call('GET', `/subscribers/${id}`);
    expect(res.statusCode).toBe(200);
    const body = res.json().data;
    expect(body).toMatchObject({
      id, custom_identifier: 'detail', subscription_plan_id: ref.plan, status: 'active', active: true, active_until: periods[1]!.endsAt.toISOString(), renewal_paused: false,
      renewal_interval_days: null, renewals_done: 0, renewal_items: [{ product_id: ref.product, quantity: 2, price: '49.90', price_source: 'catalogue' }],
    });
    expect(body.service_ref).toMatch(/^sub_/);
    expect(body).not.toHaveProperty('payment_reference');
    expect(body.periods.map((p: { kind: string; starts_at: string; ends_at: string }) => [p.kind, p.starts_at, p.ends_at])).toEqual([
      ['initial', periods[0]!.startsAt.toISOString(), periods[0]!.endsAt.toISOString()],
      ['renewal', periods[1]!.startsAt.toISOString(), periods[1]!.endsAt.toISOString()],
    ]);
  });

  it('answers 404 for another shop\'s subscriber and for a malformed id', async () => {
    const theirs = await subscriber({}, other);
    expect((await call('GET', `/subscribers/${theirs}`)).statusCode).toBe(404);
    expect((await call('PATCH', `/subscribers/${theirs}`, { renewal_paused: true })).statusCode).toBe(404);
    expect((await call('PATCH', `/subscribers/${theirs}/period`, { active_until: days(30).toISOString() })).statusCode).toBe(404);
    expect((await call('GET', '/subscribers/1e3')).statusCode).toBe(404);
    // An over-long id is no id of the shop either (404, not a 422 on its length).
    expect((await call('GET', `/subscribers/${'9'.repeat(30)}`)).statusCode).toBe(404);
    expect((await call('PATCH', `/subscribers/${'9'.repeat(30)}/period`, { active_until: days(30).toISOString() })).statusCode).toBe(404);
    expect((await call('GET', `/subscribers/${theirs}`, undefined, 'write_subscriptions', other)).json().data.renewal_paused).toBe(false);
  });
});

describe('PATCH /api/v1/subscribers/:id', () => {
  it('replaces renewal_items; an omitted price follows the catalogue, a given one overrides', async () => {
    const id = await subscriber({ renewalItems: [{ product_id: ref.cheap, quantity: 1, price: null }] });
    const res = await call('PATCH', `/subscribers/${id}`, { renewal_items: [{ product_id: ref.product, quantity: 3 }, { product_id: ref.cheap, price: '1.5' }] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.renewal_items).toEqual([
      { product_id: ref.product, quantity: 3, price: '49.90', price_source: 'catalogue' },
      { product_id: ref.cheap, quantity: 1, price: '1.50', price_source: 'override' },
    ]);
    expect((await call('GET', `/subscribers/${id}`)).json().data.renewal_items).toEqual(res.json().data.renewal_items);
  });

  it('writes renewal_interval_days, renewal_paused and custom_identifier, and only what is sent', async () => {
    const id = await subscriber({ customIdentifier: 'before', renewalItems: [{ product_id: ref.product, quantity: 1, price: null }] });
    const before = (await call('GET', `/subscribers/${id}`)).json().data;
    const res = await call('PATCH', `/subscribers/${id}`, { renewal_interval_days: 90, renewal_paused: true });
    expect(res.json().data).toMatchObject({ renewal_interval_days: 90, renewal_paused: true, custom_identifier: 'before', renewal_items: [expect.objectContaining({ product_id: ref.product })] });
    const again = await call('PATCH', `/subscribers/${id}`, { renewal_interval_days: null, renewal_paused: false, custom_identifier: 'after' });
    expect(again.json().data).toMatchObject({ renewal_interval_days: null, renewal_paused: false, custom_identifier: 'after' });
    // The running period is not touched by a new interval (it is for later periods).
    const after = (await call('GET', `/subscribers/${id}`)).json().data;
    expect(after.periods).toHaveLength(1);
    expect(after.periods[0]).toEqual(before.periods[0]);
    expect(after.active_until).toBe(before.active_until);
  });

  it('stores a blank custom_identifier as none (null), so it never matches a search', async () => {
    const id = await subscriber({ customIdentifier: 'blanked' });
    const res = await call('PATCH', `/subscribers/${id}`, { custom_identifier: '   ' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.custom_identifier).toBeNull();
    expect((await call('GET', `/subscribers/${id}`)).json().data.custom_identifier).toBeNull();
  });

  it('two PATCHes at once: each answers what it wrote, and the row is the one committed last', async () => {
    for (let round = 0; round < 5; round++) {
      const id = await subscriber({ customIdentifier: 'start' });
      // Each sends a value equal to the row's before: a stale copy would not write it.
      const replies = await Promise.all([
        call('PATCH', `/subscribers/${id}`, { renewal_paused: true, custom_identifier: `a-${round}` }),
        call('PATCH', `/subscribers/${id}`, { renewal_paused: false, custom_identifier: `b-${round}` }),
      ]);
      const [a, b] = replies.map((res) => {
        expect(res.statusCode, res.body).toBe(200);
        return res.json().data;
      });
      expect([a.renewal_paused, a.custom_identifier]).toEqual([true, `a-${round}`]);
      expect([b.renewal_paused, b.custom_identifier]).toEqual([false, `b-${round}`]);
      const stored = (await call('GET', `/subscribers/${id}`)).json().data;
      const last = Date.parse(a.updated_at) > Date.parse(b.updated_at) ? a : b;
      expect([stored.renewal_paused, stored.custom_identifier], `round ${round}`).toEqual([last.renewal_paused, last.custom_identifier]);
    }
  });

  it.each([
    ['an empty renewal_items', () => ({ renewal_items: [] }), 'renewal_items'],
    ['a product of another shop', () => ({ renewal_items: [{ product_id: ref.foreignProduct }] }), 'renewal_items.0.product_id'],
    ['quantity 0', () => ({ renewal_items: [{ product_id: ref.product, quantity: 0 }] }), 'renewal_items.0.quantity'],
    ['a negative price', () => ({ renewal_items: [{ product_id: ref.product, price: '-1.00' }] }), 'renewal_items.0.price'],
    ['service_ref', () => ({ service_ref: 'mine' }), 'service_ref'],
    ['renewal_interval_days 0', () => ({ renewal_interval_days: 0 }), 'renewal_interval_days'],
    ['renewal_interval_days 36501', () => ({ renewal_interval_days: 36_501 }), 'renewal_interval_days'],
    ['renewal_paused as text', () => ({ renewal_paused: 'yes' }), 'renewal_paused'],
  ])('refuses %s with 422 naming the field, changing nothing', async (_label, body, field) => {
    const items = [{ product_id: ref.product, quantity: 1, price: null }];
    const id = await subscriber({ renewalItems: items });
    const res = await call('PATCH', `/subscribers/${id}`, body());
    expect(res.statusCode, res.body).toBe(422);
    expect(Object.keys(res.json().errors)).toContain(field);
    const after = (await call('GET', `/subscribers/${id}`)).json().data;
    expect(after.renewal_items).toEqual([{ ...items[0], price: '49.90', price_source: 'catalogue' }]);
    expect(after.renewal_interval_days).toBeNull();
  });

  it('refuses a hidden product and a product listed twice', async () => {
    const id = await subscriber();
    const hidden = await call('PATCH', `/subscribers/${id}`, { renewal_items: [{ product_id: ref.hidden }] });
    expect(hidden.json().errors).toHaveProperty(['renewal_items.0.product_id']);
    const twice = await call('PATCH', `/subscribers/${id}`, { renewal_items: [{ product_id: ref.product }, { product_id: ref.product }] });
    expect(twice.json().errors).toHaveProperty(['renewal_items.1.product_id']);
  });
});

describe('PATCH /api/v1/subscribers/:id/period', () => {
  it('moves the end of the latest period and answers the period', async () => {
    const id = await subscriber({ periods: [{ startsAt: days(-40), endsAt: days(-10) }, { startsAt: days(-10), endsAt: days(20) }] });
    const before = (await call('GET', `/subscribers/${id}`)).json().data;
    const target = days(3);
    const res = await call('PATCH', `/subscribers/${id}/period`, { active_until: target.toISOString() });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ id: before.periods[1].id, kind: 'renewal', ends_at: target.toISOString(), moved_from: before.periods[1].ends_at });
    const after = (await call('GET', `/subscribers/${id}`)).json().data;
    expect(after.active_until).toBe(target.toISOString());
    expect(after.periods[0]).toEqual(before.periods[0]);
    // The same request again keeps the end the period had before the move.
    const repeated = await call('PATCH', `/subscribers/${id}/period`, { active_until: target.toISOString() });
    expect(repeated.json().data).toEqual(res.json().data);
  });

  it('takes the bounds themselves: the period start and 36500 days from now', async () => {
    const id = await subscriber();
    const start = (await call('GET', `/subscribers/${id}`)).json().data.periods[0].starts_at;
    expect((await call('PATCH', `/subscribers/${id}/period`, { active_until: start })).statusCode).toBe(200);
    expect((await call('PATCH', `/subscribers/${id}/period`, { active_until: days(36_499.99).toISOString() })).statusCode).toBe(200);
  });

  it.each([
    ['before the running period start', () => days(-11).toISOString()],
    ['beyond 36500 days from now', () => days(36_500.01).toISOString()],
    ['not a date', () => 'next week'],
    ['without an offset', () => '2030-01-01T00:00:00'],
  ])('refuses a date %s with 422 naming active_until', async (_label, until) => {
    const id = await subscriber();
    const res = await call('PATCH', `/subscribers/${id}/period`, { active_until: until() });
    expect(res.statusCode, res.body).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['active_until']);
    expect((await call('GET', `/subscribers/${id}`)).json().data.periods[0].moved_at).toBeNull();
  });

  it('refuses a subscriber without a period', async () => {
    const id = await subscriber({ periods: [] });
    const res = await call('PATCH', `/subscribers/${id}/period`, { active_until: days(5).toISOString() });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toHaveProperty('active_until');
  });
});

describe('PATCH /api/v1/subscribers/:id/period of a subscription that is over (any status)', () => {
  const workflowOf = (id: number) => stack.temporal.workflow.getHandle(subscriberWorkflowId({ shopId: shop.id, subscriberId: id }));

  it.each(['expired', 'ended'] as const)('moves the end of an %s one into the future: active again, its renewal workflow started with its id', async (status) => {
    const id = await subscriber({ status, periods: [{ startsAt: days(-40), endsAt: days(-10) }] });
    const until = days(15).toISOString();
    const res = await call('PATCH', `/subscribers/${id}/period`, { active_until: until });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.ends_at).toBe(until);
    try {
      expect((await call('GET', `/subscribers/${id}`)).json().data).toMatchObject({ status: 'active', active: true, active_until: until });
      const run = await workflowOf(id).describe();
      expect([run.type, run.status.name, run.taskQueue]).toEqual(['subscriberRenewal', 'RUNNING', stack.taskQueue]);
      // Moved again while it runs: a signal, not a second run.
      expect((await call('PATCH', `/subscribers/${id}/period`, { active_until: days(16).toISOString() })).statusCode).toBe(200);
      expect((await workflowOf(id).describe()).runId).toBe(run.runId);
    } finally {
      await workflowOf(id).terminate('test over').catch(() => undefined);
    }
  });

  it('moves the end of an expired one within the past: still expired, nothing started', async () => {
    const id = await subscriber({ status: 'expired', periods: [{ startsAt: days(-40), endsAt: days(-10) }] });
    const until = days(-5).toISOString();
    expect((await call('PATCH', `/subscribers/${id}/period`, { active_until: until })).statusCode).toBe(200);
    expect((await call('GET', `/subscribers/${id}`)).json().data).toMatchObject({ status: 'expired', active: false, active_until: until });
    await expect(workflowOf(id).describe()).rejects.toThrow();
  });

});

describe('signals to the renewal workflow', () => {
  /** A workflow execution with the subscriber's id and no worker: signals land in its history. */
  async function listeningWorkflow(subscriberId: number) {
    const workflowId = subscriberWorkflowId({ shopId: shop.id, subscriberId });
    const handle = await stack.temporal.workflow.start('subscriberRenewalListener', { taskQueue: uniqueTaskQueue('subscriber-signals'), workflowId, args: [] });
    return {
      async signals() {
        const history = await handle.fetchHistory();
        return (history.events ?? [])
          .filter((event) => event.workflowExecutionSignaledEventAttributes)
          .map((event) => {
            const attrs = event.workflowExecutionSignaledEventAttributes!;
            const payload = attrs.input?.payloads?.[0]?.data;
            return [attrs.signalName, payload ? JSON.parse(Buffer.from(payload).toString()) : null];
          });
      },
      stop: () => handle.terminate('test over'),
    };
  }

  it('sends paused, resumed, items changed and period moved after the write', async () => {
    const id = await subscriber();
    const workflow = await listeningWorkflow(id);
    try {
      expect((await call('PATCH', `/subscribers/${id}`, { renewal_paused: true })).statusCode).toBe(200);
      expect((await call('PATCH', `/subscribers/${id}`, { renewal_paused: false, renewal_items: [{ product_id: ref.product }] })).statusCode).toBe(200);
      expect((await call('PATCH', `/subscribers/${id}`, { renewal_interval_days: 14 })).statusCode).toBe(200);
      expect((await call('PATCH', `/subscribers/${id}`, { custom_identifier: 'no signal' })).statusCode).toBe(200);
      const until = days(2).toISOString();
      expect((await call('PATCH', `/subscribers/${id}/period`, { active_until: until })).statusCode).toBe(200);
      // A refused write signals nothing.
      expect((await call('PATCH', `/subscribers/${id}`, { renewal_items: [] })).statusCode).toBe(422);
      expect(await workflow.signals()).toEqual([
        ['subscriberPaused', null],
        ['subscriberResumed', null],
        ['subscriberItemsChanged', null],
        ['subscriberItemsChanged', null],
        ['subscriberPeriodMoved', { activeUntil: until }],
      ]);
    } finally {
      await workflow.stop();
    }
  });

  it('does not fail the request when the subscriber has no running workflow', async () => {
    const id = await subscriber();
    expect((await call('PATCH', `/subscribers/${id}`, { renewal_paused: true, renewal_items: [{ product_id: ref.product }] })).statusCode).toBe(200);
    expect((await call('PATCH', `/subscribers/${id}/period`, { active_until: days(1).toISOString() })).statusCode).toBe(200);
    expect((await call('GET', `/subscribers/${id}`)).json().data.renewal_paused).toBe(true);
  });

});

describe('scopes (Authentication item 5, both ways)', () => {
  it('opens subscribers to write_subscriptions only', async () => {
    const id = await subscriber();
    const routes = [
      ['GET', `/subscribers?subscription_plan_id=${ref.plan}`],
      ['GET', `/subscribers/${id}`],
      ['PATCH', `/subscribers/${id}`, { renewal_paused: true }],
      ['PATCH', `/subscribers/${id}/period`, { active_until: days(5).toISOString() }],
    ] as const;
    for (const scope of ['read', 'write_data', 'write_config', 'write_storefront'] as const) {
      for (const [method, url, payload] of routes) expect((await call(method, url, payload, scope)).statusCode, `${scope} ${method} ${url}`).toBe(403);
    }
    expect((await call('GET', `/subscribers/${id}`)).json().data.renewal_paused).toBe(false);
  });

  it('gives a write_subscriptions key no products, orders, plans or configuration', async () => {
    const headers = shop.headers('write_subscriptions');
    for (const [method, url, payload] of [
      ['GET', '/api/v1/products'],
      ['POST', '/api/v1/products', { name: 'X', price: '1.00' }],
      ['GET', `/api/v1/products/${ref.product}`],
      ['GET', '/api/v1/orders'],
      ['GET', '/api/v1/discount_codes'],
      ['GET', '/api/v1/subscription_plans'],
      ['PATCH', `/api/v1/subscription_plans/${ref.plan}`, { subscription_plan: { name: 'Y' } }],
    ] as const) {
      const res = await stack.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
  });
});

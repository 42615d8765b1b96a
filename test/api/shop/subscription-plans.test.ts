import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShopScope } from '../../../domain/shop/scopes.ts';
import { insertProduct } from '../../helpers/shop-catalogue.ts';
import { insertSubscriber } from '../../helpers/shop-subscribers.ts';
import { createTestShop, type TestShop } from '../../helpers/shop.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';

let stack: TestStack;
let shop: TestShop;
let other: TestShop;

beforeAll(async () => {
  stack = await startTestApp('shop-subscription-plans');
  [shop, other] = await Promise.all([createTestShop(stack.app, 'plans-one'), createTestShop(stack.app, 'plans-two')]);
});
afterAll(() => stack.close());

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, scope?: ShopScope, on = shop) =>
  stack.app.inject({ method, url: `/api/v1${url}`, headers: on.headers(scope), ...(payload === undefined ? {} : { payload: payload as object }) });

async function create(fields: Record<string, unknown>, on = shop) {
  const res = await call('POST', '/subscription_plans', { subscription_plan: fields }, undefined, on);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
}

const product = (fields: Parameters<typeof insertProduct>[2] = {}, on = shop) => insertProduct(stack.orm, on.id, fields);
const link = (productId: number, interval = 30, renewalsLimit = 0) => ({ product_id: productId, interval, renewals_limit: renewalsLimit });

describe('POST /api/v1/subscription_plans', () => {
  it('creates a plan with the defaults and answers its links with product names', async () => {
    const p = await product({ name: 'Monthly box' });
    const plan = await create({ name: 'Box', products: [{ product_id: p, interval: 30 }] });
    expect(plan).toMatchObject({
      name: 'Box', automatic_renewal: false, extension_strategy: 'immediate', free_delivery_minimum_amount: null, superseded_subscription_plan_id: null,
      send_email_about_activation: false, send_email_about_renewal: false, send_email_about_expiration_in_one_day: false, send_email_about_expiration_in_one_week: false,
      products: [{ product_id: p, product_name: 'Monthly box', interval: 30, renewals_limit: 0 }],
    });
    expect((await call('GET', `/subscription_plans/${plan.id}`)).json().data).toEqual(plan);
  });

  it('stores every field', async () => {
    const [a, b] = [await product(), await product()];
    const previous = await create({ name: 'Old' });
    const fields = {
      name: 'Premium', automatic_renewal: true, extension_strategy: 'continuous', free_delivery_minimum_amount: '99.9', superseded_subscription_plan_id: previous.id,
      send_email_about_activation: true, send_email_about_renewal: true, send_email_about_expiration_in_one_day: true, send_email_about_expiration_in_one_week: true,
      products: [link(b, 365, 2), link(a, 1, 0)],
    };
    const plan = await create(fields);
    expect(plan).toMatchObject({ ...fields, free_delivery_minimum_amount: '99.90', products: [expect.objectContaining(link(a, 1, 0)), expect.objectContaining(link(b, 365, 2))] });
  });

  it.each([
    ['without the wrapper', { name: 'X' }, 'subscription_plan'],
    ['without a name', { subscription_plan: { automatic_renewal: false } }, 'name'],
    ['an empty name', { subscription_plan: { name: '  ' } }, 'name'],
    ['an unknown field', { subscription_plan: { name: 'X', interval: 30 } }, 'interval'],
    ['an unknown extension_strategy', { subscription_plan: { name: 'X', extension_strategy: 'later' } }, 'extension_strategy'],
    ['a negative free delivery amount', { subscription_plan: { name: 'X', free_delivery_minimum_amount: '-1' } }, 'free_delivery_minimum_amount'],
    ['a link without interval', { subscription_plan: { name: 'X', products: [{ product_id: 1 }] } }, 'products.0.interval'],
    ['interval 0', { subscription_plan: { name: 'X', products: [link(1, 0)] } }, 'products.0.interval'],
    ['interval 36501', { subscription_plan: { name: 'X', products: [link(1, 36_501)] } }, 'products.0.interval'],
    ['a fractional interval', { subscription_plan: { name: 'X', products: [link(1, 1.5)] } }, 'products.0.interval'],
    ['renewals_limit -1', { subscription_plan: { name: 'X', products: [link(1, 30, -1)] } }, 'products.0.renewals_limit'],
  ])('refuses %s with 422 naming the field', async (_label, body, field) => {
    const res = await call('POST', '/subscription_plans', body);
    expect(res.statusCode, res.body).toBe(422);
    expect(Object.keys(res.json().errors)).toContain(field);
  });

  it('refuses a product linked twice, an unknown, hidden or foreign product, and a foreign superseded plan; stores nothing', async () => {
    const [mine, hidden, foreign] = [await product(), await product({ hidden: true }), await product({}, other)];
    const foreignPlan = await create({ name: 'Theirs' }, other);
    const cases: [unknown, string][] = [
      [[link(mine), link(mine, 60)], 'products.1.product_id'],
      [[link(foreign)], 'products'],
      [[link(hidden)], 'products'],
      [[link(2_000_000_000)], 'products'],
    ];
    for (const [products, field] of cases) {
      const res = await call('POST', '/subscription_plans', { subscription_plan: { name: 'Refused', products } });
      expect(res.statusCode, res.body).toBe(422);
      expect(Object.keys(res.json().errors)).toEqual([field]);
    }
    const res = await call('POST', '/subscription_plans', { subscription_plan: { name: 'Refused', superseded_subscription_plan_id: foreignPlan.id } });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toHaveProperty(['superseded_subscription_plan_id']);
    expect((await call('GET', '/subscription_plans?search=Refused')).json().meta.total).toBe(0);
  });
});

describe('a product in at most one automatic-renewal plan', () => {
  it('refuses a second automatic plan for the product, allows plans without automatic renewal', async () => {
    const p = await product();
    const first = await create({ name: 'Auto one', automatic_renewal: true, products: [link(p)] });
    const res = await call('POST', '/subscription_plans', { subscription_plan: { name: 'Auto two', automatic_renewal: true, products: [link(p)] } });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.products).toEqual([`product ${p} already belongs to the automatic-renewal plan ${first.id}`]);
    await create({ name: 'Manual', automatic_renewal: false, products: [link(p)] });
  });

  it('refuses switching automatic renewal on while another automatic plan holds a product, and frees the product when switched off', async () => {
    const p = await product();
    const auto = await create({ name: 'Auto holder', automatic_renewal: true, products: [link(p)] });
    const manual = await create({ name: 'Manual holder', products: [link(p)] });
    const on = await call('PATCH', `/subscription_plans/${manual.id}`, { subscription_plan: { automatic_renewal: true } });
    expect(on.statusCode).toBe(422);
    expect(on.json().errors).toHaveProperty(['automatic_renewal']);
    expect((await call('PATCH', `/subscription_plans/${auto.id}`, { subscription_plan: { automatic_renewal: false } })).statusCode).toBe(200);
    const now = await call('PATCH', `/subscription_plans/${manual.id}`, { subscription_plan: { automatic_renewal: true } });
    expect(now.statusCode, now.body).toBe(200);
    // The flag travels with the links: the first plan cannot take the product back.
    expect((await call('PATCH', `/subscription_plans/${auto.id}`, { subscription_plan: { automatic_renewal: true } })).statusCode).toBe(422);
  });

  it('lets exactly one of eight plans racing for one product win', async () => {
    const p = await product();
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => call('POST', '/subscription_plans', { subscription_plan: { name: `Race ${i}`, automatic_renewal: true, products: [link(p)] } })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 422, 422, 422, 422, 422, 422, 422]);
    for (const loser of results.filter((r) => r.statusCode === 422)) {
      // The check or the lost race: either names the product (never "product 0").
      expect(loser.json().errors.products, loser.body).toEqual([expect.stringMatching(new RegExp(`^product ${p} already belongs to (another|the) automatic-renewal plan`))]);
    }
    expect((await call('GET', '/subscription_plans?search=Race&automatic_renewal=true')).json().meta.total).toBe(1);
  });

  it('lets exactly one of two plans switching automatic renewal on for one product win', async () => {
    const p = await product();
    const [a, b] = [await create({ name: 'Flip A', products: [link(p)] }), await create({ name: 'Flip B', products: [link(p)] })];
    const results = await Promise.all([a, b].map((plan) => call('PATCH', `/subscription_plans/${plan.id}`, { subscription_plan: { automatic_renewal: true } })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 422]);
  });
});

describe('PATCH /api/v1/subscription_plans/:id', () => {
  it('keeps the links without the products key and replaces them all with it', async () => {
    const [a, b] = [await product(), await product()];
    const plan = await create({ name: 'Links', products: [link(a, 30, 3)] });
    const renamed = await call('PATCH', `/subscription_plans/${plan.id}`, { subscription_plan: { name: 'Links renamed' } });
    expect(renamed.json().data).toMatchObject({ name: 'Links renamed', products: [expect.objectContaining(link(a, 30, 3))] });
    const replaced = await call('PATCH', `/subscription_plans/${plan.id}`, { subscription_plan: { products: [link(b, 7)] } });
    expect(replaced.json().data.products).toEqual([expect.objectContaining(link(b, 7))]);
    const emptied = await call('PATCH', `/subscription_plans/${plan.id}`, { subscription_plan: { products: [] } });
    expect(emptied.json().data.products).toEqual([]);
  });

  it('counts a PATCH of only the products as an update (updated_at moves)', async () => {
    const plan = await create({ name: 'Touched', products: [link(await product())] });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const res = await call('PATCH', `/subscription_plans/${plan.id}`, { subscription_plan: { products: [link(await product(), 7)] } });
    expect(res.statusCode, res.body).toBe(200);
    expect(Date.parse(res.json().data.updated_at)).toBeGreaterThan(Date.parse(plan.updated_at));
    expect((await call('GET', `/subscription_plans/${plan.id}`)).json().data.updated_at).toBe(res.json().data.updated_at);
  });

  it('names schema failures and rule failures alike, without the wrapper', async () => {
    const plan = await create({ name: 'Named' });
    const schema = await call('PATCH', `/subscription_plans/${plan.id}`, { subscription_plan: { products: [link(1, 0)], extension_strategy: 'later' } });
    expect(Object.keys(schema.json().errors).sort()).toEqual(['extension_strategy']);
    const rule = await call('PATCH', `/subscription_plans/${plan.id}`, { subscription_plan: { products: [link(1, 0)] } });
    expect(Object.keys(rule.json().errors)).toEqual(['products.0.interval']);
  });

  it('a PATCH racing a DELETE answers 200 or 404, never 500', async () => {
    for (let i = 0; i < 6; i++) {
      const plan = await create({ name: `Raced ${i}`, products: [link(await product())] });
      const [patched, deleted] = await Promise.all([
        call('PATCH', `/subscription_plans/${plan.id}`, { subscription_plan: { name: `Raced ${i} renamed` } }),
        call('DELETE', `/subscription_plans/${plan.id}`),
      ]);
      expect([200, 404], patched.body).toContain(patched.statusCode);
      expect(deleted.statusCode, deleted.body).toBe(200);
    }
  });

  it('refuses a plan superseding itself and clears the superseded plan with null', async () => {
    const old = await create({ name: 'Older' });
    const plan = await create({ name: 'Newer', superseded_subscription_plan_id: old.id });
    const self = await call('PATCH', `/subscription_plans/${plan.id}`, { subscription_plan: { superseded_subscription_plan_id: plan.id } });
    expect(self.statusCode).toBe(422);
    expect(self.json().errors['superseded_subscription_plan_id']).toEqual(['a plan cannot supersede itself']);
    const cleared = await call('PATCH', `/subscription_plans/${plan.id}`, { subscription_plan: { superseded_subscription_plan_id: null } });
    expect(cleared.json().data.superseded_subscription_plan_id).toBeNull();
  });

  it('answers 404 for another shop\'s plan and changes nothing there', async () => {
    const theirs = await create({ name: 'Foreign' }, other);
    for (const [method, payload] of [['GET'], ['PATCH', { subscription_plan: { name: 'Mine now' } }], ['DELETE']] as const) {
      expect((await call(method, `/subscription_plans/${theirs.id}`, payload)).statusCode).toBe(404);
    }
    expect((await call('GET', `/subscription_plans/${theirs.id}`, undefined, undefined, other)).json().data.name).toBe('Foreign');
    expect((await call('GET', '/subscription_plans/abc')).statusCode).toBe(404);
    // An over-long id is no id of the shop either (404, not a 422 on its length).
    expect((await call('GET', `/subscription_plans/${'9'.repeat(30)}`)).statusCode).toBe(404);
    expect((await call('DELETE', `/subscription_plans/${'9'.repeat(30)}`)).statusCode).toBe(404);
  });
});

describe('GET /api/v1/subscription_plans', () => {
  it('filters by automatic_renewal and name, pages, and lists the links', async () => {
    const p = await product({ name: 'Listed product' });
    const tag = `List-${Date.now()}`;
    await create({ name: `${tag} manual` });
    const auto = await create({ name: `${tag} auto`, automatic_renewal: true, products: [link(p)] });
    const autos = (await call('GET', `/subscription_plans?search=${tag}&automatic_renewal=true`)).json();
    expect(autos.data).toEqual([auto]);
    expect(autos.data[0].products[0].product_name).toBe('Listed product');
    expect((await call('GET', `/subscription_plans?search=${tag.toLowerCase()}&automatic_renewal=false`)).json().data.map((x: { name: string }) => x.name)).toEqual([`${tag} manual`]);
    const page = (await call('GET', `/subscription_plans?search=${tag}&per_page=1&page=2`)).json();
    expect(page.meta).toEqual({ page: 2, per_page: 1, total: 2, total_pages: 2 });
    expect(page.data).toHaveLength(1);
    expect((await call('GET', '/subscription_plans?automatic_renewal=yes')).statusCode).toBe(422);
    expect((await call('GET', '/subscription_plans?per_page=101')).statusCode).toBe(422);
    expect((await call('GET', `/subscription_plans?search=${tag}`, undefined, undefined, other)).json().meta.total).toBe(0);
  });
});

describe('DELETE /api/v1/subscription_plans/:id', () => {
  it('removes a plan without subscribers', async () => {
    const plan = await create({ name: 'Short-lived', products: [link(await product())] });
    const res = await call('DELETE', `/subscription_plans/${plan.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { id: plan.id, deleted: true } });
    expect((await call('GET', `/subscription_plans/${plan.id}`)).statusCode).toBe(404);
  });

  it('refuses a plan with subscribers with 422 and keeps it', async () => {
    const plan = await create({ name: 'Subscribed' });
    await insertSubscriber(stack.orm, shop.id, { planId: plan.id });
    const res = await call('DELETE', `/subscription_plans/${plan.id}`);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toHaveProperty('subscription_plan');
    expect((await call('GET', `/subscription_plans/${plan.id}`)).statusCode).toBe(200);
  });
});

describe('DELETE and mail sequences', () => {
  it('refuses a plan that triggers a mail sequence with 422 and keeps it; without the sequence it goes', async () => {
    const plan = await create({ name: 'Mailed' });
    const [sequence] = await stack.orm.em.fork().execute<{ id: number }[]>(
      `insert into shop_mail_sequences (shop_id, name, subscription_plan_id, first_subscription_entry, recipient_discount_code, created_at, updated_at)
       values (?, 'Welcome to the plan', ?, true, 'null'::jsonb, now(), now()) returning id`,
      [shop.id, plan.id],
    );
    const res = await call('DELETE', `/subscription_plans/${plan.id}`);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().errors.subscription_plan).toEqual([expect.stringMatching(/mail sequence/)]);
    expect((await call('GET', `/subscription_plans/${plan.id}`)).statusCode).toBe(200);
    await stack.orm.em.fork().execute('delete from shop_mail_sequences where id = ?', [sequence!.id]);
    expect((await call('DELETE', `/subscription_plans/${plan.id}`)).statusCode).toBe(200);
  });
});

describe('scopes', () => {
  it('reads need read, writes write_data; write_subscriptions opens no plan', async () => {
    const plan = await create({ name: 'Scoped' });
    expect((await call('GET', '/subscription_plans', undefined, 'read')).statusCode).toBe(200);
    expect((await call('GET', `/subscription_plans/${plan.id}`, undefined, 'read')).statusCode).toBe(200);
    expect((await call('POST', '/subscription_plans', { subscription_plan: { name: 'By read' } }, 'read')).statusCode).toBe(403);
    expect((await call('POST', '/subscription_plans', { subscription_plan: { name: 'By data' } }, 'write_data')).statusCode).toBe(201);
    for (const [method, url, payload] of [
      ['GET', '/subscription_plans'],
      ['GET', `/subscription_plans/${plan.id}`],
      ['POST', '/subscription_plans', { subscription_plan: { name: 'By subs' } }],
      ['PATCH', `/subscription_plans/${plan.id}`, { subscription_plan: { name: 'By subs' } }],
      ['DELETE', `/subscription_plans/${plan.id}`],
    ] as const) {
      expect((await call(method, url, payload, 'write_subscriptions')).statusCode, `${method} ${url}`).toBe(403);
    }
  });
});

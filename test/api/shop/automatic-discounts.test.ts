import { startOfDayIn } from '../../../domain/shared/time-zones.ts';
import { WorkflowNotFoundError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ShopScope } from '../../../domain/shop/scopes.ts';
import { timeLimitedDiscountWorkflowId } from '../../../domain/shop/workflow-ids.ts';
import { insertProduct } from '../../helpers/shop-catalogue.ts';
import { adminPost, createTestShop, type TestShop } from '../../helpers/shop.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';

let stack: TestStack;
let shop: TestShop;
let other: TestShop;
const ref = {} as Record<'product' | 'hidden' | 'otherProduct' | 'category' | 'otherCategory', number>;
const startedWorkflows: string[] = [];

beforeAll(async () => {
  stack = await startTestApp('shop-automatic-discounts');
  [shop, other] = await Promise.all([createTestShop(stack.app, 'auto-one'), createTestShop(stack.app, 'auto-two')]);
  ref.product = await insertProduct(stack.orm, shop.id);
  ref.hidden = await insertProduct(stack.orm, shop.id, { hidden: true });
  ref.otherProduct = await insertProduct(stack.orm, other.id);
  ref.category = (await adminPost(stack.app, `/admin/v1/shops/${shop.id}/product_categories`, { name: 'Books' })).id;
  ref.otherCategory = (await adminPost(stack.app, `/admin/v1/shops/${other.id}/product_categories`, { name: 'Books' })).id;
});
afterAll(async () => {
  // No worker serves the app's task queue here: the started price workflows are ended by the test.
  await Promise.all(startedWorkflows.map((id) => stack.temporal.workflow.getHandle(id).terminate('test done').catch(() => undefined)));
  await stack.close();
});

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, scope?: ShopScope, on = shop) =>
  stack.app.inject({ method, url: `/api/v1${url}`, headers: on.headers(scope), ...(payload === undefined ? {} : { payload: payload as object }) });

const day = 86_400_000;
const inDays = (n: number) => new Date(Date.now() + n * day).toISOString();

/** The four resources, each with a valid body of its own fields and the reply keys it adds. */
const RESOURCES = [
  { path: '/email_address_discounts', own: { email: 'Anna@Example.com' }, ownReply: { email: 'anna@example.com', start_date: null, end_date: null } },
  { path: '/email_domain_discounts', own: { email_domain: '@Example.COM' }, ownReply: { email_domain: 'example.com' } },
  { path: '/newsletter_discounts', own: { minimum_order_value: '50' }, ownReply: { minimum_order_value: '50.00' } },
  { path: '/time_limited_discounts', own: { start_date: inDays(1), end_date: inDays(3) }, ownReply: { future: true, past: false } },
] as const;

const COMMON = { discount_type: 'percentage_discount', value: '10', relation_with_products: 'all_products' };

async function create(path: string, body: Record<string, unknown>, on = shop) {
  const res = await call('POST', path, body, undefined, on);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
}

describe.each(RESOURCES)('$path', ({ path, own, ownReply }) => {
  it('POST creates the discount and answers every reply field of the spec; GET answers the same', async () => {
    const created = await create(path, { ...COMMON, ...own });
    const keys = ['id', 'discount_type', 'value', 'value_description', 'usages_limit', 'usages', 'active', 'relation_with_products', 'product_ids', 'product_category_ids', 'created_at', 'updated_at'];
    expect(Object.keys(created)).toEqual(expect.arrayContaining([...keys, ...Object.keys(own)]));
    expect(created).toMatchObject({
      ...COMMON, value: '10.00', value_description: '10% off the order', usages: 0, usages_limit: null, active: true, product_ids: [], product_category_ids: [], ...ownReply,
    });
    expect((await call('GET', `${path}/${created.id}`)).json().data).toEqual(created);
  });

  it('PATCH changes only the fields sent; DELETE removes the discount', async () => {
    const created = await create(path, { ...COMMON, ...own });
    const res = await call('PATCH', `${path}/${created.id}`, { value: '12.5', relation_with_products: 'selected_products', product_ids: [ref.product, ref.product], active: false });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ ...ownReply, value: '12.50', relation_with_products: 'selected_products', product_ids: [ref.product], active: false, discount_type: 'percentage_discount' });
    const deleted = await call('DELETE', `${path}/${created.id}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ data: { id: created.id, deleted: true } });
    expect((await call('GET', `${path}/${created.id}`)).statusCode).toBe(404);
  });

  it('lists the shop\'s own discounts of this resource, paginated', async () => {
    await create(path, { ...COMMON, ...own });
    await create(path, { ...COMMON, ...own });
    await create(path, { ...COMMON, ...own }, other);
    const res = await call('GET', `${path}?per_page=1&page=2`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.data).toHaveLength(1);
    expect(body.meta.page).toBe(2);
    expect(body.meta.per_page).toBe(1);
    expect(body.meta.total).toBeGreaterThanOrEqual(2);
    const all = (await call('GET', `${path}?per_page=100`)).json();
    const otherIds = (await call('GET', `${path}?per_page=100`, undefined, undefined, other)).json().data.map((d: { id: number }) => d.id);
    expect(all.data.some((d: { id: number }) => otherIds.includes(d.id))).toBe(false);
    expect((await call('GET', `${path}?per_page=101`)).statusCode).toBe(422);
  });

  it('answers 404 for another shop\'s discount, an unknown id and a malformed id', async () => {
    const foreign = await create(path, { ...COMMON, ...own }, other);
    for (const id of [foreign.id, 999_999_999, 'abc']) {
      expect((await call('GET', `${path}/${id}`)).statusCode).toBe(404);
      expect((await call('PATCH', `${path}/${id}`, { value: '5' })).statusCode).toBe(404);
      expect((await call('DELETE', `${path}/${id}`)).statusCode).toBe(404);
    }
    expect((await call('GET', `${path}/${foreign.id}`, undefined, undefined, other)).statusCode).toBe(200);
  });

  it('reads need scope read, writes and deletes need write_data (403)', async () => {
    const created = await create(path, { ...COMMON, ...own });
    expect((await call('GET', path, undefined, 'read')).statusCode).toBe(200);
    expect((await call('GET', `${path}/${created.id}`, undefined, 'write_data')).statusCode).toBe(403);
    expect((await call('POST', path, { ...COMMON, ...own }, 'read')).statusCode).toBe(403);
    expect((await call('PATCH', `${path}/${created.id}`, { value: '5' }, 'read')).statusCode).toBe(403);
    expect((await call('DELETE', `${path}/${created.id}`, undefined, 'write_subscriptions')).statusCode).toBe(403);
    expect((await call('POST', path, { ...COMMON, ...own }, 'write_data')).statusCode).toBe(201);
    expect((await call('GET', `${path}/${created.id}`)).json().data.value).toBe('10.00');
  });

  it.each([
    ['an unknown discount_type', { discount_type: 'half_off' }, 'discount_type'],
    ['an unknown relation_with_products', { relation_with_products: 'some_products' }, 'relation_with_products'],
    ['a product of another shop', { relation_with_products: 'selected_products', product_ids: [-1] }, 'product_ids'],
    ['a category of another shop', { relation_with_products: 'selected_categories', product_category_ids: [-2] }, 'product_category_ids'],
    ['a hidden (deleted) product', { relation_with_products: 'products_except', product_ids: [-3] }, 'product_ids'],
    ['selected_products without product_ids', { relation_with_products: 'selected_products' }, 'product_ids'],
    ['categories_except without categories', { relation_with_products: 'categories_except' }, 'product_category_ids'],
    ['a percentage above 100', { value: '100.01' }, 'value'],
    ['a value of 0 for value_discount', { discount_type: 'value_discount', value: '0' }, 'value'],
    ['a negative value', { value: '-1' }, 'value'],
    ['value missing', { value: undefined }, 'value'],
    ['discount_type missing', { discount_type: undefined }, 'discount_type'],
    ['relation_with_products missing', { relation_with_products: undefined }, 'relation_with_products'],
    ['usages written', { usages: 3 }, 'usages'],
  ])('POST with %s is a 422 naming %s, and nothing is stored', async (_label, change, field) => {
    const ids: Record<number, number> = { [-1]: ref.otherProduct, [-2]: ref.otherCategory, [-3]: ref.hidden };
    const body: Record<string, unknown> = { ...COMMON, ...own, ...change };
    for (const key of ['product_ids', 'product_category_ids']) if (Array.isArray(body[key])) body[key] = (body[key] as number[]).map((id) => ids[id] ?? id);
    const before = (await call('GET', path)).json().meta.total;
    const res = await call('POST', path, body);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({ error: expect.any(String) });
    expect(Object.keys(res.json().errors)).toContain(field);
    expect((await call('GET', path)).json().meta.total).toBe(before);
  });

  it('PATCH with a product of another shop is a 422 and changes nothing', async () => {
    const created = await create(path, { ...COMMON, ...own });
    const res = await call('PATCH', `${path}/${created.id}`, { relation_with_products: 'selected_products', product_ids: [ref.product, ref.otherProduct] });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.product_ids).toEqual([`unknown ids: ${ref.otherProduct}`]);
    expect((await call('GET', `${path}/${created.id}`)).json().data).toEqual(created);
  });
});

describe('own fields and rules per resource', () => {
  it('email-address discounts need a valid email, filter by it, and keep optional dates', async () => {
    expect(Object.keys((await call('POST', '/email_address_discounts', COMMON)).json().errors)).toContain('email');
    expect(Object.keys((await call('POST', '/email_address_discounts', { ...COMMON, email: 'not-an-email' })).json().errors)).toContain('email');
    const email = `buyer-${Date.now()}@example.com`;
    const created = await create('/email_address_discounts', { ...COMMON, email: email.toUpperCase(), start_date: '2026-01-01T00:00:00Z', end_date: '2026-02-01T00:00:00Z' });
    expect(created).toMatchObject({ email, start_date: '2026-01-01T00:00:00.000Z', end_date: '2026-02-01T00:00:00.000Z' });
    await create('/email_address_discounts', { ...COMMON, email: 'someone.else@example.com' });
    const listed = (await call('GET', `/email_address_discounts?email=${encodeURIComponent(email)}`)).json();
    expect(listed.data.map((d: { id: number }) => d.id)).toEqual([created.id]);
    const bad = await call('PATCH', `/email_address_discounts/${created.id}`, { end_date: '2025-12-01T00:00:00Z' });
    expect(Object.keys(bad.json().errors)).toEqual(['end_date']);
    expect(Object.keys((await call('POST', '/email_address_discounts', { ...COMMON, email, discount_type: 'percentage_product_discount' })).json().errors)).toEqual(['discount_type']);
  });

  it('email-domain discounts need a domain and filter by it', async () => {
    expect(Object.keys((await call('POST', '/email_domain_discounts', COMMON)).json().errors)).toContain('email_domain');
    expect(Object.keys((await call('POST', '/email_domain_discounts', { ...COMMON, email_domain: 'not a domain' })).json().errors)).toContain('email_domain');
    const domain = `d${Date.now()}.example.org`;
    const created = await create('/email_domain_discounts', { ...COMMON, email_domain: domain.toUpperCase() });
    await create('/email_domain_discounts', { ...COMMON, email_domain: 'elsewhere.org' });
    const listed = (await call('GET', `/email_domain_discounts?email_domain=${domain}`)).json();
    expect(listed.data.map((d: { id: number }) => d.id)).toEqual([created.id]);
  });

  it('newsletter discounts take an optional minimum_order_value and a usages_limit', async () => {
    const created = await create('/newsletter_discounts', { ...COMMON, discount_type: 'unit_price_discount', value: '0', usages_limit: 5 });
    expect(created).toMatchObject({ minimum_order_value: null, usages_limit: 5, value: '0.00', value_description: 'unit price 0.00' });
    const res = await call('PATCH', `/newsletter_discounts/${created.id}`, { minimum_order_value: '99.99', usages_limit: null });
    expect(res.json().data).toMatchObject({ minimum_order_value: '99.99', usages_limit: null });
  });

  it('a discount of one resource is not found under another', async () => {
    const created = await create('/newsletter_discounts', COMMON);
    expect((await call('GET', `/email_domain_discounts/${created.id}`)).statusCode).toBe(404);
    expect((await call('DELETE', `/time_limited_discounts/${created.id}`)).statusCode).toBe(404);
  });
});

describe('time-limited discounts', () => {
  const path = '/time_limited_discounts';
  // The start of today in the shop's time zone (the rule "start not before today" is judged there).
  const today = () => startOfDayIn(new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Warsaw' }).format(new Date()), 'Europe/Warsaw');

  const start = inDays(1);
  it.each([
    ['start_date missing', { start_date: undefined }, 'start_date'],
    ['end_date missing', { end_date: undefined }, 'end_date'],
    // A day before the UTC day began: before the shop's day in its zone (Europe/Warsaw) too.
    ['a start before today', { start_date: new Date(today().getTime() - day).toISOString() }, 'start_date'],
    ['an end before the start', { end_date: inDays(0.5) }, 'end_date'],
    ['an end equal to the start', { end_date: start }, 'end_date'],
    ['a usages_limit', { usages_limit: 3 }, 'usages_limit'],
    ['an unknown discount_type', { discount_type: 'free_delivery_discount' }, 'discount_type'],
  ])('POST with %s is a 422 naming %s', async (_label, change, field) => {
    const res = await call('POST', path, { ...COMMON, start_date: start, end_date: inDays(2), ...change });
    expect(res.statusCode, res.body).toBe(422);
    expect(Object.keys(res.json().errors)).toContain(field);
  });

  it('future and past reflect the window against the current time; ?active= lists exactly the discounts whose reply has that active', async () => {
    const future = await create(path, { ...COMMON, start_date: inDays(2), end_date: inDays(4) });
    const running = await create(path, { ...COMMON, start_date: today().toISOString(), end_date: inDays(2) });
    const past = await create(path, { ...COMMON, start_date: today().toISOString(), end_date: new Date(today().getTime() + 1).toISOString() });
    const inactive = await create(path, { ...COMMON, start_date: today().toISOString(), end_date: inDays(2), active: false });
    expect(future).toMatchObject({ future: true, past: false, active: true });
    expect(running).toMatchObject({ future: false, past: false, active: true });
    expect(past).toMatchObject({ future: false, past: true, active: true });
    const listed = async (active: boolean) => (await call('GET', `${path}?active=${active}&per_page=100`)).json().data as { id: number; active: boolean }[];
    const on = await listed(true);
    expect(on.every((d) => d.active)).toBe(true);
    expect(on.map((d) => d.id)).toEqual(expect.arrayContaining([running.id, future.id, past.id]));
    expect(on.map((d) => d.id)).not.toContain(inactive.id);
    const off = await listed(false);
    expect(off.every((d) => !d.active)).toBe(true);
    expect(off.map((d) => d.id)).toContain(inactive.id);
  });

  it('a PATCH of other fields keeps a start that has passed; moving the start before today is refused', async () => {
    const created = await create(path, { ...COMMON, start_date: today().toISOString(), end_date: inDays(2) });
    await stack.orm.em.fork().getConnection().execute('update shop_automatic_discounts set start_date = ? where id = ?', [new Date(today().getTime() - 2 * day), created.id]);
    expect((await call('PATCH', `${path}/${created.id}`, { value: '20' })).statusCode).toBe(200);
    const moved = await call('PATCH', `${path}/${created.id}`, { start_date: new Date(today().getTime() - day).toISOString() });
    expect(moved.statusCode).toBe(422);
    expect(Object.keys(moved.json().errors)).toEqual(['start_date']);
  });

  it('a price-history type starts its price workflow on save, under shop/<shop>/time-limited-discount/<id>', async () => {
    const created = await create(path, { ...COMMON, discount_type: 'value_product_discount', value: '2', start_date: inDays(1), end_date: inDays(2) });
    expect(created.value_description).toBe('2.00 off each product price');
    const workflowId = timeLimitedDiscountWorkflowId({ shopId: shop.id, discountId: created.id });
    startedWorkflows.push(workflowId);
    expect(workflowId).toBe(`shop/${shop.id}/time-limited-discount/${created.id}`);
    const described = await stack.temporal.workflow.getHandle(workflowId).describe();
    expect(described.status.name).toBe('RUNNING');
    expect(described.type).toBe('timeLimitedDiscount');
    // A PATCH signals the same run; DELETE tells it to restore and end.
    expect((await call('PATCH', `${path}/${created.id}`, { end_date: inDays(3) })).statusCode).toBe(200);
    expect((await stack.temporal.workflow.getHandle(workflowId).describe()).runId).toBe(described.runId);
    expect((await call('DELETE', `${path}/${created.id}`)).statusCode).toBe(200);
  });

  it('an order-discount type starts no workflow', async () => {
    const created = await create(path, { ...COMMON, start_date: inDays(1), end_date: inDays(2) });
    const workflowId = timeLimitedDiscountWorkflowId({ shopId: shop.id, discountId: created.id });
    await expect(stack.temporal.workflow.getHandle(workflowId).describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);
    expect((await call('DELETE', `${path}/${created.id}`)).statusCode).toBe(200);
  });

  const revisionOf = async (id: number) =>
    (await stack.orm.em.fork().getConnection().execute<{ revision: number }[]>('select revision from shop_automatic_discounts where id = ?', [id]))[0]!.revision;

  it('two PATCHes at once are each checked against the row the other left: no stored end before the start', async () => {
    const created = await create(path, { ...COMMON, start_date: inDays(1), end_date: inDays(4) });
    const [later, earlier] = await Promise.all([
      call('PATCH', `${path}/${created.id}`, { start_date: inDays(3) }),
      call('PATCH', `${path}/${created.id}`, { end_date: inDays(2) }),
    ]);
    expect([later.statusCode, earlier.statusCode].sort()).toEqual([200, 422]);
    const stored = (await call('GET', `${path}/${created.id}`)).json().data;
    expect(Date.parse(stored.end_date)).toBeGreaterThan(Date.parse(stored.start_date));
  });

  it('a PATCH that changes nothing keeps the revision (the workflow keeps its prices); a change counts one', async () => {
    const created = await create(path, { ...COMMON, start_date: inDays(1), end_date: inDays(2) });
    const before = await revisionOf(created.id);
    expect((await call('PATCH', `${path}/${created.id}`, {})).statusCode).toBe(200);
    expect((await call('PATCH', `${path}/${created.id}`, { active: true })).statusCode).toBe(200);
    expect(await revisionOf(created.id)).toBe(before);
    expect((await call('PATCH', `${path}/${created.id}`, { active: false })).statusCode).toBe(200);
    expect(await revisionOf(created.id)).toBe(before + 1);
  });

  it('DELETE answers 200 when the workflow cannot be told (the prices are restored in its transaction)', async () => {
    const created = await create(path, { ...COMMON, discount_type: 'percentage_product_discount', start_date: inDays(1), end_date: inDays(2) });
    startedWorkflows.push(timeLimitedDiscountWorkflowId({ shopId: shop.id, discountId: created.id }));
    const getHandle = vi.spyOn(stack.temporal.workflow, 'getHandle').mockReturnValue({ signal: () => Promise.reject(new Error('connection refused')) } as never);
    try {
      expect((await call('DELETE', `${path}/${created.id}`)).statusCode).toBe(200);
    } finally {
      getHandle.mockRestore();
    }
    expect((await call('GET', `${path}/${created.id}`)).statusCode).toBe(404);
  });
});

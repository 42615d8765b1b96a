import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Order } from '../../../db/entities/shop/index.ts';
import { createDeliveryType, insertProduct } from '../../helpers/shop-catalogue.ts';
import { adminPost, createTestShop, type TestShop } from '../../helpers/shop.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';
import type { ShopScope } from '../../../domain/shop/scopes.ts';

let stack: TestStack;
let shop: TestShop;
let other: TestShop;
const ref = {} as Record<'product' | 'hidden' | 'otherProduct' | 'category' | 'otherCategory' | 'delivery' | 'otherDelivery', number>;

beforeAll(async () => {
  stack = await startTestApp('shop-discount-codes');
  [shop, other] = await Promise.all([createTestShop(stack.app, 'codes-one'), createTestShop(stack.app, 'codes-two')]);
  ref.product = await insertProduct(stack.orm, shop.id);
  ref.hidden = await insertProduct(stack.orm, shop.id, { hidden: true });
  ref.otherProduct = await insertProduct(stack.orm, other.id);
  ref.category = (await adminPost(stack.app, `/admin/v1/shops/${shop.id}/product_categories`, { name: 'Books' })).id;
  ref.otherCategory = (await adminPost(stack.app, `/admin/v1/shops/${other.id}/product_categories`, { name: 'Books' })).id;
  ref.delivery = await createDeliveryType(stack.app, shop.id);
  ref.otherDelivery = await createDeliveryType(stack.app, other.id);
});
afterAll(() => stack.close());

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, scope?: ShopScope, on = shop) =>
  stack.app.inject({ method, url: `/api/v1${url}`, headers: on.headers(scope), ...(payload === undefined ? {} : { payload: payload as object }) });

async function create(body: Record<string, unknown>, on = shop) {
  const res = await call('POST', '/discount_codes', body, undefined, on);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
}

let n = 0;
const unique = (prefix = 'CODE') => `${prefix}-${++n}-${Math.random().toString(36).slice(2, 7)}`;

describe('POST /api/v1/discount_codes', () => {
  it('creates a code with the defaults of the spec (case_sensitive and combine true, usages 0, all products and delivery types)', async () => {
    const code = await create({ code: unique(), discount_type: 'percentage_discount', value: '10' });
    expect(code).toMatchObject({
      discount_type: 'percentage_discount', value: '10.00', case_sensitive: true, combine_with_other_discount: true, usages: 0, active: true,
      relation_with_products: 'all_products', relation_with_delivery_types: 'all_delivery_types', product_ids: [], product_category_ids: [],
      delivery_type_ids: [], usages_limit: null, usages_per_customer_limit: null, minimum_amount: null, start_date: null, end_date: null, name: '',
    });
    expect((await call('GET', `/discount_codes/${code.id}`)).json().data).toEqual(code);
  });

  it('stores every field and answers it back', async () => {
    const body = {
      code: unique('ALL'), name: 'Autumn', discount_type: 'value_and_free_delivery_discount', value: '15.5', case_sensitive: false,
      minimum_amount: '100', usages_limit: 10, usages_per_customer_limit: 1, active: false, start_date: '2026-01-01T00:00:00+01:00',
      end_date: '2026-02-01T00:00:00Z', combine_with_other_discount: false, relation_with_products: 'selected_categories',
      product_ids: [ref.product], product_category_ids: [ref.category], relation_with_delivery_types: 'selected_delivery_types', delivery_type_ids: [ref.delivery],
    };
    const code = await create(body);
    expect(code).toMatchObject({
      ...body, value: '15.50', minimum_amount: '100.00', start_date: '2025-12-31T23:00:00.000Z', end_date: '2026-02-01T00:00:00.000Z', usages: 0,
    });
  });

  it.each([
    ['code missing', { discount_type: 'free_delivery_discount' }, 'code'],
    ['an empty code', { code: '  ', discount_type: 'free_delivery_discount' }, 'code'],
    ['discount_type missing', { code: 'X1' }, 'discount_type'],
    ['an unknown discount_type', { code: 'X1', discount_type: 'half_off' }, 'discount_type'],
    ['percentage without value', { code: 'X1', discount_type: 'percentage_discount' }, 'value'],
    ['value_discount without value', { code: 'X1', discount_type: 'value_discount' }, 'value'],
    ['value_per_product without value', { code: 'X1', discount_type: 'value_per_product_and_free_delivery_discount' }, 'value'],
    ['unit_price_discount without value', { code: 'X1', discount_type: 'unit_price_discount' }, 'value'],
    ['percentage 0', { code: 'X1', discount_type: 'percentage_discount', value: '0' }, 'value'],
    ['percentage 100.01', { code: 'X1', discount_type: 'percentage_and_free_delivery_discount', value: '100.01' }, 'value'],
    ['value 0', { code: 'X1', discount_type: 'value_discount', value: '0' }, 'value'],
    ['a negative value', { code: 'X1', discount_type: 'value_discount', value: '-5' }, 'value'],
    ['end_date before start_date', { code: 'X1', discount_type: 'free_delivery_discount', start_date: '2026-02-01T00:00:00Z', end_date: '2026-01-01T00:00:00Z' }, 'end_date'],
    ['end_date equal to start_date', { code: 'X1', discount_type: 'free_delivery_discount', start_date: '2026-02-01T00:00:00Z', end_date: '2026-02-01T00:00:00Z' }, 'end_date'],
    ['a date without offset', { code: 'X1', discount_type: 'free_delivery_discount', start_date: 'tomorrow' }, 'start_date'],
    ['selected_products without product_ids', { code: 'X1', discount_type: 'free_contents', relation_with_products: 'selected_products' }, 'product_ids'],
    ['categories_except without product_category_ids', { code: 'X1', discount_type: 'free_contents', relation_with_products: 'categories_except' }, 'product_category_ids'],
    ['selected_delivery_types without ids', { code: 'X1', discount_type: 'free_delivery_discount', relation_with_delivery_types: 'selected_delivery_types' }, 'delivery_type_ids'],
    ['an unknown relation', { code: 'X1', discount_type: 'free_contents', relation_with_products: 'some' }, 'relation_with_products'],
    ['usages_limit 0', { code: 'X1', discount_type: 'free_contents', usages_limit: 0 }, 'usages_limit'],
    ['usages (read only)', { code: 'X1', discount_type: 'free_contents', usages: 3 }, 'usages'],
    ['a NUL in code', { code: 'X\u00001', discount_type: 'free_contents' }, 'code'],
  ])('refuses %s with 422 naming the field', async (_label, body, field) => {
    const res = await call('POST', '/discount_codes', body);
    expect(res.statusCode, res.body).toBe(422);
    expect(Object.keys(res.json().errors)).toContain(field);
  });

  it('refuses products, categories and delivery types of another shop (or hidden, or unknown) naming each field, storing nothing', async () => {
    const before = (await call('GET', '/discount_codes?per_page=1')).json().meta.total;
    const res = await call('POST', '/discount_codes', {
      code: unique(), discount_type: 'free_delivery_discount', relation_with_products: 'selected_products',
      product_ids: [ref.product, ref.otherProduct, ref.hidden], product_category_ids: [ref.otherCategory], delivery_type_ids: [ref.otherDelivery, 999_999],
    });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(['delivery_type_ids', 'product_category_ids', 'product_ids']);
    expect(res.json().errors.product_ids[0]).toBe(`unknown ids: ${ref.otherProduct}, ${ref.hidden}`);
    expect((await call('GET', '/discount_codes?per_page=1')).json().meta.total).toBe(before);
  });

  it('keeps codes unique in the shop ignoring case, but another shop may use the same code', async () => {
    const text = unique('Summer');
    await create({ code: text, discount_type: 'free_delivery_discount' });
    for (const taken of [text, text.toUpperCase(), text.toLowerCase()]) {
      const res = await call('POST', '/discount_codes', { code: taken, discount_type: 'free_delivery_discount' });
      expect(res.statusCode).toBe(422);
      expect(Object.keys(res.json().errors)).toEqual(['code']);
    }
    await create({ code: text, discount_type: 'free_delivery_discount' }, other);
  });

  it('needs write_data (403 with read), and a key (401)', async () => {
    expect((await call('POST', '/discount_codes', { code: unique(), discount_type: 'free_contents' }, 'read')).statusCode).toBe(403);
    expect((await call('GET', '/discount_codes', undefined, 'write_data')).statusCode).toBe(403);
    const res = await stack.app.inject({ method: 'GET', url: '/api/v1/discount_codes' });
    expect(res.statusCode).toBe(401);
  });
});

describe('GET /api/v1/discount_codes', () => {
  it('filters by discount_type, active and search (code or name), with pagination', async () => {
    const tag = unique('flt').toLowerCase();
    await create({ code: `${tag}-a`, discount_type: 'unit_price_discount', value: '5' });
    await create({ code: `${tag}-b`, discount_type: 'unit_price_discount', value: '5', active: false });
    await create({ code: unique(), name: `named ${tag}`, discount_type: 'free_contents' });
    const list = async (query: string) => (await call('GET', `/discount_codes?${query}`, undefined, 'read')).json();
    expect((await list(`search=${tag}`)).meta.total).toBe(3);
    expect((await list(`search=${tag.toUpperCase()}&discount_type=unit_price_discount`)).data.map((c: { code: string }) => c.code)).toEqual([`${tag}-a`, `${tag}-b`]);
    expect((await list(`search=${tag}&active=false`)).data.map((c: { code: string }) => c.code)).toEqual([`${tag}-b`]);
    const page = await list(`search=${tag}&per_page=2&page=2`);
    expect(page.meta).toEqual({ page: 2, per_page: 2, total: 3, total_pages: 2 });
    expect(page.data).toHaveLength(1);
    expect((await call('GET', '/discount_codes?discount_type=half')).statusCode).toBe(422);
    expect((await call('GET', '/discount_codes?per_page=101')).statusCode).toBe(422);
  });

  it('never lists or opens another shop\'s code (404)', async () => {
    const foreign = await create({ code: unique('foreign'), discount_type: 'free_contents' }, other);
    expect((await call('GET', `/discount_codes?search=${foreign.code}`)).json().meta.total).toBe(0);
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      expect((await call(method, `/discount_codes/${foreign.id}`, method === 'PATCH' ? { name: 'x' } : undefined)).statusCode).toBe(404);
    }
    expect((await call('GET', '/discount_codes/abc')).statusCode).toBe(404);
    expect((await call('GET', '/discount_codes/99999999999')).statusCode).toBe(404);
  });
});

describe('PATCH /api/v1/discount_codes/:id', () => {
  it('changes only the fields sent and checks the rules against the code after the change', async () => {
    const code = await create({ code: unique(), discount_type: 'percentage_discount', value: '20', start_date: '2026-03-01T00:00:00Z' });
    const res = await call('PATCH', `/discount_codes/${code.id}`, { name: 'Renamed', usages_limit: 5 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ name: 'Renamed', usages_limit: 5, value: '20.00', discount_type: 'percentage_discount' });
    expect((await call('PATCH', `/discount_codes/${code.id}`, { value: '150' })).statusCode).toBe(422);
    expect(Object.keys((await call('PATCH', `/discount_codes/${code.id}`, { end_date: '2026-02-01T00:00:00Z' })).json().errors)).toEqual(['end_date']);
    expect(Object.keys((await call('PATCH', `/discount_codes/${code.id}`, { value: null })).json().errors)).toEqual(['value']);
    // A type without a value may drop it.
    expect((await call('PATCH', `/discount_codes/${code.id}`, { discount_type: 'free_delivery_discount', value: null })).json().data.value).toBeNull();
    expect((await call('PATCH', `/discount_codes/${code.id}`, { usages: 0 })).statusCode).toBe(422);
  });

  it('refuses a code another code of the shop has, but keeps the code\'s own in another case', async () => {
    const first = await create({ code: unique('one'), discount_type: 'free_contents' });
    const second = await create({ code: unique('two'), discount_type: 'free_contents' });
    expect((await call('PATCH', `/discount_codes/${second.id}`, { code: first.code.toUpperCase() })).statusCode).toBe(422);
    expect((await call('PATCH', `/discount_codes/${first.id}`, { code: first.code.toUpperCase() })).json().data.code).toBe(first.code.toUpperCase());
  });
});

describe('DELETE /api/v1/discount_codes/:id', () => {
  it('answers {id, deleted: true}; orders keep the code\'s text without the link', async () => {
    const code = await create({ code: unique('gone'), discount_type: 'free_contents' });
    // An order that used the code (linked directly: checkout with codes is tested in order-placement-discounts).
    const order = await adminPost(stack.app, `/admin/v1/shops/${shop.id}/orders`, { email: 'a@example.com', items: [{ product_id: ref.product }] });
    const em = stack.orm.em.fork();
    await em.nativeUpdate(Order, { id: order.id }, { discountCode: code.code, discountCodeId: code.id }, { filters: false });
    const res = await call('DELETE', `/discount_codes/${code.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ data: { id: code.id, deleted: true } });
    expect((await call('GET', `/discount_codes/${code.id}`)).statusCode).toBe(404);
    expect((await call('DELETE', `/discount_codes/${code.id}`)).statusCode).toBe(404);
    const after = await stack.orm.em.fork().findOneOrFail(Order, order.id, { filters: false });
    expect(after).toMatchObject({ discountCode: code.code, discountCodeId: null });
  });
});

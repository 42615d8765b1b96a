import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiscountCode, Order } from '../../../../db/entities/shop/index.ts';
import { createDeliveryType, insertProduct } from '../../../helpers/shop-catalogue.ts';
import { adminPost, createTestShop, operator, type TestShop } from '../../../helpers/shop.ts';
import { startTestApp, type TestStack } from '../../../helpers/stack.ts';

let stack: TestStack;
let shop: TestShop;
let other: TestShop;
const ids = {} as Record<'book' | 'ebook' | 'courier' | 'abroad', number>;

beforeAll(async () => {
  stack = await startTestApp('shop-order-discounts');
  [shop, other] = await Promise.all([createTestShop(stack.app, 'disc-one'), createTestShop(stack.app, 'disc-two')]);
  ids.book = await insertProduct(stack.orm, shop.id, { name: 'Book', price: '49.99', vatRate: 5 });
  ids.ebook = await insertProduct(stack.orm, shop.id, { name: 'E-book', price: '29.90' });
  ids.courier = await createDeliveryType(stack.app, shop.id, { name: 'Courier', default_price: '12.30' });
  ids.abroad = await createDeliveryType(stack.app, shop.id, { name: 'Abroad', default_price: '40.00', domestic: false });
});
afterAll(() => stack.close());

let n = 0;
const unique = (prefix = 'C') => `${prefix}${++n}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();

async function discountCode(body: Record<string, unknown>, on = shop) {
  const res = await stack.app.inject({ method: 'POST', url: '/api/v1/discount_codes', headers: on.headers(), payload: { code: unique(), ...body } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: number; code: string };
}

const place = (payload: Record<string, unknown>) =>
  stack.app.inject({ method: 'POST', url: `/admin/v1/shops/${shop.id}/orders`, headers: operator, payload: { email: 'buyer@example.com', items: [{ product_id: ids.book }], ...payload } });

const usages = async (id: number) => (await stack.orm.em.fork().findOneOrFail(DiscountCode, id, { filters: false })).usages;
const orderCount = () => stack.orm.em.fork().count(Order, { shop: shop.id }, { filters: false });

describe('POST /admin/v1/shops/:shop_id/orders with discount_code', () => {
  it('applies a percentage code to every line, stores the code on the order and counts a use', async () => {
    const code = await discountCode({ discount_type: 'percentage_discount', value: '10' });
    const res = await place({ items: [{ product_id: ids.book, quantity: 2 }, { product_id: ids.ebook }], delivery_type_id: ids.courier, discount_code: code.code });
    expect(res.statusCode, res.body).toBe(201);
    const order = res.json().data;
    expect(order).toMatchObject({ products_cost: '129.88', delivery_cost: '12.30', total_discount: '12.99', total: '129.19', discount_code: code.code });
    expect(order.items.map((i: { discount: string; final_price: string }) => [i.discount, i.final_price])).toEqual([['10.00', '89.98'], ['2.99', '26.91']]);
    expect(await usages(code.id)).toBe(1);
    const stored = await stack.orm.em.fork().findOneOrFail(Order, order.id, { filters: false });
    expect(stored.discountCodeId).toBe(code.id);
  });

  it('frees a domestic delivery only with domestic_delivery_types_only', async () => {
    const code = await discountCode({ discount_type: 'free_delivery_discount', relation_with_delivery_types: 'domestic_delivery_types_only' });
    expect((await place({ delivery_type_id: ids.courier, discount_code: code.code })).json().data).toMatchObject({ total_discount: '12.30', total: '49.99' });
    expect((await place({ delivery_type_id: ids.abroad, discount_code: code.code })).json().data).toMatchObject({ total_discount: '0.00', total: '89.99' });
  });

  it('brings a unit to the target price and spreads an order value pro rata', async () => {
    const unit = await discountCode({ discount_type: 'unit_price_discount', value: '19.99', relation_with_products: 'selected_products', product_ids: [ids.book] });
    expect((await place({ items: [{ product_id: ids.book, quantity: 3 }, { product_id: ids.ebook }], discount_code: unit.code })).json().data).toMatchObject({ total_discount: '90.00', total: '89.87' });
    const value = await discountCode({ discount_type: 'value_discount', value: '10' });
    const order = (await place({ items: [{ product_id: ids.book }, { product_id: ids.ebook }], discount_code: value.code })).json().data;
    expect(order.items.map((i: { discount: string }) => i.discount)).toEqual(['6.26', '3.74']);
    expect(order.total).toBe('69.89');
  });

  it('matches a case-insensitive code in any case, a case-sensitive one only as written', async () => {
    const loose = await discountCode({ discount_type: 'value_discount', value: '1', case_sensitive: false });
    expect((await place({ discount_code: loose.code.toLowerCase() })).statusCode).toBe(201);
    const strict = await discountCode({ discount_type: 'value_discount', value: '1' });
    expect((await place({ discount_code: strict.code.toLowerCase() })).statusCode).toBe(422);
  });

  it.each([
    ['unknown', async () => 'NO-SUCH-CODE'],
    ['of another shop', async () => (await discountCode({ discount_type: 'value_discount', value: '1' }, other)).code],
    ['inactive', async () => (await discountCode({ discount_type: 'value_discount', value: '1', active: false })).code],
    ['not valid yet', async () => (await discountCode({ discount_type: 'value_discount', value: '1', start_date: new Date(Date.now() + 3_600_000).toISOString() })).code],
    ['expired', async () => (await discountCode({ discount_type: 'value_discount', value: '1', end_date: new Date(Date.now() - 1000).toISOString() })).code],
    ['below its minimum', async () => (await discountCode({ discount_type: 'value_discount', value: '1', minimum_amount: '50.00' })).code],
    ['an undrawn code of a draw pool', async () => {
      const codes = [unique('POOL')];
      await adminPost(stack.app, `/admin/v1/shops/${shop.id}/discount_code_pools`, { name: 'p', activate_on_draw: true, codes, discount_type: 'value_discount', value: '5' });
      return codes[0]!;
    }],
  ])('refuses a code %s with 422 naming discount_code, storing nothing', async (_label, make) => {
    const text = await make();
    const before = await orderCount();
    const res = await place({ discount_code: text });
    expect(res.statusCode, res.body).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['discount_code']);
    expect(await orderCount()).toBe(before);
  });

  it('refuses a used-up code, and accepts a drawn pool code within its window', async () => {
    const code = await discountCode({ discount_type: 'value_discount', value: '1', usages_limit: 1 });
    expect((await place({ discount_code: code.code })).statusCode).toBe(201);
    const res = await place({ discount_code: code.code });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.discount_code).toEqual(['has been used up']);
    expect(await usages(code.id)).toBe(1);

    const pool = await adminPost(stack.app, `/admin/v1/shops/${shop.id}/discount_code_pools`, { name: 'draw', activate_on_draw: true, codes: [unique('D')], discount_type: 'value_discount', value: '5' });
    const drawn = await stack.app.inject({ method: 'POST', url: `/api/v1/discount_code_pools/${pool.id}/draw`, headers: shop.headers(), payload: { count: 1, validity_hours: 1 } });
    const order = await place({ discount_code: drawn.json().data[0].code });
    expect(order.statusCode, order.body).toBe(201);
    expect(order.json().data.total_discount).toBe('5.00');
  });

  it('keeps the code text on the order after the code is deleted', async () => {
    const code = await discountCode({ discount_type: 'value_discount', value: '1' });
    const order = (await place({ discount_code: code.code })).json().data;
    await stack.app.inject({ method: 'DELETE', url: `/api/v1/discount_codes/${code.id}`, headers: shop.headers() });
    const read = await stack.app.inject({ method: 'GET', url: `/api/v1/orders/${order.id}`, headers: shop.headers() });
    expect(read.json().data).toMatchObject({ discount_code: code.code, total_discount: '1.00' });
  });
});

describe('usage limits under concurrency', () => {
  it('concurrent orders never pass usages_limit', async () => {
    const code = await discountCode({ discount_type: 'value_discount', value: '1', usages_limit: 3 });
    const replies = await Promise.all(Array.from({ length: 8 }, (_, i) => place({ email: `c${i}@example.com`, discount_code: code.code })));
    expect(replies.filter((r) => r.statusCode === 201)).toHaveLength(3);
    expect(replies.every((r) => r.statusCode === 201 || (r.statusCode === 422 && r.json().errors.discount_code))).toBe(true);
    expect(await usages(code.id)).toBe(3);
  });

  it('concurrent orders of one customer never pass usages_per_customer_limit; another customer still may use the code', async () => {
    const code = await discountCode({ discount_type: 'value_discount', value: '1', usages_per_customer_limit: 2 });
    const replies = await Promise.all(Array.from({ length: 6 }, () => place({ email: 'Same@Example.com', discount_code: code.code })));
    expect(replies.filter((r) => r.statusCode === 201)).toHaveLength(2);
    expect(await usages(code.id)).toBe(2);
    expect((await place({ email: 'someone@example.com', discount_code: code.code })).statusCode).toBe(201);
  });
});

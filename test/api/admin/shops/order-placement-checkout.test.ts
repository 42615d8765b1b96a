import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AutomaticDiscount, DiscountCode, Order } from '../../../../db/entities/shop/index.ts';
import { createDeliveryType, createPaymentType, insertProduct } from '../../../helpers/shop-catalogue.ts';
import { insertAutomaticDiscount, insertNewsletterSubscriber, insertProductSet } from '../../../helpers/shop-checkout.ts';
import { adminPost, operator } from '../../../helpers/shop.ts';
import { startTestApp, type TestStack } from '../../../helpers/stack.ts';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestApp('shop-order-checkout');
});
afterAll(() => stack.close());

/**
 * A shop of its own for each test (automatic discounts apply to every order of a shop): a book
 * (49.99, category A), an e-book (29.90, category B), a courier delivery (12.30).
 */
async function freshShop() {
  const { id } = await adminPost<{ id: string }>(stack.app, '/admin/v1/shops', { subdomain: `checkout-${Math.random().toString(36).slice(2, 10)}`, name: 'Checkout' });
  const categoryA = (await adminPost(stack.app, `/admin/v1/shops/${id}/product_categories`, { name: 'A' })).id as number;
  const categoryB = (await adminPost(stack.app, `/admin/v1/shops/${id}/product_categories`, { name: 'B' })).id as number;
  const book = await insertProduct(stack.orm, id, { name: 'Book', price: '49.99', productCategoryIds: [categoryA] });
  const ebook = await insertProduct(stack.orm, id, { name: 'E-book', price: '29.90', productCategoryIds: [categoryB] });
  const courier = await createDeliveryType(stack.app, id, { name: 'Courier', default_price: '12.30' });
  const place = (payload: Record<string, unknown>) =>
    stack.app.inject({ method: 'POST', url: `/admin/v1/shops/${id}/orders`, headers: operator, payload: { email: 'anna@example.com', items: [{ product_id: book }], ...payload } });
  const auto = (kind: Parameters<typeof insertAutomaticDiscount>[2], type: Parameters<typeof insertAutomaticDiscount>[3], value: string, fields: Parameters<typeof insertAutomaticDiscount>[5] = {}) =>
    insertAutomaticDiscount(stack.orm, id, kind, type, value, fields);
  return { id, book, ebook, courier, categoryA, categoryB, place, auto };
}

type Line = { discount: string; final_price: string; price: string; unit_price: string; quantity: number };
const lineDiscounts = (order: { items: Line[] }) => order.items.map((i) => i.discount);
const usages = async (id: number) => (await stack.orm.em.fork().findOneOrFail(AutomaticDiscount, id, { filters: false })).usages;
const orderCount = (shopId: string) => stack.orm.em.fork().count(Order, { shop: shopId }, { filters: false });

async function placed(res: { statusCode: number; body: string; json(): { data: unknown } }) {
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { items: Line[]; products_cost: string; delivery_cost: string; payment_cost: string; total_discount: string; total: string; discount_code: string };
}

describe('automatic discounts at checkout', () => {
  it('email-address: the buyer\'s address (any case) within its dates gets it and a use is counted; another address does not', async () => {
    const s = await freshShop();
    const discount = await s.auto('email_address', 'percentage_discount', '10', { email: 'anna@example.com' });
    await s.auto('email_address', 'percentage_discount', '50', { email: 'anna@example.com', startDate: new Date(Date.now() + 3_600_000) });
    await s.auto('email_address', 'percentage_discount', '50', { email: 'anna@example.com', endDate: new Date(Date.now() - 1000) });
    const order = await placed(await s.place({ email: 'Anna@Example.com', delivery_type_id: s.courier }));
    expect(order).toMatchObject({ products_cost: '49.99', delivery_cost: '12.30', total_discount: '5.00', total: '57.29' });
    expect(await usages(discount)).toBe(1);
    expect((await placed(await s.place({ email: 'jan@example.com' }))).total_discount).toBe('0.00');
    expect(await usages(discount)).toBe(1);
  });

  it('email-domain: an address in the domain; a subdomain is another domain', async () => {
    const s = await freshShop();
    await s.auto('email_domain', 'value_discount', '5.00', { emailDomain: 'example.com' });
    expect((await placed(await s.place({ email: 'x@EXAMPLE.com' }))).total_discount).toBe('5.00');
    expect((await placed(await s.place({ email: 'x@mail.example.com' }))).total_discount).toBe('0.00');
  });

  it('newsletter: with newsletter: true or a sign-up of the address, from minimum_order_value on', async () => {
    const s = await freshShop();
    await s.auto('newsletter', 'percentage_discount', '20', { minimumOrderValue: '49.99' });
    expect((await placed(await s.place({ newsletter: true }))).total_discount).toBe('10.00');
    // The consent signed anna up: her next order has the discount without it, another address not.
    expect((await placed(await s.place({ newsletter: false }))).total_discount).toBe('10.00');
    expect((await placed(await s.place({ newsletter: false, email: 'jan@example.com' }))).total_discount).toBe('0.00');
    await insertNewsletterSubscriber(stack.orm, s.id, 'subscribed@example.com');
    expect((await placed(await s.place({ email: 'Subscribed@example.com' }))).total_discount).toBe('10.00');
    expect((await placed(await s.place({ newsletter: true, items: [{ product_id: s.ebook }] }))).total_discount).toBe('0.00');
  });

  it('time-limited: only while it runs; the price-history types are not applied again at checkout', async () => {
    const s = await freshShop();
    const hour = 3_600_000;
    await s.auto('time_limited', 'value_discount', '3.00', { startDate: new Date(Date.now() - hour), endDate: new Date(Date.now() + hour) });
    await s.auto('time_limited', 'value_discount', '30.00', { startDate: new Date(Date.now() + hour), endDate: new Date(Date.now() + 2 * hour) });
    await s.auto('time_limited', 'percentage_product_discount', '90', { startDate: new Date(Date.now() - hour), endDate: new Date(Date.now() + hour) });
    expect((await placed(await s.place({}))).total_discount).toBe('3.00');
  });

  it('follows the product relations (selected products, categories except)', async () => {
    const s = await freshShop();
    await s.auto('newsletter', 'percentage_discount', '10', { relationWithProducts: 'selected_products', productIds: [s.ebook] });
    await s.auto('newsletter', 'value_discount', '1.00', { relationWithProducts: 'categories_except', productCategoryIds: [s.categoryA] });
    const order = await placed(await s.place({ newsletter: true, items: [{ product_id: s.book }, { product_id: s.ebook }] }));
    expect(lineDiscounts(order)).toEqual(['0.00', '2.99']);
  });

  it('unit_price_discount brings each unit to the target (quantity multiplies); a cheaper product stays as it is', async () => {
    const s = await freshShop();
    await s.auto('newsletter', 'unit_price_discount', '39.99');
    const order = await placed(await s.place({ newsletter: true, items: [{ product_id: s.book, quantity: 3 }, { product_id: s.ebook, quantity: 2 }] }));
    expect(order.items.map((i) => [i.price, i.discount, i.final_price])).toEqual([['149.97', '30.00', '119.97'], ['59.80', '0.00', '59.80']]);
    expect(order).toMatchObject({ products_cost: '209.77', total_discount: '30.00', total: '179.77' });
  });

  it('several apply: each line gets the best one for the buyer, and only the ones that took something count a use', async () => {
    const s = await freshShop();
    const percent = await s.auto('newsletter', 'percentage_discount', '10');
    const value = await s.auto('email_domain', 'value_discount', '20.00', { emailDomain: 'example.com', relationWithProducts: 'selected_products', productIds: [s.book] });
    const idle = await s.auto('email_domain', 'value_discount', '1.00', { emailDomain: 'example.com', relationWithProducts: 'selected_products', productIds: [s.book] });
    const order = await placed(await s.place({ newsletter: true, items: [{ product_id: s.book }, { product_id: s.ebook }] }));
    expect(lineDiscounts(order)).toEqual(['20.00', '2.99']);
    expect([await usages(percent), await usages(value), await usages(idle)]).toEqual([1, 1, 0]);
  });

  it('usages_limit: a used-up discount is left out, the order is still placed', async () => {
    const s = await freshShop();
    const discount = await s.auto('newsletter', 'value_discount', '5.00', { usagesLimit: 1 });
    expect((await placed(await s.place({ newsletter: true }))).total_discount).toBe('5.00');
    expect((await placed(await s.place({ newsletter: true }))).total_discount).toBe('0.00');
    expect(await usages(discount)).toBe(1);
  });

  it('another shop\'s automatic discounts never apply', async () => {
    const [s, other] = [await freshShop(), await freshShop()];
    await other.auto('newsletter', 'percentage_discount', '50');
    await other.auto('email_domain', 'percentage_discount', '50', { emailDomain: 'example.com' });
    expect((await placed(await s.place({ newsletter: true }))).total_discount).toBe('0.00');
  });

  it('every amount adds up to the cent with a set, a code, automatic discounts, delivery and payment', async () => {
    const s = await freshShop();
    const card = await createPaymentType(stack.app, s.id, { name: 'Card', default_price: '1.99' });
    const set = await insertProductSet(stack.orm, s.id, '33.33', [{ productId: s.book }, { productId: s.ebook, quantity: 3 }]);
    await s.auto('newsletter', 'percentage_discount', '7');
    const key = await createTestShopKey(s.id);
    const res = await stack.app.inject({ method: 'POST', url: '/api/v1/discount_codes', headers: key, payload: { code: 'ALL', discount_type: 'value_and_free_delivery_discount', value: '3.33' } });
    expect(res.statusCode, res.body).toBe(201);
    const order = await placed(await s.place({ items: [], product_set_id: set, newsletter: true, discount_code: 'ALL', delivery_type_id: s.courier, payment_type_id: card }));
    const sum = (values: string[]) => values.reduce((total, v) => total + Math.round(Number(v) * 100), 0);
    expect(sum(order.items.map((i) => i.price))).toBe(sum([order.products_cost]));
    for (const item of order.items) expect(sum([item.price]) - sum([item.discount])).toBe(sum([item.final_price]));
    expect(sum(order.items.map((i) => i.discount)) + sum([order.delivery_cost])).toBe(sum([order.total_discount]));
    expect(sum([order.products_cost, order.delivery_cost, order.payment_cost]) - sum([order.total_discount])).toBe(sum([order.total]));
    expect(order).toMatchObject({ products_cost: '33.33', delivery_cost: '12.30', payment_cost: '1.99', discount_code: 'ALL' });
    // Lines 11.93 and 21.40 (33.33 by 49.99 : 89.70); 7 % per line 0.84 + 1.50; then 3.33 over
    // what is left; free delivery: 47.62 − 2.34 − 3.33 − 12.30.
    expect(order.items.map((i) => i.price)).toEqual(['11.93', '21.40']);
    expect(order.total).toBe('29.65');
  });

  it('concurrent orders never pass usages_limit: every order is placed, exactly the limit get the discount', async () => {
    const s = await freshShop();
    const discount = await s.auto('newsletter', 'value_discount', '5.00', { usagesLimit: 3 });
    const replies = await Promise.all(Array.from({ length: 8 }, (_, i) => s.place({ email: `c${i}@example.com`, newsletter: true })));
    expect(replies.map((r) => r.statusCode)).toEqual(Array(8).fill(201));
    const discounted = replies.filter((r) => r.json().data.total_discount === '5.00');
    expect(discounted).toHaveLength(3);
    expect(replies.filter((r) => r.json().data.total_discount === '0.00')).toHaveLength(5);
    expect(await usages(discount)).toBe(3);
  });
});

describe('the discount code with automatic discounts', () => {
  async function code(shopId: string, body: Record<string, unknown>) {
    const shop = await createTestShopKey(shopId);
    const res = await stack.app.inject({ method: 'POST', url: '/api/v1/discount_codes', headers: shop, payload: { code: `C${Math.random().toString(36).slice(2, 8)}`.toUpperCase(), ...body } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { id: number; code: string };
  }
  const codeUsages = async (id: number) => (await stack.orm.em.fork().findOneOrFail(DiscountCode, id, { filters: false })).usages;

  it('combine_with_other_discount: true stacks the code on what the automatic discounts left', async () => {
    const s = await freshShop();
    const auto = await s.auto('newsletter', 'percentage_discount', '10');
    const c = await code(s.id, { discount_type: 'percentage_discount', value: '50', combine_with_other_discount: true });
    const order = await placed(await s.place({ newsletter: true, items: [{ product_id: s.ebook }], discount_code: c.code }));
    // 29.90: 2.99 automatic, then 50 % of 26.91 = 13.455 -> 13.46
    expect(order).toMatchObject({ total_discount: '16.45', total: '13.45', discount_code: c.code });
    expect([await usages(auto), await codeUsages(c.id)]).toEqual([1, 1]);
  });

  it('combine_with_other_discount: false gives the buyer the better side; the losing side is neither applied nor counted', async () => {
    const s = await freshShop();
    const auto = await s.auto('newsletter', 'percentage_discount', '10');
    const small = await code(s.id, { discount_type: 'value_discount', value: '2.00', combine_with_other_discount: false });
    const lost = await placed(await s.place({ newsletter: true, items: [{ product_id: s.ebook }], discount_code: small.code }));
    expect(lost).toMatchObject({ total_discount: '2.99', discount_code: '' });
    expect([await usages(auto), await codeUsages(small.id)]).toEqual([1, 0]);

    const big = await code(s.id, { discount_type: 'value_discount', value: '5.00', combine_with_other_discount: false });
    const won = await placed(await s.place({ newsletter: true, items: [{ product_id: s.ebook }], discount_code: big.code }));
    expect(won).toMatchObject({ total_discount: '5.00', discount_code: big.code });
    expect([await usages(auto), await codeUsages(big.id)]).toEqual([1, 1]);
  });

  it('an invalid code is still a 422 on discount_code with nothing stored', async () => {
    const s = await freshShop();
    await s.auto('newsletter', 'percentage_discount', '10');
    const c = await code(s.id, { discount_type: 'value_discount', value: '1.00', combine_with_other_discount: false, active: false });
    const before = await orderCount(s.id);
    const res = await s.place({ newsletter: true, discount_code: c.code });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['discount_code']);
    expect(await orderCount(s.id)).toBe(before);
  });
});

/** Headers of a new all-scopes key of the shop. */
async function createTestShopKey(shopId: string) {
  const { token } = await adminPost<{ token: string }>(stack.app, `/admin/v1/shops/${shopId}/api_keys`, { name: 'all', scopes: ['read', 'write_data'] });
  return { 'x-api-key': token, 'content-type': 'application/json' };
}

describe('product sets at checkout', () => {
  it('a set is ordered whole at its price, spread over its lines by catalogue prices', async () => {
    const s = await freshShop();
    const set = await insertProductSet(stack.orm, s.id, '60.00', [{ productId: s.book }, { productId: s.ebook, quantity: 2 }]);
    const order = await placed(await s.place({ items: [], product_set_id: set, delivery_type_id: s.courier }));
    // weights 49.99 and 59.80 of 60.00: 27.32 and 32.68
    expect(order.items.map((i) => [i.quantity, i.unit_price, i.price, i.final_price])).toEqual([[1, '27.32', '27.32', '27.32'], [2, '16.34', '32.68', '32.68']]);
    expect(order).toMatchObject({ products_cost: '60.00', total_discount: '0.00', total: '72.30' });
  });

  it('without auto_calculate_prices each line costs its custom_price × quantity; automatic discounts apply to set lines', async () => {
    const s = await freshShop();
    const set = await insertProductSet(stack.orm, s.id, '50.00', [{ productId: s.book, customPrice: '30.00' }, { productId: s.ebook, quantity: 2, customPrice: '10.00' }], { autoCalculatePrices: false });
    await s.auto('newsletter', 'percentage_discount', '10');
    const order = await placed(await s.place({ items: [], product_set_id: set, newsletter: true }));
    expect(order.items.map((i) => [i.price, i.discount])).toEqual([['30.00', '3.00'], ['20.00', '2.00']]);
    expect(order).toMatchObject({ products_cost: '50.00', total_discount: '5.00', total: '45.00' });
  });

  it('pool mode: the buyer\'s picks, exactly pool_pick_count different items of the set, at the set price', async () => {
    const s = await freshShop();
    const third = await insertProduct(stack.orm, s.id, { price: '20.10' });
    const set = await insertProductSet(stack.orm, s.id, '40.00', [{ productId: s.book }, { productId: s.ebook }, { productId: third }], { poolMode: true, poolPickCount: 2 });
    const order = await placed(await s.place({ product_set_id: set, items: [{ product_id: s.ebook }, { product_id: third }] }));
    // weights 29.90 and 20.10 of 40.00
    expect(order.items.map((i) => [i.price])).toEqual([['23.92'], ['16.08']]);
    expect(order.products_cost).toBe('40.00');

    const refused = async (items: unknown[], field: string) => {
      const before = await orderCount(s.id);
      const res = await s.place({ product_set_id: set, items });
      expect(res.statusCode, res.body).toBe(422);
      expect(Object.keys(res.json().errors)).toContain(field);
      expect(await orderCount(s.id)).toBe(before);
    };
    await refused([{ product_id: s.ebook }], 'items');
    await refused([{ product_id: s.ebook }, { product_id: s.ebook }], 'items.1.product_id');
    const outsider = await insertProduct(stack.orm, s.id);
    await refused([{ product_id: s.ebook }, { product_id: outsider }], 'items.1.product_id');
  });

  it.each([
    ['inactive', { active: false }, {}],
    ['link-only, without via_set_link', { linkOnlyDiscount: true }, {}],
  ])('refuses a set that is %s with 422 naming product_set_id, storing nothing', async (_label, fields, extra) => {
    const s = await freshShop();
    const set = await insertProductSet(stack.orm, s.id, '10.00', [{ productId: s.book }, { productId: s.ebook }], fields);
    const before = await orderCount(s.id);
    const res = await s.place({ items: [], product_set_id: set, ...extra });
    expect(res.statusCode, res.body).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['product_set_id']);
    expect(await orderCount(s.id)).toBe(before);
  });

  it('a link-only set through its direct link is ordered; another shop\'s set is unknown', async () => {
    const s = await freshShop();
    const set = await insertProductSet(stack.orm, s.id, '10.00', [{ productId: s.book }, { productId: s.ebook }], { linkOnlyDiscount: true });
    expect((await s.place({ items: [], product_set_id: set, via_set_link: true })).statusCode).toBe(201);
    const other = await freshShop();
    const res = await other.place({ items: [], product_set_id: set });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ product_set_id: ['is not a product set of this shop'] });
  });

  it('custom_payment_types restricts payment_type_id; items beside a whole set are refused', async () => {
    const s = await freshShop();
    const [allowed, other] = [await createPaymentType(stack.app, s.id, { name: 'Card' }), await createPaymentType(stack.app, s.id, { name: 'Transfer' })];
    const set = await insertProductSet(stack.orm, s.id, '10.00', [{ productId: s.book }, { productId: s.ebook }], { customPaymentTypes: true, paymentTypeIds: [allowed] });
    const res = await s.place({ items: [], product_set_id: set, payment_type_id: other });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['payment_type_id']);
    expect((await s.place({ items: [], product_set_id: set, payment_type_id: allowed })).statusCode).toBe(201);
    const withItems = await s.place({ items: [{ product_id: s.book }], product_set_id: set, payment_type_id: allowed });
    expect(withItems.statusCode).toBe(422);
    expect(Object.keys(withItems.json().errors)).toEqual(['items']);
  });

  it('a set holding an inactive product is refused on product_set_id', async () => {
    const s = await freshShop();
    const off = await insertProduct(stack.orm, s.id, { active: false });
    const set = await insertProductSet(stack.orm, s.id, '10.00', [{ productId: s.book }, { productId: off }]);
    const res = await s.place({ items: [], product_set_id: set });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['product_set_id']);
  });
});

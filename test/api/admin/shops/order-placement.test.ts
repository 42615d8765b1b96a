import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Order, OrderItem, Shop } from '../../../../db/entities/shop/index.ts';
import { createDeliveryType, createPaymentType, insertProduct } from '../../../helpers/shop-catalogue.ts';
import { createTestShop, operator, type TestShop } from '../../../helpers/shop.ts';
import { eventually, startTestApp, type TestStack } from '../../../helpers/stack.ts';

let stack: TestStack;
let shop: TestShop;
let other: TestShop;
const ids = {} as Record<'book' | 'ebook' | 'flexible' | 'free' | 'inactive' | 'hidden' | 'limited' | 'picky' | 'foreign' | 'courier' | 'post' | 'offDelivery' | 'foreignDelivery' | 'transfer' | 'cod' | 'offPayment' | 'foreignPayment', number>;

beforeAll(async () => {
  stack = await startTestApp('shop-order-placement');
  [shop, other] = await Promise.all([createTestShop(stack.app, 'place-one'), createTestShop(stack.app, 'place-two')]);
  const { app, orm } = stack;
  ids.courier = await createDeliveryType(app, shop.id, { name: 'Courier', default_price: '12.30', vat_rate: 23 });
  ids.post = await createDeliveryType(app, shop.id, { name: 'Post', default_price: '8.00', vat_rate: 8 });
  ids.offDelivery = await createDeliveryType(app, shop.id, { name: 'Old', default_price: '1.00', active: false });
  ids.foreignDelivery = await createDeliveryType(app, other.id, { name: 'Foreign', default_price: '1.00' });
  ids.transfer = await createPaymentType(app, shop.id, { name: 'Transfer', default_price: '0.00' });
  ids.cod = await createPaymentType(app, shop.id, { name: 'Cash on delivery', default_price: '5.40', vat_rate: 8, cash_on_delivery: true });
  ids.offPayment = await createPaymentType(app, shop.id, { name: 'Off', active: false });
  ids.foreignPayment = await createPaymentType(app, other.id, { name: 'Foreign' });
  ids.book = await insertProduct(orm, shop.id, { name: 'Book', sku: 'BOOK', price: '49.99', vatRate: 5 });
  ids.ebook = await insertProduct(orm, shop.id, { name: 'E-book', sku: 'EBOOK', price: '29.90', vatRate: 23, electronic: true });
  ids.flexible = await insertProduct(orm, shop.id, { name: 'Pay what you want', price: '30.00', allowPriceChange: true, minimalPrice: '15.00' });
  ids.free = await insertProduct(orm, shop.id, { name: 'Free or more', price: '10.00', allowPriceChange: true, minimalPrice: '0.00', allowZeroMinimalPrice: true });
  ids.inactive = await insertProduct(orm, shop.id, { active: false });
  ids.hidden = await insertProduct(orm, shop.id, { hidden: true });
  ids.limited = await insertProduct(orm, shop.id, { cartQuantityLimit: 2 });
  ids.picky = await insertProduct(orm, shop.id, { deliveryTypeIds: [ids.post], paymentTypeIds: [ids.transfer] });
  ids.foreign = await insertProduct(orm, other.id, { name: 'Foreign' });
});
afterAll(() => stack.close());

const place = (payload: unknown, shopId = shop.id) =>
  stack.app.inject({ method: 'POST', url: `/admin/v1/shops/${shopId}/orders`, headers: operator, payload: payload as object });

/** Orders stored for the shop and its next ordinal number: what "nothing stored" is checked against. */
async function stored(shopId = shop.id) {
  const em = stack.orm.em.fork();
  const orders = await em.count(Order, { shop: shopId }, { filters: false });
  const { nextOrdinalNumber } = await em.findOneOrFail(Shop, shopId);
  return { orders, nextOrdinalNumber };
}

async function expect422(payload: unknown, field: string) {
  const before = await stored();
  const res = await place(payload);
  expect(res.statusCode, res.body).toBe(422);
  expect(res.json().error).toBeTypeOf('string');
  expect(Object.keys(res.json().errors), res.body).toContain(field);
  expect(await stored()).toEqual(before);
  return res.json().errors as Record<string, string[]>;
}

describe('POST /admin/v1/shops/:shop_id/orders: pricing', () => {
  it('places an order at catalogue prices with delivery and payment costs, placed, unpaid, at New (201 with the detail)', async () => {
    const res = await place({
      email: 'Buyer@Example.com',
      items: [{ product_id: ids.book, quantity: 3 }, { product_id: ids.ebook }],
      delivery_type_id: ids.courier,
      payment_type_id: ids.cod,
    });
    expect(res.statusCode, res.body).toBe(201);
    const order = res.json().data;
    expect(order).toMatchObject({
      internal_status: 'placed',
      order_status: 'New',
      order_status_id: shop.statuses.New,
      paid: false,
      paid_at: null,
      email: 'buyer@example.com',
      currency: 'PLN',
      products_cost: '179.87',
      delivery_cost: '12.30',
      payment_cost: '5.40',
      gift_packing_cost: '0.00',
      total_discount: '0.00',
      total: '197.57',
      delivery_method: 'Courier',
      delivery_vat_rate: 23,
      payment_vat_rate: 8,
      cash_on_delivery: true,
      discount_code: '',
      invoice_number: null,
      transaction_id: null,
    });
    expect(order.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(order.items).toEqual([
      { id: expect.any(Number), product_id: ids.book, name: 'Book', sku: 'BOOK', quantity: 3, unit_price: '49.99', vat_rate: 5, price: '149.97', discount: '0.00', final_price: '149.97', subscriber_identifiers: [], ref: null },
      { id: expect.any(Number), product_id: ids.ebook, name: 'E-book', sku: 'EBOOK', quantity: 1, unit_price: '29.90', vat_rate: 23, price: '29.90', discount: '0.00', final_price: '29.90', subscriber_identifiers: [], ref: null },
    ]);
    const em = stack.orm.em.fork();
    const items = await em.find(OrderItem, { order: order.id }, { filters: false, orderBy: { id: 'asc' } });
    expect(items.map((i) => i.electronic)).toEqual([false, true]);
  });

  it('takes the buyer price for allow_price_change products, at or above minimal_price, and zero where allowed', async () => {
    const res = await place({ email: 'a@example.com', items: [{ product_id: ids.flexible, price: '15.00', quantity: 2 }, { product_id: ids.free, price: '0' }] });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.items.map((i: { unit_price: string; price: string }) => [i.unit_price, i.price])).toEqual([['15.00', '30.00'], ['0.00', '0.00']]);
    expect(res.json().data.total).toBe('30.00');
  });

  it('stores addresses (all ten fields), comment, ref, placed_ip, placed_at and the newsletter consent', async () => {
    const res = await place({
      email: 'b@example.com',
      items: [{ product_id: ids.book }],
      delivery_address: { first_name: 'Anna', last_name: 'Nowak', city: 'Kraków', postcode: '30-001' },
      invoice_address: { company: 'ACME', nip: '1234567890', email: 'inv@example.com' },
      comment: 'Please wrap',
      ref: 'partner-7',
      placed_ip: '203.0.113.9',
      placed_at: '2026-10-01T10:15:00+01:00',
      newsletter: true,
    });
    expect(res.statusCode, res.body).toBe(201);
    const order = res.json().data;
    expect(order.delivery_address).toEqual({ first_name: 'Anna', last_name: 'Nowak', company: '', nip: '', address: '', postcode: '30-001', city: 'Kraków', country: '', phone: '', email: '' });
    expect(order.invoice_address).toMatchObject({ company: 'ACME', nip: '1234567890', email: 'inv@example.com', first_name: '' });
    expect(order).toMatchObject({ comment: 'Please wrap', ref: 'partner-7', placed_ip: '203.0.113.9', placed_at: '2026-10-01T09:15:00.000Z', order_attributes: [], notes: [] });
    expect(order.items[0].ref).toBe('partner-7');
    const row = await stack.orm.em.fork().findOneOrFail(Order, order.id, { filters: false });
    expect(row.newsletter).toBe(true);
  });

  it('keeps no placed_ip for an order placed before 29.09.2026 in the shop zone (Warsaw), whatever the import sends (spec: Order detail)', async () => {
    const before = await place({ email: 'old@example.com', items: [{ product_id: ids.book }], placed_ip: '203.0.113.9', placed_at: '2026-09-28T21:59:59Z' });
    expect(before.statusCode, before.body).toBe(201);
    expect(before.json().data).toMatchObject({ placed_ip: null, placed_at: '2026-09-28T21:59:59.000Z' });
    const since = await place({ email: 'old@example.com', items: [{ product_id: ids.book }], placed_ip: '203.0.113.9', placed_at: '2026-09-28T22:00:00Z' });
    expect(since.json().data.placed_ip).toBe('203.0.113.9');
  });

  it('accepts an empty discount_code as no code', async () => {
    const res = await place({ email: 'c@example.com', items: [{ product_id: ids.book }], discount_code: '' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.discount_code).toBe('');
  });
});

describe('POST /admin/v1/shops/:shop_id/orders: 422 naming the field, nothing stored', () => {
  const base = { email: 'x@example.com' };
  it('a product of another shop, an unknown, a hidden or an inactive product', async () => {
    await expect422({ ...base, items: [{ product_id: ids.book }, { product_id: ids.foreign }] }, 'items.1.product_id');
    await expect422({ ...base, items: [{ product_id: 2_000_000_000 }] }, 'items.0.product_id');
    await expect422({ ...base, items: [{ product_id: ids.hidden }] }, 'items.0.product_id');
    await expect422({ ...base, items: [{ product_id: ids.inactive }] }, 'items.0.product_id');
  });

  it('a delivery or payment type of another shop, unknown or inactive', async () => {
    for (const id of [ids.foreignDelivery, ids.offDelivery, 999_999_999]) await expect422({ ...base, items: [{ product_id: ids.book }], delivery_type_id: id }, 'delivery_type_id');
    for (const id of [ids.foreignPayment, ids.offPayment, 999_999_999]) await expect422({ ...base, items: [{ product_id: ids.book }], payment_type_id: id }, 'payment_type_id');
  });

  it('a buyer price below minimal_price, zero when not allowed, a changed price on a fixed-price product', async () => {
    const errors = await expect422({ ...base, items: [{ product_id: ids.flexible, price: '14.99' }] }, 'items.0.price');
    expect(errors['items.0.price']![0]).toContain('15.00');
    await expect422({ ...base, items: [{ product_id: ids.book, price: '1.00' }] }, 'items.0.price');
    const zeroForbidden = await insertProduct(stack.orm, shop.id, { allowPriceChange: true, minimalPrice: null });
    await expect422({ ...base, items: [{ product_id: zeroForbidden, price: '0.00' }] }, 'items.0.price');
  });

  it('more units than cart_quantity_limit, a delivery or payment type the product does not allow', async () => {
    await expect422({ ...base, items: [{ product_id: ids.limited, quantity: 3 }] }, 'items.0.quantity');
    await expect422({ ...base, items: [{ product_id: ids.picky }], delivery_type_id: ids.courier }, 'delivery_type_id');
    await expect422({ ...base, items: [{ product_id: ids.picky }], payment_type_id: ids.cod }, 'payment_type_id');
    const ok = await place({ ...base, items: [{ product_id: ids.picky }], delivery_type_id: ids.post, payment_type_id: ids.transfer });
    expect(ok.statusCode, ok.body).toBe(201);
  });

  it('a product set of another shop or an unknown one, an unknown discount code', async () => {
    const [a, b] = [await insertProduct(stack.orm, other.id), await insertProduct(stack.orm, other.id)];
    const foreignSet = await stack.app.inject({
      method: 'POST', url: '/api/v1/product_sets', headers: other.headers(), payload: { product_set: { name: 'Duo', price: '30.00', items: [{ product_id: a }, { product_id: b }] } },
    });
    expect(foreignSet.statusCode, foreignSet.body).toBe(201);
    await expect422({ ...base, items: [{ product_id: ids.book }], product_set_id: foreignSet.json().data.id }, 'product_set_id');
    await expect422({ ...base, items: [{ product_id: ids.book }], product_set_id: 2_000_000_000 }, 'product_set_id');
    await expect422({ ...base, items: [{ product_id: ids.book }], discount_code: 'SUMMER' }, 'discount_code');
  });

  it('hostile input: wrong types, unknown fields, NUL bytes, huge strings, bad ids and numbers', async () => {
    const item = { product_id: ids.book };
    await expect422({ items: [item] }, 'email');
    await expect422({ ...base, items: [] }, 'items');
    await expect422({ ...base, items: 'all' }, 'items');
    await expect422({ ...base, items: [{ product_id: -1 }] }, 'items.0.product_id');
    await expect422({ ...base, items: [{ product_id: 1.5 }] }, 'items.0.product_id');
    await expect422({ ...base, items: [{ product_id: '7' }] }, 'items.0.product_id');
    await expect422({ ...base, items: [{ product_id: 99_999_999_999 }] }, 'items.0.product_id');
    await expect422({ ...base, items: [{ ...item, quantity: 0 }] }, 'items.0.quantity');
    await expect422({ ...base, items: [{ ...item, quantity: 2.5 }] }, 'items.0.quantity');
    await expect422({ ...base, items: [{ ...item, price: '-1.00' }] }, 'items.0.price');
    await expect422({ ...base, items: [{ ...item, price: '1.005' }] }, 'items.0.price');
    await expect422({ ...base, items: [{ ...item, colour: 'red' }] }, 'items.0.colour');
    await expect422({ ...base, items: [item], surprise: true }, 'surprise');
    await expect422({ ...base, items: [item], comment: 'a\u0000b' }, 'comment');
    await expect422({ ...base, items: [item], comment: 'x'.repeat(10_001) }, 'comment');
    await expect422({ ...base, items: [item], delivery_address: { city: 'x\u0000' } }, 'delivery_address.city');
    await expect422({ ...base, items: [item], delivery_address: { street: 'Main' } }, 'delivery_address.street');
    await expect422({ ...base, items: [item], invoice_address: 'Main street' }, 'invoice_address');
    await expect422({ ...base, items: [item], placed_ip: 'localhost' }, 'placed_ip');
    await expect422({ ...base, items: [item], placed_at: 'yesterday' }, 'placed_at');
    await expect422({ ...base, items: [item], newsletter: 'yes' }, 'newsletter');
    await expect422({ ...base, items: [item], delivery_type_id: '1' }, 'delivery_type_id');
    await expect422({ ...base, items: Array.from({ length: 101 }, () => item) }, 'items');
  });

  it('an order total beyond numeric(12,2) is a 422, never a 500', async () => {
    const dear = await insertProduct(stack.orm, shop.id, { price: '9999999999.00' });
    await expect422({ ...base, items: [{ product_id: dear, quantity: 2 }] }, 'items');
  });

  it('404 for an unknown shop, 422 for a shop id that is no uuid, 401 without the operator token', async () => {
    expect((await place({ ...base, items: [{ product_id: ids.book }] }, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await place({ ...base, items: [{ product_id: ids.book }] }, '-1')).statusCode).toBe(422);
    const anonymous = await stack.app.inject({ method: 'POST', url: `/admin/v1/shops/${shop.id}/orders`, payload: { ...base, items: [{ product_id: ids.book }] } });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('ordinal numbers', () => {
  it('are per shop and never shared by concurrent placements', async () => {
    const fresh = await createTestShop(stack.app, 'ordinals');
    const product = await insertProduct(stack.orm, fresh.id);
    const otherProduct = await insertProduct(stack.orm, other.id);
    const results = await Promise.all([
      ...Array.from({ length: 10 }, (_, i) => place({ email: `c${i}@example.com`, items: [{ product_id: product }] }, fresh.id)),
      place({ email: 'o@example.com', items: [{ product_id: otherProduct }] }, other.id),
    ]);
    for (const res of results) expect(res.statusCode, res.body).toBe(201);
    const numbers = results.slice(0, 10).map((res) => res.json().data.ordinal_number as number);
    expect([...numbers].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(new Set(results.slice(0, 10).map((res) => res.json().data.uuid)).size).toBe(10);
    expect(results[10]!.json().data.ordinal_number).toBe(1);
    expect((await stored(fresh.id)).nextOrdinalNumber).toBe(11);
  });
});

describe('a catalogue price changed while the order is priced', () => {
  it('is priced again: the order is stored at the price in force when it is stored', async () => {
    const product = await insertProduct(stack.orm, shop.id, { price: '20.00' });
    const holder = stack.orm.em.fork();
    await holder.begin();
    let placing: ReturnType<typeof place> | undefined;
    try {
      // The placement reads and prices at 20.00, then waits for the product's lock to store the order.
      await holder.execute('select id from shop_products where id = ? for update', [product]);
      placing = place({ email: 'late@example.com', items: [{ product_id: product }] });
      // The placement has priced once it waits for the lock (no other session of this file's database waits).
      await eventually(async () => {
        const [lockWaits] = await stack.orm.em.fork().getConnection().execute<{ n: number }[]>("select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'");
        expect(lockWaits!.n).toBeGreaterThan(0);
      });
      await holder.execute('update shop_products set price = ? where id = ?', ['15.00', product]);
      await holder.commit();
    } catch (error) {
      await holder.rollback();
      throw error;
    }
    const res = await placing!;
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.items[0]).toMatchObject({ unit_price: '15.00', final_price: '15.00' });
  });
});

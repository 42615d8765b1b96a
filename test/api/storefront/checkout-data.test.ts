import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeliveryType, insertProduct } from '../../helpers/shop-catalogue.ts';
import { createTestShop, operator, type TestShop } from '../../helpers/shop.ts';
import { ADMIN_TOKEN, startTestApp, type TestStack } from '../../helpers/stack.ts';
import { buyer, type Buyer } from '../../helpers/storefront.ts';

/**
 * Checkout data (DESIGN.md section 10, issue 40 items 3 and 6c): the parcel locker, the invoice's
 * recipient and the order attributes, taken by the storefront cart's PATCH, the operator's
 * placement and the place-order CLI, validated, stored with the order and shown in its detail;
 * copy_of carts carry the point and the recipient. The cart's GA client id is kept on the order.
 */
let stack: TestStack;
let shop: TestShop;
let store: Buyer;
let book: number;
let courier: number;

const DATA = {
  delivery_point_code: 'KRA01M',
  invoice_recipient_name: 'Biuro Rachunkowe Nowak',
  order_attributes: [
    { name: 'gift_message', value: 'Wszystkiego najlepszego, Zosiu!' },
    { name: 'nip_confirmed', value: 'yes' },
  ],
};

beforeAll(async () => {
  stack = await startTestApp('storefront-checkout-data');
  shop = await createTestShop(stack.app, 'checkout-data');
  store = buyer(stack.app, shop.subdomain);
  book = await insertProduct(stack.orm, shop.id, { name: 'Book', price: '49.99' });
  courier = await createDeliveryType(stack.app, shop.id, { name: 'Paczkomat', default_price: '12.99' });
});
afterAll(() => stack.close());

const detailOf = async (orderId: number) => {
  const res = await stack.app.inject({ method: 'GET', url: `/api/v1/orders/${orderId}`, headers: shop.headers('read') });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
};
const storedClientId = async (orderId: number) =>
  ((await stack.orm.em.fork().getConnection().execute('select analytics_client_id from shop_orders where id = ?', [orderId])) as { analytics_client_id: string | null }[])[0]!.analytics_client_id;
const orderCount = async () => Number(((await stack.orm.em.fork().getConnection().execute('select count(*) as n from shop_orders where shop_id = ?', [shop.id])) as { n: string }[])[0]!.n);

async function newCart() {
  const res = await store.post('/carts', { items: [{ product_id: book }], email: 'zosia@example.com' });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: string };
}

async function checkOut(cartId: string) {
  const res = await store.post(`/carts/${cartId}/checkout`);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { order_id: number; uuid: string };
}

describe('PATCH /store/v1/:subdomain/carts/:cart_id with checkout data', () => {
  it('keeps the point, the recipient, the attributes and the GA client id; checkout stores them on the order and its detail shows them', async () => {
    const cart = await newCart();
    const res = await store.patch(`/carts/${cart.id}`, { ...DATA, delivery_type_id: courier, analytics_client_id: 'GA1.1.1234567890.1712345678' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ ...DATA, analytics_client_id: '1234567890.1712345678' });
    expect((await store.get(`/carts/${cart.id}`)).json().data).toMatchObject({ ...DATA, analytics_client_id: '1234567890.1712345678' });

    const placed = await checkOut(cart.id);
    expect(await detailOf(placed.order_id)).toMatchObject(DATA);
    expect(await storedClientId(placed.order_id)).toBe('1234567890.1712345678');
  });

  it('null or "" removes the point, [] the attributes; a cart without checkout data places an order without it', async () => {
    const cart = await newCart();
    expect((await store.patch(`/carts/${cart.id}`, { ...DATA, analytics_client_id: '42.1712345678' })).statusCode).toBe(200);
    const cleared = await store.patch(`/carts/${cart.id}`, { delivery_point_code: null, invoice_recipient_name: '', order_attributes: [], analytics_client_id: null });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json().data).toMatchObject({ delivery_point_code: null, invoice_recipient_name: '', order_attributes: [], analytics_client_id: null });
    expect((await store.patch(`/carts/${cart.id}`, { delivery_point_code: '' })).json().data.delivery_point_code).toBeNull();
    const placed = await checkOut(cart.id);
    expect(await detailOf(placed.order_id)).toMatchObject({ delivery_point_code: null, invoice_recipient_name: '', order_attributes: [] });
    expect(await storedClientId(placed.order_id)).toBeNull();
  });

  it('checks out a cart stored before the checkout data existed (its state has none of the fields)', async () => {
    const cart = await newCart();
    await stack.orm.em
      .fork()
      .getConnection()
      .execute(`update shop_carts set state = state - 'delivery_point_code' - 'invoice_recipient_name' - 'order_attributes' - 'analytics_client_id' where id = ?`, [cart.id]);
    expect((await store.get(`/carts/${cart.id}`)).json().data).toMatchObject({ delivery_point_code: null, invoice_recipient_name: '', order_attributes: [], analytics_client_id: null });
    const placed = await checkOut(cart.id);
    expect(await detailOf(placed.order_id)).toMatchObject({ delivery_point_code: null, invoice_recipient_name: '', order_attributes: [] });
  });

  it.each([
    ['delivery_point_code', { delivery_point_code: 'K'.repeat(256) }],
    ['delivery_point_code', { delivery_point_code: 7 }],
    ['invoice_recipient_name', { invoice_recipient_name: 'N'.repeat(256) }],
    ['invoice_recipient_name', { invoice_recipient_name: 'Nowak\u0000' }],
    ['order_attributes', { order_attributes: Array.from({ length: 101 }, (_, i) => ({ name: `a${i}`, value: 'v' })) }],
    ['order_attributes.0.name', { order_attributes: [{ name: '  ', value: 'v' }] }],
    ['order_attributes.0.value', { order_attributes: [{ name: 'note', value: 'v'.repeat(10_001) }] }],
    ['order_attributes.0.extra', { order_attributes: [{ name: 'note', value: 'v', extra: 1 }] }],
    ['analytics_client_id', { analytics_client_id: 'not-a-client-id' }],
    ['analytics_client_id', { analytics_client_id: 'GA1.1.1234567890' }],
  ])('refuses a bad %s with 422 naming it and changes nothing', async (field, body) => {
    const cart = await newCart();
    expect((await store.patch(`/carts/${cart.id}`, DATA)).statusCode).toBe(200);
    const before = (await store.get(`/carts/${cart.id}`)).json().data;
    const res = await store.patch(`/carts/${cart.id}`, body);
    expect(res.statusCode, res.body).toBe(422);
    expect(Object.keys(res.json().errors), res.body).toContain(field);
    expect((await store.get(`/carts/${cart.id}`)).json().data).toEqual(before);
  });
});

describe('POST /store/v1/:subdomain/carts with copy_of', () => {
  it("carries the order's parcel locker and invoice recipient (not its attributes nor its GA client id)", async () => {
    const cart = await newCart();
    expect((await store.patch(`/carts/${cart.id}`, { ...DATA, analytics_client_id: '42.1712345678' })).statusCode).toBe(200);
    const placed = await checkOut(cart.id);
    const copy = await store.post('/carts', { copy_of: placed.uuid });
    expect(copy.statusCode, copy.body).toBe(201);
    expect(copy.json().data).toMatchObject({
      email: 'zosia@example.com',
      delivery_point_code: 'KRA01M',
      invoice_recipient_name: 'Biuro Rachunkowe Nowak',
      order_attributes: [],
      analytics_client_id: null,
    });
  });
});

describe('POST /admin/v1/shops/:shop_id/orders with checkout data', () => {
  it('stores them with the order and answers them in the detail', async () => {
    const res = await stack.app.inject({
      method: 'POST',
      url: `/admin/v1/shops/${shop.id}/orders`,
      headers: operator,
      payload: { email: 'office@example.com', items: [{ product_id: book }], ...DATA, analytics_client_id: 'GA1.2.987654321.1600000000' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const order = res.json().data;
    expect(order).toMatchObject(DATA);
    expect(await detailOf(order.id)).toMatchObject(DATA);
    expect(await storedClientId(order.id)).toBe('987654321.1600000000');
  });

  it.each([
    ['delivery_point_code', { delivery_point_code: 'K'.repeat(256) }],
    ['invoice_recipient_name', { invoice_recipient_name: ['Nowak'] }],
    ['order_attributes.0.name', { order_attributes: [{ name: '', value: 'v' }] }],
    ['analytics_client_id', { analytics_client_id: '12345' }],
  ])('refuses a bad %s with 422 naming it and stores no order', async (field, body) => {
    const before = await orderCount();
    const res = await stack.app.inject({ method: 'POST', url: `/admin/v1/shops/${shop.id}/orders`, headers: operator, payload: { email: 'office@example.com', items: [{ product_id: book }], ...body } });
    expect(res.statusCode, res.body).toBe(422);
    expect(Object.keys(res.json().errors), res.body).toContain(field);
    expect(await orderCount()).toBe(before);
  });

  it('takes them from the place-order CLI (--delivery-point, --invoice-recipient, --attribute)', async () => {
    const baseUrl = await stack.app.listen({ port: 0, host: '127.0.0.1' });
    const cli = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'scripts/admin.ts', 'place-order', shop.id, 'cli@example.com', '--item', String(book), '--delivery-point', 'WAW-12', '--invoice-recipient', 'Jan Kowalski', '--attribute', 'gift=yes', '--attribute', 'note=a=b', '--url', baseUrl],
      { env: { ...process.env, ADMIN_TOKEN } },
    );
    const order = JSON.parse(cli.stdout).data;
    expect(order).toMatchObject({ delivery_point_code: 'WAW-12', invoice_recipient_name: 'Jan Kowalski', order_attributes: [{ name: 'gift', value: 'yes' }, { name: 'note', value: 'a=b' }] });
    expect(await detailOf(order.id)).toMatchObject({ delivery_point_code: 'WAW-12', invoice_recipient_name: 'Jan Kowalski' });
  });
});

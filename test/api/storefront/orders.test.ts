import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeliveryType, createPaymentType, insertProduct } from '../../helpers/shop-catalogue.ts';
import { createTestShop, operator, type TestShop } from '../../helpers/shop.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';
import { buyer, type Buyer } from '../../helpers/storefront.ts';

let stack: TestStack;
let shop: TestShop;
let other: TestShop;
let store: Buyer;
const ids = {} as Record<'book' | 'courier' | 'retired' | 'transfer', number>;
const address = { first_name: 'Anna', last_name: 'Nowak', address: 'Polna 2', postcode: '30-001', city: 'Kraków', country: 'PL', phone: '+48 600 000 000' };

beforeAll(async () => {
  stack = await startTestApp('storefront-orders', { storefrontUrlTemplate: 'https://{subdomain}.shop.example/' });
  [shop, other] = await Promise.all([createTestShop(stack.app, 'orders-one'), createTestShop(stack.app, 'orders-two')]);
  store = buyer(stack.app, shop.subdomain);
  ids.book = await insertProduct(stack.orm, shop.id, { name: 'Book', price: '49.99' });
  ids.courier = await createDeliveryType(stack.app, shop.id, { name: 'Courier', default_price: '12.30' });
  ids.retired = await createDeliveryType(stack.app, shop.id, { name: 'Retired', default_price: '3.00' });
  ids.transfer = await createPaymentType(stack.app, shop.id, { name: 'Transfer' });
});
afterAll(() => stack.close());

async function checkedOutOrder(delivery = ids.courier) {
  const cart = (await store.post('/carts', { items: [{ product_id: ids.book, quantity: 2 }], email: 'anna@example.com' })).json().data;
  const patched = await store.patch(`/carts/${cart.id}`, { delivery_type_id: delivery, payment_type_id: ids.transfer, delivery_address: address, invoice_address: { ...address, company: 'Nowak sp. z o.o.' } });
  expect(patched.statusCode, patched.body).toBe(200);
  const res = await store.post(`/carts/${cart.id}/checkout`);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { order_id: number; uuid: string };
}

describe('GET /store/v1/:subdomain/orders/:uuid', () => {
  it("shows the buyer's view: status, items, totals and the copy link; never placed_ip, notes or the e-mail", async () => {
    const placed = await checkedOutOrder();
    const res = await store.get(`/orders/${placed.uuid}`);
    expect(res.statusCode, res.body).toBe(200);
    const view = res.json().data;
    expect(view).toEqual({
      uuid: placed.uuid,
      ordinal_number: expect.any(Number),
      order_status: 'New',
      paid: false,
      products_cost: '99.98',
      delivery_cost: '12.30',
      payment_cost: '0.00',
      total_discount: '0.00',
      total: '112.28',
      currency: 'PLN',
      items: [{ product_id: ids.book, name: 'Book', quantity: 2, unit_price: '49.99', price: '99.98', discount: '0.00', final_price: '99.98' }],
      delivery_method: 'Courier',
      payment_method: 'Transfer',
      placed_at: expect.any(String),
      copy_url: `https://${shop.subdomain}.shop.example/cart?copy_of=${placed.uuid}`,
      invoices: [],
    });
    expect(res.body).not.toContain('placed_ip');
    expect(res.body).not.toContain('127.0.0.1');
  });

  it("answers 404 under another shop's subdomain, for an unknown uuid, and 422 for a malformed one", async () => {
    const placed = await checkedOutOrder();
    expect((await buyer(stack.app, other.subdomain).get(`/orders/${placed.uuid}`)).statusCode).toBe(404);
    expect((await store.get('/orders/00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await store.get('/orders/1')).statusCode).toBe(422);
  });
});

describe('?copy_of=<uuid>', () => {
  it('GET /api/v1/orders/:id carries copy_url; a cart made with copy_of carries the e-mail, addresses and still-active methods, no items', async () => {
    const placed = await checkedOutOrder();
    const detail = await stack.app.inject({ method: 'GET', url: `/api/v1/orders/${placed.order_id}`, headers: shop.headers() });
    expect(detail.statusCode, detail.body).toBe(200);
    const copyUrl = detail.json().data.copy_url as string;
    expect(copyUrl).toBe(`https://${shop.subdomain}.shop.example/cart?copy_of=${placed.uuid}`);

    const copyOf = new URL(copyUrl).searchParams.get('copy_of');
    const res = await store.post('/carts', { copy_of: copyOf });
    expect(res.statusCode, res.body).toBe(201);
    const cart = res.json().data;
    expect(cart).toMatchObject({
      email: 'anna@example.com',
      items: [],
      delivery_type_id: ids.courier,
      payment_type_id: ids.transfer,
      delivery_address: { ...address, company: '', nip: '', email: '' },
      invoice_address: { ...address, company: 'Nowak sp. z o.o.', nip: '', email: '' },
    });
    expect(cart.id).not.toBe(placed.uuid);

    const withItems = await store.post('/carts', { copy_of: copyOf, items: [{ product_id: ids.book }], email: 'other@example.com' });
    expect(withItems.json().data).toMatchObject({ email: 'other@example.com', items: [{ product_id: ids.book }], pricing: { delivery_cost: '12.30' } });
  });

  it('leaves out a delivery type switched off since', async () => {
    const placed = await checkedOutOrder(ids.retired);
    const off = await stack.app.inject({ method: 'PATCH', url: `/admin/v1/shops/${shop.id}/delivery_types/${ids.retired}`, headers: operator, payload: { active: false } });
    expect(off.statusCode, off.body).toBe(200);
    const cart = (await store.post('/carts', { copy_of: placed.uuid })).json().data;
    expect(cart).toMatchObject({ delivery_type_id: null, payment_type_id: ids.transfer, email: 'anna@example.com' });
  });

  it("answers 404 for an unknown order or another shop's order", async () => {
    const placed = await checkedOutOrder();
    expect((await store.post('/carts', { copy_of: '00000000-0000-4000-8000-000000000000' })).statusCode).toBe(404);
    expect((await buyer(stack.app, other.subdomain).post('/carts', { copy_of: placed.uuid })).statusCode).toBe(404);
  });
});

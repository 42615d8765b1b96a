import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../api/app.ts';
import { SHOP_SCOPES } from '../../../domain/shop/scopes.ts';
import { createDeliveryType, insertProduct } from '../../helpers/shop-catalogue.ts';
import { adminPost, createTestShop, type TestShop } from '../../helpers/shop.ts';
import { ADMIN_TOKEN, startTestApp, type TestStack } from '../../helpers/stack.ts';

let stack: TestStack;
let shop: TestShop;
let other: TestShop;
/** Placement replies, by name. */
const orders: Record<'o1' | 'o2' | 'o3' | 'foreign', { id: number; ordinal_number: number; uuid: string } & Record<string, unknown>> = {} as never;
let products: { a: number; b: number; c: number; foreignA: number };
let packedStatus: number;

const placeOrder = (shopId: string, payload: Record<string, unknown>) => adminPost(stack.app, `/admin/v1/shops/${shopId}/orders`, payload);

beforeAll(async () => {
  stack = await startTestApp('shop-orders');
  [shop, other] = await Promise.all([createTestShop(stack.app, 'orders-one'), createTestShop(stack.app, 'orders-two')]);
  const { orm } = stack;
  products = {
    a: await insertProduct(orm, shop.id, { name: 'A', sku: 'A-1', price: '10.00' }),
    b: await insertProduct(orm, shop.id, { name: 'B', sku: 'B-2', price: '20.00' }),
    c: await insertProduct(orm, shop.id, { name: 'C', sku: 'C-3', price: '30.00' }),
    foreignA: await insertProduct(orm, other.id, { name: 'Foreign A', sku: 'A-1', price: '10.00' }),
  };
  const courier = await createDeliveryType(stack.app, shop.id, { name: 'Courier', default_price: '12.00' });
  orders.o1 = await placeOrder(shop.id, { email: 'Anna@Example.com', items: [{ product_id: products.a }], delivery_type_id: courier, placed_at: '2026-01-10T22:30:00Z' });
  orders.o2 = await placeOrder(shop.id, { email: 'bob@example.com', items: [{ product_id: products.b }], placed_at: '2026-01-10T23:00:00Z' });
  orders.o3 = await placeOrder(shop.id, { email: 'bob@example.com', items: [{ product_id: products.a }, { product_id: products.c, quantity: 2 }], placed_at: '2026-02-01T12:00:00Z' });
  orders.foreign = await placeOrder(other.id, { email: 'anna@example.com', items: [{ product_id: products.foreignA }], placed_at: '2026-01-20T12:00:00Z' });
  packedStatus = (await adminPost(stack.app, `/admin/v1/shops/${shop.id}/order_statuses`, { name: 'Packed' })).id;
  // Paid and canceled states are set directly: clearing and status changes are other routes' work.
  const connection = orm.em.fork().getConnection();
  await connection.execute('update shop_orders set paid = true, paid_at = ? where id = ?', [new Date('2026-01-12T08:00:00Z'), orders.o2.id]);
  await connection.execute("update shop_orders set internal_status = 'canceled', order_status_id = ? where id = ?", [packedStatus, orders.o3.id]);
});
afterAll(() => stack.close());

const get = (url: string, key = shop.key) => stack.app.inject({ method: 'GET', url, headers: { 'x-api-key': key } });

async function listIds(query: string, key = shop.key): Promise<number[]> {
  const res = await get(`/api/v1/orders${query}`, key);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.map((o: { id: number }) => o.id);
}

describe('GET /api/v1/orders', () => {
  it('lists the shop\'s orders newest first with the spec\'s list fields and meta', async () => {
    const res = await get('/api/v1/orders');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data.map((o: { id: number }) => o.id)).toEqual([orders.o3.id, orders.o2.id, orders.o1.id]);
    expect(body.meta).toEqual({ page: 1, per_page: 25, total: 3, total_pages: 1 });
    expect(body.data[2]).toEqual({
      id: orders.o1.id,
      uuid: orders.o1.uuid,
      ordinal_number: orders.o1.ordinal_number,
      internal_status: 'placed',
      order_status: 'New',
      order_status_id: shop.statuses.New,
      email: 'anna@example.com',
      total: '22.00',
      currency: 'PLN',
      paid: false,
      invoice_number: null,
      transaction_id: null,
      paid_at: null,
      ref: null,
      subscriber_identifier: null,
      delivery_method: 'Courier',
      placed_at: '2026-01-10T22:30:00.000Z',
      created_at: expect.stringMatching(/Z$/),
      updated_at: expect.stringMatching(/Z$/),
    });
    expect(body.data[0]).toMatchObject({ order_status: 'Packed', order_status_id: packedStatus, internal_status: 'canceled' });
    expect(body.data[1]).toMatchObject({ paid: true, paid_at: '2026-01-12T08:00:00.000Z' });
  });

  it('never shows another shop\'s orders', async () => {
    expect(await listIds('', other.key)).toEqual([orders.foreign.id]);
  });

  it('paginates with page and per_page', async () => {
    const res = await get('/api/v1/orders?per_page=1&page=2');
    expect(res.json().data.map((o: { id: number }) => o.id)).toEqual([orders.o2.id]);
    expect(res.json().meta).toEqual({ page: 2, per_page: 1, total: 3, total_pages: 3 });
  });

  it('filters by status (order_status_id), internal_status and payment_status', async () => {
    expect(await listIds(`?status=${packedStatus}`)).toEqual([orders.o3.id]);
    expect(await listIds(`?status=${shop.statuses.New}`)).toEqual([orders.o2.id, orders.o1.id]);
    expect(await listIds(`?status=${other.statuses.New}`)).toEqual([]);
    expect(await listIds('?internal_status=canceled')).toEqual([orders.o3.id]);
    expect(await listIds('?internal_status=placed')).toEqual([orders.o2.id, orders.o1.id]);
    expect(await listIds('?internal_status=returned')).toEqual([]);
    expect(await listIds('?payment_status=paid')).toEqual([orders.o2.id]);
    expect(await listIds('?payment_status=unpaid')).toEqual([orders.o3.id, orders.o1.id]);
  });

  it('filters by date_from and date_to: whole days in the shop\'s time zone (Warsaw), both inclusive, on placed_at', async () => {
    expect(await listIds('?date_to=2026-01-10')).toEqual([orders.o1.id]);
    expect(await listIds('?date_from=2026-01-11')).toEqual([orders.o3.id, orders.o2.id]);
    expect(await listIds('?date_from=2026-01-10&date_to=2026-01-11')).toEqual([orders.o2.id, orders.o1.id]);
    expect(await listIds('?date_from=2026-02-01&date_to=2026-02-01')).toEqual([orders.o3.id]);
    expect(await listIds('?date_from=2026-03-01')).toEqual([]);
  });

  it('filters by customer_email: exact address, any case', async () => {
    expect(await listIds('?customer_email=ANNA@example.COM')).toEqual([orders.o1.id]);
    expect(await listIds('?customer_email=bob@example.com')).toEqual([orders.o3.id, orders.o2.id]);
    expect(await listIds('?customer_email=anna')).toEqual([]);
  });

  it('searches by order number, with or without #', async () => {
    expect(await listIds(`?search=${orders.o2.ordinal_number}`)).toEqual([orders.o2.id]);
    expect(await listIds(`?search=%23${orders.o3.ordinal_number}`)).toEqual([orders.o3.id]);
    expect(await listIds('?search=999999')).toEqual([]);
  });

  it('finds a SKU holding quotes, a backslash and braces as written', async () => {
    const own = await createTestShop(stack.app, 'orders-sku');
    const sku = 'Q"\\{x} y';
    const odd = await insertProduct(stack.orm, own.id, { name: 'Odd', sku, price: '5.00' });
    const order = await placeOrder(own.id, { email: 'odd@example.com', items: [{ product_id: odd }] });
    expect(await listIds(`?sku=${encodeURIComponent(sku)}`, own.key)).toEqual([order.id]);
    expect(await listIds(`?sku=${encodeURIComponent('Q"\\{x}')}`, own.key)).toEqual([]);
  });

  it('filters by product_id and sku, one value or a comma-separated list (orders holding any of them)', async () => {
    expect(await listIds(`?product_id=${products.a}`)).toEqual([orders.o3.id, orders.o1.id]);
    expect(await listIds(`?product_id=${products.b},${products.c}`)).toEqual([orders.o3.id, orders.o2.id]);
    expect(await listIds(`?product_id=${products.foreignA}`)).toEqual([]);
    expect(await listIds('?sku=A-1')).toEqual([orders.o3.id, orders.o1.id]);
    expect(await listIds('?sku=B-2,C-3')).toEqual([orders.o3.id, orders.o2.id]);
    expect(await listIds('?sku=A-1', other.key)).toEqual([orders.foreign.id]);
    expect(await listIds(`?sku=A-1&payment_status=unpaid&date_to=2026-01-31`)).toEqual([orders.o1.id]);
  });

  it('answers 422 naming the parameter for every invalid filter value', async () => {
    const cases: [string, string][] = [
      ['status=abc', 'status'],
      ['status=-1', 'status'],
      ['status=1.5', 'status'],
      ['internal_status=done', 'internal_status'],
      ['payment_status=yes', 'payment_status'],
      ['date_from=2026-13-01', 'date_from'],
      ['date_to=2026-02-30', 'date_to'],
      ['date_from=01-02-2026', 'date_from'],
      ['date_from=2026-02-02&date_to=2026-02-01', 'date_to'],
      ['search=abc', 'search'],
      ['product_id=1,x', 'product_id'],
      ['product_id=', 'product_id'],
      ['product_id=99999999999', 'product_id'],
      ['sku=a%00b', 'sku'],
      ['customer_email=a%00b', 'customer_email'],
      ['per_page=101', 'per_page'],
      ['page=0', 'page'],
      ['status=1&status=2', 'status'],
      ['colour=red', 'colour'],
    ];
    for (const [query, field] of cases) {
      const res = await get(`/api/v1/orders?${query}`);
      expect(res.statusCode, query).toBe(422);
      expect(Object.keys(res.json().errors).join(' '), query).toContain(field);
    }
  });

  it('needs scope read: every other single-scope key gets 403', async () => {
    for (const scope of SHOP_SCOPES) {
      expect((await get('/api/v1/orders', shop.keys[scope])).statusCode, scope).toBe(scope === 'read' ? 200 : 403);
      expect((await get(`/api/v1/orders/${orders.o1.id}`, shop.keys[scope])).statusCode, scope).toBe(scope === 'read' ? 200 : 403);
    }
    expect((await get('/api/v1/orders', 'sk_wrong')).statusCode).toBe(401);
  });
});

describe('GET /api/v1/orders/:id', () => {
  it('answers the same detail the placement answered, every field of the spec, with the storefront copy link', async () => {
    const res = await get(`/api/v1/orders/${orders.o1.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ ...orders.o1, copy_url: `http://${shop.subdomain}.localhost:8080/cart?copy_of=${orders.o1.uuid}` });
    expect(Object.keys(res.json().data).sort()).toEqual(
      [
        'id', 'uuid', 'ordinal_number', 'internal_status', 'order_status', 'order_status_id', 'email', 'total', 'currency', 'paid', 'invoice_number',
        'transaction_id', 'paid_at', 'ref', 'subscriber_identifier', 'delivery_method', 'placed_at', 'created_at', 'updated_at',
        'products_cost', 'delivery_cost', 'payment_cost', 'gift_packing_cost', 'total_discount', 'delivery_vat_rate', 'payment_vat_rate', 'discount_code',
        'cash_on_delivery', 'comment', 'delivery_point_code', 'tracking_number', 'tracking_url', 'items', 'delivery_address', 'invoice_address',
        'invoice_recipient_name', 'placed_ip', 'order_attributes', 'notes', 'copy_url',
      ].sort(),
    );
    expect(res.json().data).toMatchObject({ products_cost: '10.00', delivery_cost: '12.00', total: '22.00', delivery_vat_rate: 23, payment_vat_rate: null, delivery_address: null, placed_ip: null });
  });

  it('shows the lines of a several-line order with their amounts', async () => {
    const items = (await get(`/api/v1/orders/${orders.o3.id}`)).json().data.items;
    expect(items.map((i: Record<string, unknown>) => [i.sku, i.quantity, i.unit_price, i.price, i.final_price])).toEqual([
      ['A-1', 1, '10.00', '10.00', '10.00'],
      ['C-3', 2, '30.00', '60.00', '60.00'],
    ]);
  });

  it('answers 404 for another shop\'s order or an unknown one, 422 for an id that is not a positive integer', async () => {
    expect((await get(`/api/v1/orders/${orders.foreign.id}`)).statusCode).toBe(404);
    expect((await get(`/api/v1/orders/${orders.o1.id}`, other.key)).statusCode).toBe(404);
    expect((await get('/api/v1/orders/2000000000')).statusCode).toBe(404);
    for (const id of ['-1', '1.5', 'abc', '99999999999']) expect((await get(`/api/v1/orders/${id}`)).statusCode, id).toBe(422);
  });
});

describe('the uuid is a secret', () => {
  it('never reaches the request log of a placement, the list or the detail', async () => {
    const lines: string[] = [];
    const app = await buildApp({ orm: stack.orm, temporal: stack.temporal, taskQueue: stack.taskQueue, adminToken: ADMIN_TOKEN, rateLimits: { enabled: false }, logLevel: 'trace', logStream: { write: (line) => lines.push(line) } });
    try {
      const placed = await app.inject({
        method: 'POST',
        url: `/admin/v1/shops/${shop.id}/orders`,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        payload: { email: 'log@example.com', items: [{ product_id: products.a }] },
      });
      expect(placed.statusCode).toBe(201);
      const { id, uuid } = placed.json().data;
      expect((await app.inject({ method: 'GET', url: '/api/v1/orders', headers: { 'x-api-key': shop.key } })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: `/api/v1/orders/${id}`, headers: { 'x-api-key': shop.key } })).statusCode).toBe(200);
      expect(lines.length).toBeGreaterThan(0);
      expect(lines.join('\n')).not.toContain(uuid);
    } finally {
      await app.close();
    }
  });
});

describe('OpenAPI', () => {
  it('documents the orders routes and the operator placement from their zod schemas', async () => {
    const res = await stack.app.inject({ method: 'GET', url: '/docs/json' });
    expect(res.statusCode).toBe(200);
    const paths = res.json().paths;
    expect(paths['/api/v1/orders'].get.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['status', 'internal_status', 'payment_status', 'date_from', 'date_to', 'customer_email', 'search', 'product_id', 'sku', 'page', 'per_page']),
    );
    expect(paths['/api/v1/orders/{id}'].get).toBeDefined();
    expect(paths['/admin/v1/shops/{shop_id}/orders'].post).toBeDefined();
  });
});

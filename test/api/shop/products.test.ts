import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ElectronicContent, Order, OrderItem, ShopFile } from '../../../db/entities/shop/index.ts';
import { GIF_1X1, JPEG_1X1, PNG_1X1, upload } from '../../helpers/images.ts';
import { adminPost, createTestShop, type TestShop } from '../../helpers/shop.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';

let stack: TestStack;
let shop: TestShop;
let other: TestShop;
let ref: { delivery: number; payment: number; books: number; audio: number; otherDelivery: number; otherCategory: number };

beforeAll(async () => {
  stack = await startTestApp('shop-products');
  [shop, other] = await Promise.all([createTestShop(stack.app, 'prod-one'), createTestShop(stack.app, 'prod-two')]);
  const base = `/admin/v1/shops/${shop.id}`;
  const [delivery, payment, books, audio, otherDelivery, otherCategory] = await Promise.all([
    adminPost(stack.app, `${base}/delivery_types`, { name: 'Courier', default_price: '12.00' }),
    adminPost(stack.app, `${base}/payment_types`, { name: 'Transfer' }),
    adminPost(stack.app, `${base}/product_categories`, { name: 'Books' }),
    adminPost(stack.app, `${base}/product_categories`, { name: 'Audio' }),
    adminPost(stack.app, `/admin/v1/shops/${other.id}/delivery_types`, { name: 'Theirs', default_price: '1.00' }),
    adminPost(stack.app, `/admin/v1/shops/${other.id}/product_categories`, { name: 'Theirs' }),
  ]);
  ref = { delivery: delivery.id, payment: payment.id, books: books.id, audio: audio.id, otherDelivery: otherDelivery.id, otherCategory: otherCategory.id };
});
afterAll(() => stack.close());

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const call = (method: Method, url: string, payload?: unknown, headers = shop.headers()) =>
  stack.app.inject({ method, url: `/api/v1${url}`, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
const create = async (body: Record<string, unknown>, as = shop) => {
  const res = await call('POST', '/products', body, as.headers());
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
};
const errorFields = (res: { json(): any }) => Object.keys(res.json().errors ?? {});
const photoPath = (url: string) => new URL(url).pathname;

/** An order line pointing at the product, as order placement would leave it. */
async function orderFor(shopId: string, statusId: number, productId: number) {
  const em = stack.orm.em.fork();
  const money = '10.00';
  const order = em.create(Order, {
    shop: shopId, uuid: randomUUID(), ordinalNumber: Math.floor(Math.random() * 1e9), orderStatus: statusId, email: 'b@example.com', currency: 'PLN',
    productsCost: money, deliveryCost: '0.00', paymentCost: '0.00', totalDiscount: '0.00', total: money, orderAttributes: [], notes: [], placedAt: new Date(),
  });
  em.create(OrderItem, { shop: shopId, order, productId, name: 'x', quantity: 1, unitPrice: money, vatRate: 23, price: money, discount: '0.00', finalPrice: money });
  await em.flush();
}

describe('POST /api/v1/products', () => {
  it('creates a product from name and price with the defaults, answered in the spec shape', async () => {
    const product = await create({ name: 'Book', price: '49.9' });
    expect(product).toMatchObject({
      name: 'Book', price: '49.90', sku: '', vat_rate: 23, active: true, electronic: false, distribution: 'normal', category: '', category_id: null,
      ean: null, gtu_code: null, minimal_price: null, delivery_type_ids: [], payment_type_ids: [], product_category_ids: [], feed_category_id: null,
      lump_code: '', photo_url: '', payment_return_url: null, cart_quantity_limit: null, course_access: [],
    });
    expect(Object.keys(product).sort()).toEqual(
      [
        'id', 'name', 'sku', 'price', 'vat_rate', 'active', 'electronic', 'distribution', 'description', 'description_for_cart', 'category', 'category_id', 'ean',
        'producer', 'invoice_item_name', 'pkwiu', 'product_link', 'gtu_code', 'regular_price_displayed', 'allow_price_change', 'minimal_price',
        'allow_zero_minimal_price', 'delivery_type_ids', 'payment_type_ids', 'cart_quantity_limit', 'lump_code', 'product_category_ids', 'feed_category_id',
        'photo_url', 'hide_in_xmls', 'no_invoice', 'hide_invoice_address_fields', 'payment_return_url', 'created_at', 'updated_at',
        // Beyond the spec (issue 14): the courses of the linked platform the product grants.
        'course_access',
      ].sort(),
    );
  });

  it('takes every write field; product_category_id comes back as feed_category_id, apart from product_category_ids', async () => {
    const body = {
      name: 'Course', price: 100, sku: 'C-1', vat_rate: '8', active: false, description: '<p>x</p>', description_for_cart: 'cart', electronic_product: true,
      distribution: 'course', producer: 'Me', ean: '5901234123457', invoice_item_name: 'Course inv', pkwiu: '58.11', product_link: 'https://shop.example/c',
      gtu_code: 'GTU_12', regular_price_displayed: '120', allow_price_change: true, minimal_price: '50', allow_zero_minimal_price: false,
      delivery_type_ids: [ref.delivery], payment_type_ids: [ref.payment], product_category_id: ref.audio, product_category_ids: [ref.books, ref.audio],
      cart_quantity_limit: 3, lump_code: 8.5, hide_in_xmls: true, no_invoice: true, hide_invoice_address_fields: true, payment_return_url: 'https://shop.example/thanks',
    };
    const product = await create(body);
    expect(product).toMatchObject({
      price: '100.00', vat_rate: 8, active: false, electronic: true, distribution: 'course', ean: '5901234123457', gtu_code: 'GTU_12',
      regular_price_displayed: '120.00', minimal_price: '50.00', lump_code: '8.5', feed_category_id: ref.audio, product_category_ids: [ref.books, ref.audio],
      category: 'Books', category_id: ref.books, delivery_type_ids: [ref.delivery], payment_type_ids: [ref.payment], cart_quantity_limit: 3,
      hide_in_xmls: true, no_invoice: true, hide_invoice_address_fields: true, payment_return_url: 'https://shop.example/thanks', pkwiu: '58.11',
    });
    const read = await call('GET', `/products/${product.id}`);
    expect(read.json().data).toEqual(product);
  });

  it.each([
    ['name missing', { price: '1' }, 'name'],
    ['empty name', { name: '  ', price: '1' }, 'name'],
    ['price missing', { name: 'x' }, 'price'],
    ['negative price', { name: 'x', price: '-1' }, 'price'],
    ['price with 3 decimals', { name: 'x', price: '1.005' }, 'price'],
    ['ean of 12 digits', { name: 'x', price: '1', ean: '590123412345' }, 'ean'],
    ['ean with a letter', { name: 'x', price: '1', ean: '590123412345a' }, 'ean'],
    ['gtu_code GTU_14', { name: 'x', price: '1', gtu_code: 'GTU_14' }, 'gtu_code'],
    ['lump_code 16', { name: 'x', price: '1', lump_code: 16 }, 'lump_code'],
    ['lump_code "12.4"', { name: 'x', price: '1', lump_code: '12.4' }, 'lump_code'],
    ['vat_rate 101', { name: 'x', price: '1', vat_rate: '101' }, 'vat_rate'],
    ['vat_rate 7.5', { name: 'x', price: '1', vat_rate: 7.5 }, 'vat_rate'],
    ['distribution ebook', { name: 'x', price: '1', distribution: 'ebook' }, 'distribution'],
    ['a relative product_link', { name: 'x', price: '1', product_link: '/p' }, 'product_link'],
    ['a javascript payment_return_url', { name: 'x', price: '1', payment_return_url: 'javascript:alert(1)' }, 'payment_return_url'],
    ['minimal_price above price', { name: 'x', price: '10', allow_price_change: true, minimal_price: '11' }, 'minimal_price'],
    ['minimal_price 0 without allow_zero', { name: 'x', price: '10', allow_price_change: true, minimal_price: '0' }, 'minimal_price'],
    ['an unknown field', { name: 'x', price: '1', colour: 'red' }, 'colour'],
    ['a string for active', { name: 'x', price: '1', active: 'yes' }, 'active'],
    ['a number for name', { name: 5, price: '1' }, 'name'],
    ['an object for price', { name: 'x', price: { a: 1 } }, 'price'],
    ['a fractional id', { name: 'x', price: '1', delivery_type_ids: [1.5] }, 'delivery_type_ids.0'],
    ['a negative id', { name: 'x', price: '1', product_category_id: -1 }, 'product_category_id'],
    ['cart_quantity_limit 0', { name: 'x', price: '1', cart_quantity_limit: 0 }, 'cart_quantity_limit'],
    ['a NUL byte in name', { name: 'a\u0000b', price: '1' }, 'name'],
    ['a NUL byte in description', { name: 'x', price: '1', description: '\u0000' }, 'description'],
    ['a NUL byte in search-like sku', { name: 'x', price: '1', sku: 'a\u0000' }, 'sku'],
    ['a huge name', { name: 'x'.repeat(300), price: '1' }, 'name'],
    ['a huge description', { name: 'x', price: '1', description: 'x'.repeat(100_001) }, 'description'],
  ])('refuses %s with 422 naming the field', async (_label, body, field) => {
    const res = await call('POST', '/products', body);
    expect(res.statusCode, res.body).toBe(422);
    expect(errorFields(res)).toContain(field);
  });

  it('accepts lump_code and vat_rate as text or number', async () => {
    expect((await create({ name: 'a', price: '1', lump_code: '12.50', vat_rate: 5 })).lump_code).toBe('12.5');
    expect((await create({ name: 'b', price: '1', lump_code: 17, vat_rate: '0' })).vat_rate).toBe(0);
  });

  it('refuses unknown and other-shop ids with 422 naming each field, storing nothing', async () => {
    const before = (await call('GET', '/products?per_page=1')).json().meta.total;
    const res = await call('POST', '/products', {
      name: 'x', price: '1', delivery_type_ids: [ref.otherDelivery], payment_type_ids: [999_999_999], product_category_ids: [ref.books, ref.otherCategory],
      product_category_id: ref.otherCategory,
    });
    expect(res.statusCode).toBe(422);
    expect(errorFields(res).sort()).toEqual(['delivery_type_ids', 'payment_type_ids', 'product_category_id', 'product_category_ids']);
    expect(res.json().errors.product_category_ids[0]).toContain(String(ref.otherCategory));
    expect((await call('GET', '/products?per_page=1')).json().meta.total).toBe(before);
  });

  it('answers 415 without JSON and 422 for malformed JSON', async () => {
    const text = await stack.app.inject({ method: 'POST', url: '/api/v1/products', headers: { 'x-api-key': shop.key, 'content-type': 'text/plain' }, payload: 'x' });
    expect(text.statusCode).toBe(415);
    const bad = await stack.app.inject({ method: 'POST', url: '/api/v1/products', headers: shop.headers(), payload: '{"name":' });
    expect(bad.statusCode).toBe(422);
  });
});

describe('GET /api/v1/products', () => {
  let filterShop: TestShop;
  let cat: number;
  beforeAll(async () => {
    filterShop = await createTestShop(stack.app, 'prod-list');
    cat = (await adminPost(stack.app, `/admin/v1/shops/${filterShop.id}/product_categories`, { name: 'C' })).id;
    const other = (await adminPost(stack.app, `/admin/v1/shops/${filterShop.id}/product_categories`, { name: 'D' })).id;
    for (const [name, sku, active, categories] of [
      ['Alpha 100%', 'A_1', true, [cat]],
      ['Beta', 'B-2', false, [other, cat]],
      ['Gamma', 'alpha-sku', true, [other]],
      ['Delta', 'D', true, []],
    ] as const) {
      await create({ name, sku, price: '1', active, product_category_ids: categories }, filterShop);
    }
  });
  const list = async (query: string) => {
    const res = await call('GET', `/products${query}`, undefined, filterShop.headers('read'));
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const names = async (query: string) => (await list(query)).data.map((p: { name: string }) => p.name);

  it('lists the shop products with meta', async () => {
    const body = await list('');
    expect(body.meta).toEqual({ page: 1, per_page: 25, total: 4, total_pages: 1 });
    expect(body.data.map((p: { name: string }) => p.name)).toEqual(['Alpha 100%', 'Beta', 'Gamma', 'Delta']);
  });

  it('filters by active as text, by main category, by name or SKU case-insensitively', async () => {
    expect(await names('?active=false')).toEqual(['Beta']);
    expect(await names('?active=true')).toEqual(['Alpha 100%', 'Gamma', 'Delta']);
    expect(await names(`?category_id=${cat}`)).toEqual(['Alpha 100%', 'Beta']);
    expect(await names('?search=ALPHA')).toEqual(['Alpha 100%', 'Gamma']);
    expect(await names('?search=b-2')).toEqual(['Beta']);
    expect(await names(`?search=alpha&active=true&category_id=${cat}`)).toEqual(['Alpha 100%']);
  });

  it('takes % and _ in search literally', async () => {
    expect(await names('?search=%25')).toEqual(['Alpha 100%']);
    expect(await names('?search=_')).toEqual(['Alpha 100%']);
    expect(await names('?search=a_1')).toEqual(['Alpha 100%']);
  });

  it('paginates', async () => {
    const body = await list('?per_page=3&page=2');
    expect(body.meta).toEqual({ page: 2, per_page: 3, total: 4, total_pages: 2 });
    expect(body.data.map((p: { name: string }) => p.name)).toEqual(['Delta']);
  });

  it.each(['?active=yes', '?category_id=abc', '?category_id=-1', '?per_page=101', '?page=0', '?search=a%00b', `?search=${'x'.repeat(300)}`])(
    'refuses %s with 422',
    async (query) => {
      const res = await call('GET', `/products${query}`, undefined, filterShop.headers('read'));
      expect(res.statusCode, res.body).toBe(422);
    },
  );
});

describe('PATCH /api/v1/products/:id', () => {
  it('changes only the fields sent', async () => {
    const product = await create({ name: 'P', price: '10', sku: 'S', ean: '5901234123457', product_category_ids: [ref.books] });
    const res = await call('PATCH', `/products/${product.id}`, { price: '12.5', product_category_id: ref.books, ean: null });
    expect(res.statusCode, res.body).toBe(200);
    const patched = res.json().data;
    expect(patched).toMatchObject({ name: 'P', sku: 'S', price: '12.50', feed_category_id: ref.books, product_category_ids: [ref.books], ean: null });
    const { price: _p, feed_category_id: _f, ean: _e, updated_at: _u, ...rest } = patched;
    const { price: _p2, feed_category_id: _f2, ean: _e2, updated_at: _u2, ...restBefore } = product;
    expect(rest).toEqual(restBefore);
    expect((await call('PATCH', `/products/${product.id}`, {})).json().data.price).toBe('12.50');
  });

  it('checks the rules against the product after the change', async () => {
    const product = await create({ name: 'P', price: '10', allow_price_change: true, minimal_price: '5' });
    const res = await call('PATCH', `/products/${product.id}`, { price: '4' });
    expect(res.statusCode).toBe(422);
    expect(errorFields(res)).toEqual(['minimal_price']);
    const refused = await call('PATCH', `/products/${product.id}`, { payment_type_ids: [ref.payment, 2_000_000_000], name: '' });
    expect(errorFields(refused).sort()).toEqual(['name']);
    const foreign = await call('PATCH', `/products/${product.id}`, { delivery_type_ids: [ref.otherDelivery] });
    expect(errorFields(foreign)).toEqual(['delivery_type_ids']);
    expect((await call('GET', `/products/${product.id}`)).json().data.price).toBe('10.00');
  });
});

describe('product photo', () => {
  it('stores a PNG decided from the bytes, serves it at photo_url without a key, replaces and removes it', async () => {
    const product = await create({ name: 'Photo', price: '1', photo: upload(PNG_1X1, 'p.jpg', 'image/jpeg') });
    expect(product.photo_url).toMatch(/^http:\/\/.+\/shop_files\/[0-9a-f-]{36}$/);
    const served = await stack.app.inject({ method: 'GET', url: photoPath(product.photo_url) });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(PNG_1X1)).toBe(true);

    const replaced = (await call('PATCH', `/products/${product.id}`, { photo: upload(JPEG_1X1, 'p.png', 'image/png') })).json().data;
    expect(replaced.photo_url).not.toBe(product.photo_url);
    const jpeg = await stack.app.inject({ method: 'GET', url: photoPath(replaced.photo_url) });
    expect(jpeg.headers['content-type']).toBe('image/jpeg');
    expect((await stack.app.inject({ method: 'GET', url: photoPath(product.photo_url) })).statusCode).toBe(404);

    const removed = (await call('PATCH', `/products/${product.id}`, { photo: null })).json().data;
    expect(removed.photo_url).toBe('');
    expect((await stack.app.inject({ method: 'GET', url: photoPath(replaced.photo_url) })).statusCode).toBe(404);
    const fileId = photoPath(replaced.photo_url).split('/').pop()!;
    expect(await stack.orm.em.fork().findOne(ShopFile, fileId, { filters: false })).toBeNull();
  });

  it.each([
    ['a GIF called .png', upload(GIF_1X1, 'x.png', 'image/png'), 'photo'],
    ['text', upload(Buffer.from('hello'), 'x.png'), 'photo'],
    ['broken base64', { filename: 'x.png', data: '%%%' }, 'photo'],
    ['a missing filename', { data: PNG_1X1.toString('base64') }, 'photo.filename'],
    ['an unknown member', { ...upload(PNG_1X1), extra: 1 }, 'photo.extra'],
    ['a string', 'abc', 'photo'],
  ])('refuses %s with 422 naming the field', async (_label, photo, field) => {
    const res = await call('POST', '/products', { name: 'x', price: '1', photo });
    expect(res.statusCode, res.body).toBe(422);
    expect(errorFields(res)).toContain(field);
  });

  it('answers 404 for an unknown or malformed file id', async () => {
    expect((await stack.app.inject({ method: 'GET', url: `/shop_files/${randomUUID()}` })).statusCode).toBe(404);
    expect((await stack.app.inject({ method: 'GET', url: '/shop_files/abc' })).statusCode).toBeLessThan(500);
  });
});

describe('DELETE /api/v1/products/:id', () => {
  it('removes a product without orders, with its photo', async () => {
    const product = await create({ name: 'Gone', price: '1', photo: upload(PNG_1X1) });
    const res = await call('DELETE', `/products/${product.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { id: product.id, deleted: true, hidden: false } });
    expect((await call('GET', `/products/${product.id}`)).statusCode).toBe(404);
    expect((await stack.app.inject({ method: 'GET', url: photoPath(product.photo_url) })).statusCode).toBe(404);
    expect((await call('DELETE', `/products/${product.id}`)).statusCode).toBe(404);
  });

  it('hides a product with orders: out of lists, 404 on reads, the row kept', async () => {
    const product = await create({ name: 'Ordered', price: '10' });
    await orderFor(shop.id, shop.statuses.New!, product.id);
    const res = await call('DELETE', `/products/${product.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id: product.id, deleted: false, hidden: true, message: expect.any(String) });
    expect((await call('GET', `/products/${product.id}`)).statusCode).toBe(404);
    const all = (await call('GET', '/products?per_page=100&search=Ordered')).json().data;
    expect(all.map((p: { id: number }) => p.id)).not.toContain(product.id);
    expect((await call('PATCH', `/products/${product.id}`, { name: 'x' })).statusCode).toBe(404);
  });
});

describe('POST /api/v1/products/:id/clone', () => {
  it('copies settings, photo, files, methods and categories into an inactive "Kopia: <name>"', async () => {
    const source = await create({
      name: 'Original', price: '20', sku: 'O', delivery_type_ids: [ref.delivery], payment_type_ids: [ref.payment], product_category_ids: [ref.audio],
      product_category_id: ref.books, lump_code: '3', photo: upload(PNG_1X1), electronic_product: true,
    });
    const em = stack.orm.em.fork();
    const file = em.create(ShopFile, { shop: shop.id, storageKey: `shop/${shop.id}/x`, filename: 'b.pdf', contentType: 'application/pdf', byteSize: 3 });
    em.create(ElectronicContent, { shop: shop.id, product: source.id, file, daysToExpire: 5, usagesToExpire: 3, watermark: '{{EMAIL}}' });
    await em.flush();

    const res = await call('POST', `/products/${source.id}/clone`, {});
    expect(res.statusCode, res.body).toBe(201);
    const clone = res.json().data;
    const { id, name, active, created_at: _ca, updated_at: _ua, ...settings } = clone;
    const { id: _i, name: _n, active: _a, created_at: _c, updated_at: _u, ...sourceSettings } = source;
    expect({ id, name, active }).toEqual({ id: expect.any(Number), name: 'Kopia: Original', active: false });
    expect(id).not.toBe(source.id);
    expect(settings).toEqual(sourceSettings);
    const contents = await stack.orm.em.fork().find(ElectronicContent, { product: id }, { filters: false });
    expect(contents).toHaveLength(1);
    expect(contents[0]).toMatchObject({ daysToExpire: 5, usagesToExpire: 3, watermark: '{{EMAIL}}' });
    expect(contents[0]!.file.id).toBe(file.id);

    const named = await call('POST', `/products/${source.id}/clone`, { name: 'Second', active: true });
    expect(named.json().data).toMatchObject({ name: 'Second', active: true });
    // The photo is shared: removing it from the clone keeps the original's.
    await call('PATCH', `/products/${id}`, { photo: null });
    expect((await stack.app.inject({ method: 'GET', url: photoPath(source.photo_url) })).statusCode).toBe(200);
  });

  it('refuses unknown fields and wrong types with 422', async () => {
    const source = await create({ name: 'S', price: '1' });
    const res = await call('POST', `/products/${source.id}/clone`, { name: '', active: 'yes', price: '2' });
    expect(res.statusCode).toBe(422);
    expect(errorFields(res).sort()).toEqual(['active', 'name', 'price']);
  });
});

describe('tenants, scopes and hostile ids', () => {
  it('another shop sees none of these products: 404 on every route, absent from its list', async () => {
    const mine = await create({ name: 'Mine only', price: '1' });
    const theirs = other.headers();
    for (const [method, url, body] of [
      ['GET', `/products/${mine.id}`],
      ['PATCH', `/products/${mine.id}`, { name: 'x' }],
      ['DELETE', `/products/${mine.id}`],
      ['POST', `/products/${mine.id}/clone`, {}],
    ] as const) {
      const res = await call(method, url, body, theirs);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toHaveProperty('error');
    }
    const list = (await call('GET', '/products?per_page=100', undefined, theirs)).json().data;
    expect(list.map((p: { id: number }) => p.id)).not.toContain(mine.id);
    expect((await call('GET', `/products/${mine.id}`)).json().data.name).toBe('Mine only');
  });

  it('reads need read, writes need write_data (403 {error} otherwise)', async () => {
    const product = await create({ name: 'Scoped', price: '1' });
    const routes = [
      ['GET', '/products', undefined, 'read'],
      ['GET', `/products/${product.id}`, undefined, 'read'],
      ['POST', '/products', { name: 'n', price: '1' }, 'write_data'],
      ['PATCH', `/products/${product.id}`, { name: 'n' }, 'write_data'],
      ['POST', `/products/${product.id}/clone`, {}, 'write_data'],
    ] as const;
    for (const [method, url, body, needed] of routes) {
      for (const scope of ['read', 'write_data', 'write_subscriptions', 'write_config', 'write_storefront'] as const) {
        const res = await call(method, url, body, shop.headers(scope));
        if (scope === needed) expect(res.statusCode, `${method} ${url} ${scope}`).toBeLessThan(300);
        else {
          expect(res.statusCode, `${method} ${url} ${scope}`).toBe(403);
          expect(res.json()).toHaveProperty('error');
        }
      }
    }
    expect((await call('DELETE', `/products/${product.id}`, undefined, shop.headers('read'))).statusCode).toBe(403);
    expect((await call('DELETE', `/products/${product.id}`, undefined, shop.headers('write_data'))).statusCode).toBe(200);
    expect((await stack.app.inject({ method: 'GET', url: '/api/v1/products' })).statusCode).toBe(401);
  });

  it.each(['-1', '0', '1.5', 'abc', '99999999999', '2147483648', '1e3', '%00'])('answers 404 for the id %s on every route', async (id) => {
    for (const [method, url, body] of [
      ['GET', `/products/${id}`],
      ['PATCH', `/products/${id}`, { name: 'x' }],
      ['DELETE', `/products/${id}`],
      ['POST', `/products/${id}/clone`, {}],
    ] as const) {
      const res = await call(method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
  });
});

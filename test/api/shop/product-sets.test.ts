import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShopScope } from '../../../domain/shop/scopes.ts';
import { createPaymentType, insertProduct } from '../../helpers/shop-catalogue.ts';
import { adminPost, createTestShop, type TestShop } from '../../helpers/shop.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';
import { writeThenRead } from '../../../api/shop/shared/item-list.ts';

let stack: TestStack;
let shop: TestShop;
let other: TestShop;
const ref = {} as Record<'a' | 'b' | 'c' | 'hidden' | 'otherProduct' | 'category' | 'otherCategory' | 'payment' | 'otherPayment', number>;

beforeAll(async () => {
  stack = await startTestApp('shop-product-sets');
  [shop, other] = await Promise.all([createTestShop(stack.app, 'sets-one'), createTestShop(stack.app, 'sets-two')]);
  ref.a = await insertProduct(stack.orm, shop.id, { name: 'Book A' });
  ref.b = await insertProduct(stack.orm, shop.id, { name: 'Book B' });
  ref.c = await insertProduct(stack.orm, shop.id, { name: 'Book C' });
  ref.hidden = await insertProduct(stack.orm, shop.id, { hidden: true });
  ref.otherProduct = await insertProduct(stack.orm, other.id);
  ref.category = (await adminPost(stack.app, `/admin/v1/shops/${shop.id}/product_categories`, { name: 'Bundles' })).id;
  ref.otherCategory = (await adminPost(stack.app, `/admin/v1/shops/${other.id}/product_categories`, { name: 'Bundles' })).id;
  ref.payment = await createPaymentType(stack.app, shop.id);
  ref.otherPayment = await createPaymentType(stack.app, other.id);
});
afterAll(() => stack.close());

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, scope?: ShopScope, on = shop) =>
  stack.app.inject({ method, url: `/api/v1${url}`, headers: on.headers(scope), ...(payload === undefined ? {} : { payload: payload as object }) });

const pair = () => [{ product_id: ref.a }, { product_id: ref.b }];

async function create(fields: Record<string, unknown>, on = shop) {
  const res = await call('POST', '/product_sets', { product_set: { name: 'Duo', price: '30.00', items: pair(), ...fields } }, undefined, on);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
}

async function refused(method: 'POST' | 'PATCH', url: string, fields: Record<string, unknown>) {
  const res = await call(method, url, { product_set: fields });
  expect(res.statusCode, res.body).toBe(422);
  return res.json().errors as Record<string, string[]>;
}

describe('POST /api/v1/product_sets', () => {
  it('creates a set with the defaults of the spec and product names on the items', async () => {
    const set = await create({ name: 'Two books' });
    expect(set).toMatchObject({
      name: 'Two books', slug: 'two-books', price: '30.00', active: true, priority: 0, auto_calculate_prices: true, link_only_discount: false,
      pool_mode: false, pool_pick_count: null, custom_payment_types: false, payment_type_ids: [], expose_in_feeds: false, feed_description: '',
      ean: null, google_product_category: '', producer: '', product_category_id: null,
    });
    expect(set.items).toEqual([
      { id: expect.any(Number), product_id: ref.a, product_name: 'Book A', quantity: 1, custom_price: null },
      { id: expect.any(Number), product_id: ref.b, product_name: 'Book B', quantity: 1, custom_price: null },
    ]);
    expect((await call('GET', `/product_sets/${set.id}`)).json().data).toEqual(set);
  });

  it('stores every field, custom prices that sum to the price, and ignores nothing', async () => {
    const fields = {
      name: 'Pool of three', price: '45.5', active: false, priority: 7, auto_calculate_prices: false, link_only_discount: true, pool_mode: true,
      pool_pick_count: 2, custom_payment_types: true, payment_type_ids: [ref.payment], expose_in_feeds: true, feed_description: 'Pick two',
      ean: '5901234123457', google_product_category: 'Media > Books', producer: 'House', product_category_id: ref.category,
      items: [{ product_id: ref.a, quantity: 2, custom_price: '10.25' }, { product_id: ref.b, custom_price: '25' }],
    };
    const set = await create(fields);
    expect(set).toMatchObject({ ...fields, price: '45.50', items: [{ quantity: 2, custom_price: '10.25' }, { quantity: 1, custom_price: '25.00' }] });
  });

  it('makes the slug unique in the shop and never from nothing', async () => {
    const first = await create({ name: 'Zestaw Łódź' });
    const second = await create({ name: 'Zestaw  łódź!' });
    expect(first.slug).toMatch(/^zestaw-lodz(-\d+)?$/);
    expect(second.slug).not.toBe(first.slug);
    expect((await create({ name: '***' })).slug).toMatch(/^set(-\d+)?$/);
    expect((await create({ name: 'Zestaw Łódź', items: [{ product_id: ref.otherProduct, quantity: 2 }] }, other)).slug).toBe('zestaw-lodz');
  });

  it('gives two sets with one name made at once two slugs', async () => {
    const name = `Race ${Date.now()}`;
    const sets = await Promise.all([create({ name }), create({ name }), create({ name })]);
    expect(new Set(sets.map((s) => s.slug)).size).toBe(3);
  });

  it.each([
    ['name missing', { price: '1', items: [{ product_id: 1, quantity: 2 }] }, 'name'],
    ['price missing', { name: 'x', items: [{ product_id: 1, quantity: 2 }] }, 'price'],
    ['items missing', { name: 'x', price: '1' }, 'items'],
    ['a negative price', { name: 'x', price: '-1', items: [{ product_id: 1, quantity: 2 }] }, 'price'],
    ['quantity 0', { name: 'x', price: '1', items: [{ product_id: 1, quantity: 0 }, { product_id: 2 }] }, 'items.0.quantity'],
    ['an item without product_id', { name: 'x', price: '1', items: [{ quantity: 2 }] }, 'items.0.product_id'],
    ['an unknown field', { name: 'x', price: '1', items: [], slug: 'mine' }, 'slug'],
    ['a bad ean', { name: 'x', price: '1', items: [], ean: '123' }, 'ean'],
  ])('refuses %s (422 naming the field)', async (_case, fields, field) => {
    expect(Object.keys(await refused('POST', '/product_sets', fields))).toContain(field);
  });

  it('refuses a body without the product_set wrapper', async () => {
    const res = await call('POST', '/product_sets', { name: 'x', price: '1', items: pair() });
    expect(res.statusCode).toBe(422);
  });

  it.each([
    ['a single piece', { items: [{ product_id: 0 }] }, 'items'],
    ['pool mode without pool_pick_count', { pool_mode: true }, 'pool_pick_count'],
    ['pool_pick_count above the number of items', { pool_mode: true, pool_pick_count: 3 }, 'pool_pick_count'],
    ['pool_pick_count 1', { pool_mode: true, pool_pick_count: 1 }, 'pool_pick_count'],
    ['a pool of one product', { pool_mode: true, pool_pick_count: 2, items: [{ product_id: 0 }, { product_id: 0 }] }, 'items'],
    ['an item without custom_price when prices are not automatic', { auto_calculate_prices: false, items: [{ product_id: 0, custom_price: '30' }, { product_id: 1 }] }, 'items.1.custom_price'],
    ['custom prices that miss the price by a cent', { auto_calculate_prices: false, items: [{ product_id: 0, custom_price: '15' }, { product_id: 1, custom_price: '14.99' }] }, 'price'],
    ['custom payment types without payment types', { custom_payment_types: true }, 'payment_type_ids'],
    ['a feed without a description', { expose_in_feeds: true }, 'feed_description'],
  ])('refuses %s', async (_case, fields, field) => {
    const ids = [ref.a, ref.b];
    const items = (fields as { items?: { product_id: number }[] }).items?.map((item) => ({ ...item, product_id: ids[item.product_id]! }));
    const errors = await refused('POST', '/product_sets', { name: 'Bad', price: '30.00', items: pair(), ...fields, ...(items ? { items } : {}) });
    expect(Object.keys(errors)).toEqual([field]);
  });

  it.each([
    ['a product of another shop', () => ({ items: [{ product_id: ref.a }, { product_id: ref.otherProduct }] }), 'items.1.product_id'],
    ['a deleted (hidden) product', () => ({ items: [{ product_id: ref.hidden }, { product_id: ref.a }] }), 'items.0.product_id'],
    ['an unknown product', () => ({ items: [{ product_id: ref.a }, { product_id: 2_000_000_000 }] }), 'items.1.product_id'],
    ['a payment type of another shop', () => ({ payment_type_ids: [ref.payment, ref.otherPayment] }), 'payment_type_ids'],
    ['a category of another shop', () => ({ product_category_id: ref.otherCategory }), 'product_category_id'],
  ])('refuses %s (422, never a 500)', async (_case, fields, field) => {
    const errors = await refused('POST', '/product_sets', { name: 'Foreign', price: '30.00', items: pair(), ...fields() });
    expect(Object.keys(errors)).toEqual([field]);
  });

  it('stores nothing when refused', async () => {
    const name = `Nothing ${Date.now()}`;
    await refused('POST', '/product_sets', { name, price: '30', items: [{ product_id: ref.a }] });
    expect((await call('GET', `/product_sets?search=${encodeURIComponent(name)}`)).json().meta.total).toBe(0);
  });
});

describe('PATCH /api/v1/product_sets/:id', () => {
  it('changes only the fields sent; items and payment types stay without their keys', async () => {
    const set = await create({ custom_payment_types: true, payment_type_ids: [ref.payment] });
    const res = await call('PATCH', `/product_sets/${set.id}`, { product_set: { name: 'Renamed', priority: 3 } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ name: 'Renamed', priority: 3, slug: set.slug, items: set.items, payment_type_ids: [ref.payment], price: '30.00' });
  });

  it('replaces the whole item list; an item sent with its id keeps it', async () => {
    const set = await create({});
    const kept = set.items[1];
    const res = await call('PATCH', `/product_sets/${set.id}`, { product_set: { items: [{ id: kept.id, product_id: ref.c, quantity: 3 }] } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.items).toEqual([{ id: kept.id, product_id: ref.c, product_name: 'Book C', quantity: 3, custom_price: null }]);
    const again = await call('PATCH', `/product_sets/${set.id}`, { product_set: { items: pair() } });
    expect(again.json().data.items.map((item: { product_id: number }) => item.product_id)).toEqual([ref.a, ref.b]);
    expect(again.json().data.items.map((item: { id: number }) => item.id)).not.toContain(kept.id);
  });

  it('replaces payment_type_ids as a whole', async () => {
    const second = await createPaymentType(stack.app, shop.id, { name: 'Card' });
    const set = await create({ payment_type_ids: [ref.payment] });
    const res = await call('PATCH', `/product_sets/${set.id}`, { product_set: { payment_type_ids: [second] } });
    expect(res.json().data.payment_type_ids).toEqual([second]);
  });

  it('checks the rules on the set after the write, and a refused PATCH changes nothing', async () => {
    const set = await create({ auto_calculate_prices: false, items: [{ product_id: ref.a, custom_price: '10' }, { product_id: ref.b, custom_price: '20' }] });
    expect(Object.keys(await refused('PATCH', `/product_sets/${set.id}`, { price: '31.00', name: 'Changed' }))).toEqual(['price']);
    expect(Object.keys(await refused('PATCH', `/product_sets/${set.id}`, { items: [{ product_id: ref.a, quantity: 2 }] }))).toEqual(['items.0.custom_price']);
    expect(Object.keys(await refused('PATCH', `/product_sets/${set.id}`, { pool_mode: true }))).toEqual(['pool_pick_count']);
    expect(Object.keys(await refused('PATCH', `/product_sets/${set.id}`, { items: [{ product_id: ref.a, custom_price: '30' }] }))).toEqual(['items']);
    expect((await call('GET', `/product_sets/${set.id}`)).json().data).toEqual(set);
    const fixed = await call('PATCH', `/product_sets/${set.id}`, { product_set: { price: '31.00', items: [{ product_id: ref.a, custom_price: '11' }, { product_id: ref.b, custom_price: '20' }] } });
    expect(fixed.statusCode, fixed.body).toBe(200);
  });

  it('refuses an item id of another set and a foreign product', async () => {
    const [mine, theirs] = await Promise.all([create({}), create({})]);
    const errors = await refused('PATCH', `/product_sets/${mine.id}`, { items: [{ id: theirs.items[0].id, product_id: ref.a }, { product_id: ref.otherProduct }] });
    expect(errors).toMatchObject({ 'items.0.id': expect.any(Array), 'items.1.product_id': expect.any(Array) });
  });

  it('two PATCHes of the items at once leave one of the lists, never both', async () => {
    const set = await create({});
    const lists = [[{ product_id: ref.a }, { product_id: ref.c }], [{ product_id: ref.b, quantity: 2 }]];
    const replies = await Promise.all(lists.map((items) => call('PATCH', `/product_sets/${set.id}`, { product_set: { items } })));
    expect(replies.map((r) => r.statusCode)).toEqual([200, 200]);
    const items = (await call('GET', `/product_sets/${set.id}`)).json().data.items.map((i: { product_id: number; quantity: number }) => ({ product_id: i.product_id, quantity: i.quantity }));
    expect([[{ product_id: ref.a, quantity: 1 }, { product_id: ref.c, quantity: 1 }], [{ product_id: ref.b, quantity: 2 }]]).toContainEqual(items);
  });

  it('refuses an item id sent twice and changes nothing', async () => {
    const set = await create({});
    const kept = set.items[0].id;
    const errors = await refused('PATCH', `/product_sets/${set.id}`, { items: [{ id: kept, product_id: ref.a }, { id: kept, product_id: ref.b }] });
    expect(errors).toEqual({ 'items.1.id': ['is sent twice'] });
    expect((await call('GET', `/product_sets/${set.id}`)).json().data).toEqual(set);
  });

  it('a PATCH racing a DELETE answers 200 or 404, never 500', async () => {
    for (let i = 0; i < 6; i++) {
      const set = await create({});
      const [patched, deleted] = await Promise.all([call('PATCH', `/product_sets/${set.id}`, { product_set: { name: `Raced ${i}` } }), call('DELETE', `/product_sets/${set.id}`)]);
      expect([200, 404], patched.body).toContain(patched.statusCode);
      expect(deleted.statusCode).toBe(200);
    }
  });
});

describe('writeThenRead', () => {
  it('answers 404 when the row is gone by the re-read (a DELETE right after the commit)', async () => {
    const em = stack.orm.em.fork();
    await expect(writeThenRead(em, async () => 1, async () => null, 'product set')).rejects.toMatchObject({ statusCode: 404, message: 'product set not found' });
  });
});

describe('GET /api/v1/product_sets', () => {
  it('sorts by priority, highest first, and filters by active, product and name', async () => {
    const tag = `List${Date.now()}`;
    const low = await create({ name: `${tag} low`, priority: 1 });
    const high = await create({ name: `${tag} high`, priority: 9, items: [{ product_id: ref.c, quantity: 2 }] });
    const off = await create({ name: `${tag} off`, priority: 5, active: false });
    const ids = async (query: string) => (await call('GET', `/product_sets?search=${tag}&${query}`)).json().data.map((s: { id: number }) => s.id);
    expect(await ids('')).toEqual([high.id, off.id, low.id]);
    expect(await ids('active=true')).toEqual([high.id, low.id]);
    expect(await ids('active=false')).toEqual([off.id]);
    expect(await ids(`product_id=${ref.c}`)).toEqual([high.id]);
    const withA = (await call('GET', `/product_sets?search=${tag}&product_id=${ref.a}`)).json().data;
    expect(withA.map((s: { id: number }) => s.id)).toEqual([off.id, low.id]);
    expect(withA[0].items).toHaveLength(2);
    const page = (await call('GET', `/product_sets?search=${tag}&per_page=1&page=2`)).json();
    expect(page).toMatchObject({ data: [{ id: off.id }], meta: { page: 2, per_page: 1, total: 3, total_pages: 3 } });
  });

  it('refuses per_page above 100', async () => {
    expect((await call('GET', '/product_sets?per_page=101')).statusCode).toBe(422);
  });
});

describe('scopes, other shops and DELETE', () => {
  it('needs read to read and write_data to write', async () => {
    const set = await create({});
    expect((await call('GET', '/product_sets', undefined, 'read')).statusCode).toBe(200);
    expect((await call('GET', `/product_sets/${set.id}`, undefined, 'write_data')).statusCode).toBe(403);
    expect((await call('POST', '/product_sets', { product_set: { name: 'x', price: '1', items: pair() } }, 'read')).statusCode).toBe(403);
    expect((await call('PATCH', `/product_sets/${set.id}`, { product_set: { name: 'x' } }, 'read')).statusCode).toBe(403);
    expect((await call('DELETE', `/product_sets/${set.id}`, undefined, 'read')).statusCode).toBe(403);
    expect((await call('DELETE', `/product_sets/${set.id}`, undefined, 'write_subscriptions')).statusCode).toBe(403);
  });

  it('never lists or touches another shop\'s set (404)', async () => {
    const foreign = await create({ name: 'Theirs', items: [{ product_id: ref.otherProduct, quantity: 2 }] }, other);
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      expect((await call(method, `/product_sets/${foreign.id}`, method === 'PATCH' ? { product_set: { name: 'x' } } : undefined)).statusCode).toBe(404);
    }
    expect((await call('GET', '/product_sets?search=Theirs')).json().data).toEqual([]);
    expect((await call('GET', `/product_sets/${foreign.id}`, undefined, undefined, other)).json().data.name).toBe('Theirs');
    expect((await call('GET', '/product_sets/abc')).statusCode).toBe(404);
    // An over-long id is no id of the shop either (404, not a 422 on its length).
    expect((await call('GET', `/product_sets/${'9'.repeat(30)}`)).statusCode).toBe(404);
  });

  it('DELETE answers {id, deleted: true}, then 404', async () => {
    const set = await create({});
    const res = await call('DELETE', `/product_sets/${set.id}`);
    expect(res.json()).toEqual({ data: { id: set.id, deleted: true } });
    expect((await call('GET', `/product_sets/${set.id}`)).statusCode).toBe(404);
    expect((await call('DELETE', `/product_sets/${set.id}`)).statusCode).toBe(404);
  });

  it('a deleted product leaves its sets (no 500 on the product DELETE)', async () => {
    const gone = await insertProduct(stack.orm, shop.id, { name: 'Short-lived' });
    const set = await create({ items: [{ product_id: gone }, { product_id: ref.a }, { product_id: ref.b }] });
    expect((await call('DELETE', `/products/${gone}`)).statusCode).toBe(200);
    expect((await call('GET', `/product_sets/${set.id}`)).json().data.items.map((i: { product_id: number }) => i.product_id)).toEqual([ref.a, ref.b]);
  });
});

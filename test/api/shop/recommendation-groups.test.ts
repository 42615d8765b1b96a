import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShopScope } from '../../../domain/shop/scopes.ts';
import { insertProduct } from '../../helpers/shop-catalogue.ts';
import { createTestShop, type TestShop } from '../../helpers/shop.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';

let stack: TestStack;
let shop: TestShop;
let other: TestShop;
const ref = {} as Record<'a' | 'b' | 'c' | 'hidden' | 'otherProduct', number>;

beforeAll(async () => {
  stack = await startTestApp('shop-upsell-groups');
  [shop, other] = await Promise.all([createTestShop(stack.app, 'upsell-one'), createTestShop(stack.app, 'upsell-two')]);
  ref.a = await insertProduct(stack.orm, shop.id, { name: 'Course' });
  ref.b = await insertProduct(stack.orm, shop.id, { name: 'Workbook' });
  ref.c = await insertProduct(stack.orm, shop.id, { name: 'Mug' });
  ref.hidden = await insertProduct(stack.orm, shop.id, { hidden: true });
  ref.otherProduct = await insertProduct(stack.orm, other.id);
});
afterAll(() => stack.close());

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, scope?: ShopScope, on = shop) =>
  stack.app.inject({ method, url: `/api/v1${url}`, headers: on.headers(scope), ...(payload === undefined ? {} : { payload: payload as object }) });

const wrap = (fields: Record<string, unknown>) => ({ product_recommendation_group: fields });

async function create(fields: Record<string, unknown>, on = shop) {
  const res = await call('POST', '/product_recommendation_groups', wrap({ name: 'Upsell', ...fields }), undefined, on);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
}

async function refused(method: 'POST' | 'PATCH', url: string, fields: Record<string, unknown>) {
  const res = await call(method, url, wrap(fields));
  expect(res.statusCode, res.body).toBe(422);
  return res.json().errors as Record<string, string[]>;
}

describe('POST /api/v1/product_recommendation_groups', () => {
  it('creates a group with its items, defaults and product names', async () => {
    const group = await create({
      name: 'After the course', title: 'You may also like', subtitle: 'Picked for you',
      items: [{ product_id: ref.a, invokes_recommendation: true }, { product_id: ref.b, title: 'Workbook', subtitle: 'PDF', priority: 5, is_recommended: true }],
    });
    expect(group).toMatchObject({ name: 'After the course', title: 'You may also like', subtitle: 'Picked for you', active: true });
    expect(group.items).toEqual([
      { id: expect.any(Number), product_id: ref.a, product_name: 'Course', title: '', subtitle: '', priority: 0, invokes_recommendation: true, is_recommended: false },
      { id: expect.any(Number), product_id: ref.b, product_name: 'Workbook', title: 'Workbook', subtitle: 'PDF', priority: 5, invokes_recommendation: false, is_recommended: true },
    ]);
    expect((await call('GET', `/product_recommendation_groups/${group.id}`)).json().data).toEqual(group);
  });

  it('a group may start without items', async () => {
    expect((await create({})).items).toEqual([]);
  });

  it.each([
    ['name missing', { title: 'x' }, 'name'],
    ['an empty name', { name: ' ' }, 'name'],
    ['an item without product_id', { name: 'x', items: [{ title: 'y' }] }, 'items.0.product_id'],
    ['a product id that is not an integer', { name: 'x', items: [{ product_id: '1' }] }, 'items.0.product_id'],
    ['an unknown field', { name: 'x', position: 1 }, 'position'],
    ['an unknown item field', { name: 'x', items: [{ product_id: 1, quantity: 2 }] }, 'items.0.quantity'],
  ])('refuses %s (422 naming the field)', async (_case, fields, field) => {
    expect(Object.keys(await refused('POST', '/product_recommendation_groups', fields))).toContain(field);
  });

  it.each([
    ['a product of another shop', () => [{ product_id: ref.a }, { product_id: ref.otherProduct }], 'items.1.product_id'],
    ['a deleted (hidden) product', () => [{ product_id: ref.hidden }], 'items.0.product_id'],
    ['an unknown product', () => [{ product_id: 2_000_000_000 }], 'items.0.product_id'],
  ])('refuses %s and stores nothing', async (_case, items, field) => {
    const name = `Refused ${Date.now()}`;
    expect(Object.keys(await refused('POST', '/product_recommendation_groups', { name, items: items() }))).toEqual([field]);
    expect((await call('GET', `/product_recommendation_groups?search=${encodeURIComponent(name)}`)).json().meta.total).toBe(0);
  });
});

describe('PATCH /api/v1/product_recommendation_groups/:id', () => {
  it('without the items key the items stay', async () => {
    const group = await create({ items: [{ product_id: ref.a }] });
    const res = await call('PATCH', `/product_recommendation_groups/${group.id}`, wrap({ title: 'New title', active: false }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ title: 'New title', active: false, name: group.name, items: group.items });
  });

  it('an items array replaces all items; an empty one removes them; an id keeps its item', async () => {
    const group = await create({ items: [{ product_id: ref.a }, { product_id: ref.b }] });
    const kept = group.items[0];
    // updated_at has millisecond precision: let one pass so "later" cannot tie.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const replaced = await call('PATCH', `/product_recommendation_groups/${group.id}`, wrap({ items: [{ id: kept.id, product_id: ref.a, is_recommended: true }, { product_id: ref.c }] }));
    expect(replaced.statusCode, replaced.body).toBe(200);
    const items = replaced.json().data.items;
    expect(items.map((i: { product_id: number }) => i.product_id)).toEqual([ref.a, ref.c]);
    expect(items[0]).toMatchObject({ id: kept.id, is_recommended: true });
    expect(Date.parse(replaced.json().data.updated_at)).toBeGreaterThan(Date.parse(group.updated_at));
    const emptied = await call('PATCH', `/product_recommendation_groups/${group.id}`, wrap({ items: [] }));
    expect(emptied.json().data.items).toEqual([]);
  });

  it('a refused PATCH changes nothing', async () => {
    const group = await create({ items: [{ product_id: ref.a }] });
    const errors = await refused('PATCH', `/product_recommendation_groups/${group.id}`, { name: 'Changed', items: [{ product_id: ref.otherProduct }] });
    expect(Object.keys(errors)).toEqual(['items.0.product_id']);
    expect((await call('GET', `/product_recommendation_groups/${group.id}`)).json().data).toEqual(group);
  });

  it('refuses an item id sent twice and changes nothing', async () => {
    const group = await create({ items: [{ product_id: ref.a }] });
    const kept = group.items[0].id;
    const errors = await refused('PATCH', `/product_recommendation_groups/${group.id}`, { items: [{ id: kept, product_id: ref.a }, { id: kept, product_id: ref.b }] });
    expect(errors).toEqual({ 'items.1.id': ['is sent twice'] });
    expect((await call('GET', `/product_recommendation_groups/${group.id}`)).json().data).toEqual(group);
  });

  it('two PATCHes of the items at once leave one of the lists, never both', async () => {
    const group = await create({ items: [{ product_id: ref.a }] });
    const lists = [[{ product_id: ref.a }, { product_id: ref.c }], [{ product_id: ref.b, priority: 2 }]];
    const replies = await Promise.all(lists.map((items) => call('PATCH', `/product_recommendation_groups/${group.id}`, wrap({ items }))));
    expect(replies.map((r) => r.statusCode)).toEqual([200, 200]);
    const items = (await call('GET', `/product_recommendation_groups/${group.id}`)).json().data.items.map((i: { product_id: number; priority: number }) => ({ product_id: i.product_id, priority: i.priority }));
    expect([[{ product_id: ref.a, priority: 0 }, { product_id: ref.c, priority: 0 }], [{ product_id: ref.b, priority: 2 }]]).toContainEqual(items);
  });

  it('refuses an item id of another group', async () => {
    const [mine, theirs] = await Promise.all([create({}), create({ items: [{ product_id: ref.b }] })]);
    expect(Object.keys(await refused('PATCH', `/product_recommendation_groups/${mine.id}`, { items: [{ id: theirs.items[0].id, product_id: ref.b }] }))).toEqual(['items.0.id']);
  });
});

describe('GET /api/v1/product_recommendation_groups', () => {
  it('filters by active, by a product in the group, and searches name or title', async () => {
    const tag = `Grp${Date.now()}`;
    const byName = await create({ name: `${tag} by name`, items: [{ product_id: ref.a }, { product_id: ref.b }] });
    const byTitle = await create({ name: 'Plain', title: `${tag} in the title`, active: false, items: [{ product_id: ref.c }] });
    const ids = async (query: string) => (await call('GET', `/product_recommendation_groups?search=${tag}&${query}`)).json().data.map((g: { id: number }) => g.id);
    expect(await ids('')).toEqual([byName.id, byTitle.id]);
    expect(await ids('active=true')).toEqual([byName.id]);
    expect(await ids('active=false')).toEqual([byTitle.id]);
    expect(await ids(`product_id=${ref.c}`)).toEqual([byTitle.id]);
    const withA = (await call('GET', `/product_recommendation_groups?search=${tag}&product_id=${ref.a}`)).json();
    expect(withA.data).toHaveLength(1);
    expect(withA.data[0].items).toHaveLength(2);
    expect(withA.meta).toEqual({ page: 1, per_page: 25, total: 1, total_pages: 1 });
  });
});

describe('scopes, other shops and DELETE', () => {
  it('needs read to read and write_data to write', async () => {
    const group = await create({});
    expect((await call('GET', '/product_recommendation_groups', undefined, 'read')).statusCode).toBe(200);
    expect((await call('GET', '/product_recommendation_groups', undefined, 'write_data')).statusCode).toBe(403);
    expect((await call('POST', '/product_recommendation_groups', wrap({ name: 'x' }), 'read')).statusCode).toBe(403);
    expect((await call('PATCH', `/product_recommendation_groups/${group.id}`, wrap({ name: 'x' }), 'write_storefront')).statusCode).toBe(403);
    expect((await call('DELETE', `/product_recommendation_groups/${group.id}`, undefined, 'read')).statusCode).toBe(403);
    expect((await call('PATCH', `/product_recommendation_groups/${group.id}`, wrap({ name: 'x' }), 'write_data')).statusCode).toBe(200);
  });

  it('never lists or touches another shop\'s group (404)', async () => {
    const foreign = await create({ name: 'Theirs', items: [{ product_id: ref.otherProduct }] }, other);
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      expect((await call(method, `/product_recommendation_groups/${foreign.id}`, method === 'PATCH' ? wrap({ name: 'x' }) : undefined)).statusCode).toBe(404);
    }
    expect((await call('GET', `/product_recommendation_groups?product_id=${ref.otherProduct}`)).json().data).toEqual([]);
    expect((await call('GET', `/product_recommendation_groups/${foreign.id}`, undefined, undefined, other)).json().data.name).toBe('Theirs');
    expect((await call('GET', `/product_recommendation_groups/${'9'.repeat(30)}`)).statusCode).toBe(404);
  });

  it('DELETE answers {id, deleted: true}, then 404', async () => {
    const group = await create({ items: [{ product_id: ref.a }] });
    expect((await call('DELETE', `/product_recommendation_groups/${group.id}`)).json()).toEqual({ data: { id: group.id, deleted: true } });
    expect((await call('GET', `/product_recommendation_groups/${group.id}`)).statusCode).toBe(404);
    expect((await call('DELETE', `/product_recommendation_groups/${group.id}`)).statusCode).toBe(404);
  });

  it('a deleted product leaves its groups', async () => {
    const gone = await insertProduct(stack.orm, shop.id, { name: 'Short-lived' });
    const group = await create({ items: [{ product_id: gone }, { product_id: ref.a }] });
    expect((await call('DELETE', `/products/${gone}`)).statusCode).toBe(200);
    expect((await call('GET', `/product_recommendation_groups/${group.id}`)).json().data.items.map((i: { product_id: number }) => i.product_id)).toEqual([ref.a]);
  });
});

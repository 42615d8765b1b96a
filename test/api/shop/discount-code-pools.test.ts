import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiscountCode } from '../../../db/entities/shop/index.ts';
import { insertProduct } from '../../helpers/shop-catalogue.ts';
import { createTestShop, operator, type TestShop } from '../../helpers/shop.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';
import type { ShopScope } from '../../../domain/shop/scopes.ts';

let stack: TestStack;
let shop: TestShop;
let other: TestShop;
let product: number;
let otherProduct: number;

beforeAll(async () => {
  stack = await startTestApp('shop-discount-pools');
  [shop, other] = await Promise.all([createTestShop(stack.app, 'pools-one'), createTestShop(stack.app, 'pools-two')]);
  product = await insertProduct(stack.orm, shop.id);
  otherProduct = await insertProduct(stack.orm, other.id);
});
afterAll(() => stack.close());

const call = (method: 'GET' | 'POST', url: string, payload?: unknown, scope?: ShopScope, on = shop) =>
  stack.app.inject({ method, url: `/api/v1${url}`, headers: on.headers(scope), ...(payload === undefined ? {} : { payload: payload as object }) });

let n = 0;
const codes = (count: number) => {
  n += 1;
  const tag = `${n}${Math.random().toString(36).slice(2, 6)}`;
  return Array.from({ length: count }, (_, i) => `P${tag}-${i}`);
};

const createPool = (body: Record<string, unknown>, shopId = shop.id) =>
  stack.app.inject({ method: 'POST', url: `/admin/v1/shops/${shopId}/discount_code_pools`, headers: operator, payload: body });

async function pool(body: Record<string, unknown>, shopId = shop.id) {
  const res = await createPool(body, shopId);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
}

const draw = (poolId: number, body: unknown, scope?: ShopScope, on = shop) => call('POST', `/discount_code_pools/${poolId}/draw`, body, scope, on);

describe('POST /admin/v1/shops/:shop_id/discount_code_pools', () => {
  it('creates a pool with its codes and counters; every code is a discount code with the pool\'s settings, inactive until drawn in draw mode', async () => {
    const sent = codes(3);
    const made = await pool({ name: 'Black Friday', activate_on_draw: true, codes: sent, discount_type: 'percentage_discount', value: '15', usages_limit: 1 });
    expect(made).toMatchObject({ name: 'Black Friday', activate_on_draw: true, codes_total: 3, codes_drawn: 0, codes_remaining: 3 });
    const rows = await stack.orm.em.fork().find(DiscountCode, { pool: made.id }, { filters: false, orderBy: { id: 'asc' } });
    expect(rows.map((r) => [r.code, r.discountType, r.value, r.active, r.usagesLimit])).toEqual(sent.map((c) => [c, 'percentage_discount', '15.00', false, 1]));
    // Pool codes are the pool's: the discount-code list does not show them.
    expect((await call('GET', `/discount_codes?search=${sent[0]}`)).json().meta.total).toBe(0);
  });

  it('makes the codes of a pool without draw mode active at once', async () => {
    const made = await pool({ name: 'Plain', codes: codes(2), discount_type: 'free_delivery_discount' });
    expect(made.activate_on_draw).toBe(false);
    const rows = await stack.orm.em.fork().find(DiscountCode, { pool: made.id }, { filters: false });
    expect(rows.every((r) => r.active)).toBe(true);
  });

  it.each([
    ['no codes', { name: 'x', codes: [], discount_type: 'free_contents' }, 'codes'],
    ['a code twice ignoring case', { name: 'x', codes: ['Same-1x', 'same-1X'], discount_type: 'free_contents' }, 'codes'],
    ['no discount_type', { name: 'x', codes: ['A-nodt'] }, 'discount_type'],
    ['a value type without value', { name: 'x', codes: ['A-noval'], discount_type: 'value_discount' }, 'value'],
    ['a negative product id', { name: 'x', codes: ['A-foreign'], discount_type: 'free_contents', relation_with_products: 'selected_products', product_ids: [-1] }, 'product_ids.0'],
    ['no name', { codes: ['A-noname'], discount_type: 'free_contents' }, 'name'],
  ])('refuses %s with 422 naming the field', async (_label, body, field) => {
    const res = await createPool(body);
    expect(res.statusCode, res.body).toBe(422);
    expect(Object.keys(res.json().errors)).toContain(field);
  });

  it('refuses ids of another shop and codes the shop already has, storing nothing', async () => {
    const taken = codes(1);
    await pool({ name: 'first', codes: taken, discount_type: 'free_contents' });
    const res = await createPool({ name: 'x', codes: [...codes(2), taken[0]!.toLowerCase()], discount_type: 'free_contents', relation_with_products: 'selected_products', product_ids: [product, otherProduct] });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(['codes', 'product_ids']);
    expect((await call('GET', '/discount_code_pools?search=x&per_page=100')).json().data.filter((p: { name: string }) => p.name === 'x')).toEqual([]);
  });

  it('answers 404 for an unknown shop', async () => {
    expect((await createPool({ name: 'x', codes: ['Z'], discount_type: 'free_contents' }, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });
});

describe('GET /api/v1/discount_code_pools', () => {
  it('lists the shop\'s pools with counters, searched by name, paginated; another shop\'s pool is 404', async () => {
    const tag = `Search${Math.random().toString(36).slice(2, 7)}`;
    const a = await pool({ name: `${tag} A`, activate_on_draw: true, codes: codes(2), discount_type: 'free_contents' });
    await pool({ name: `${tag} B`, codes: codes(1), discount_type: 'free_contents' });
    const foreign = await pool({ name: `${tag} C`, codes: codes(1), discount_type: 'free_contents' }, other.id);
    const list = (await call('GET', `/discount_code_pools?search=${tag.toLowerCase()}&per_page=1`, undefined, 'read')).json();
    expect(list.meta).toEqual({ page: 1, per_page: 1, total: 2, total_pages: 2 });
    expect(list.data).toEqual([{ id: a.id, name: `${tag} A`, activate_on_draw: true, codes_total: 2, codes_drawn: 0, codes_remaining: 2, created_at: expect.any(String) }]);
    expect((await call('GET', `/discount_code_pools/${a.id}`)).json().data).toEqual(list.data[0]);
    expect((await call('GET', `/discount_code_pools/${foreign.id}`)).statusCode).toBe(404);
    expect((await call('GET', '/discount_code_pools', undefined, 'write_data')).statusCode).toBe(403);
  });
});

describe('POST /api/v1/discount_code_pools/:id/draw', () => {
  it('activates count free codes valid from now for validity_hours (201), and counts them drawn', async () => {
    const made = await pool({ name: 'draw', activate_on_draw: true, codes: codes(3), discount_type: 'value_discount', value: '10' });
    const before = Date.now();
    const res = await draw(made.id, { count: 2, validity_hours: 48 }, 'write_data');
    expect(res.statusCode, res.body).toBe(201);
    const drawn = res.json().data as { id: number; code: string; valid_from: string; valid_until: string }[];
    expect(drawn).toHaveLength(2);
    for (const code of drawn) {
      const from = Date.parse(code.valid_from);
      expect(from).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(code.valid_until) - from).toBe(48 * 3_600_000);
    }
    const rows = await stack.orm.em.fork().find(DiscountCode, { id: { $in: drawn.map((d) => d.id) } }, { filters: false });
    expect(rows.every((r) => r.active && r.drawnAt !== null)).toBe(true);
    expect((await call('GET', `/discount_code_pools/${made.id}`)).json().data).toMatchObject({ codes_total: 3, codes_drawn: 2, codes_remaining: 1 });
  });

  it.each([
    ['count missing', { validity_hours: 1 }, 'count'],
    ['count 0', { count: 0, validity_hours: 1 }, 'count'],
    ['count -1', { count: -1, validity_hours: 1 }, 'count'],
    ['count 1.5', { count: 1.5, validity_hours: 1 }, 'count'],
    ['count "1"', { count: '1', validity_hours: 1 }, 'count'],
    ['validity_hours missing', { count: 1 }, 'validity_hours'],
    ['validity_hours 0', { count: 1, validity_hours: 0 }, 'validity_hours'],
    ['validity_hours null', { count: 1, validity_hours: null }, 'validity_hours'],
  ])('answers 400 for %s', async (_label, body, field) => {
    const made = await pool({ name: 'bad', activate_on_draw: true, codes: codes(1), discount_type: 'free_contents' });
    const res = await draw(made.id, body);
    expect(res.statusCode, res.body).toBe(400);
    expect(Object.keys(res.json().errors)).toContain(field);
  });

  it('answers 422 for a pool not in draw mode and when fewer free codes remain than requested (nothing drawn)', async () => {
    const plain = await pool({ name: 'plain', codes: codes(2), discount_type: 'free_contents' });
    expect((await draw(plain.id, { count: 1, validity_hours: 1 })).statusCode).toBe(422);
    const small = await pool({ name: 'small', activate_on_draw: true, codes: codes(2), discount_type: 'free_contents' });
    const res = await draw(small.id, { count: 3, validity_hours: 1 });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['count']);
    expect((await call('GET', `/discount_code_pools/${small.id}`)).json().data.codes_drawn).toBe(0);
  });

  it('answers 404 for a pool of another shop (or unknown), 403 without write_data', async () => {
    const foreign = await pool({ name: 'foreign', activate_on_draw: true, codes: codes(1), discount_type: 'free_contents' }, other.id);
    expect((await draw(foreign.id, { count: 1, validity_hours: 1 })).statusCode).toBe(404);
    expect((await draw(99_999_999, { count: 1, validity_hours: 1 })).statusCode).toBe(404);
    expect((await draw(foreign.id, { count: 1, validity_hours: 1 }, 'read', other)).statusCode).toBe(403);
  });

  it('two draws racing for the last codes never both succeed, and no code is drawn twice', async () => {
    for (let round = 0; round < 5; round += 1) {
      const made = await pool({ name: `race ${round}`, activate_on_draw: true, codes: codes(3), discount_type: 'free_contents' });
      const replies = await Promise.all([draw(made.id, { count: 2, validity_hours: 1 }), draw(made.id, { count: 2, validity_hours: 1 })]);
      expect(replies.map((r) => r.statusCode).sort()).toEqual([201, 422]);
      expect((await call('GET', `/discount_code_pools/${made.id}`)).json().data).toMatchObject({ codes_drawn: 2, codes_remaining: 1 });
    }
  });

  it('many single draws racing for five codes issue exactly the five, each once', async () => {
    const made = await pool({ name: 'crowd', activate_on_draw: true, codes: codes(5), discount_type: 'free_contents' });
    const replies = await Promise.all(Array.from({ length: 9 }, () => draw(made.id, { count: 1, validity_hours: 1 })));
    const won = replies.filter((r) => r.statusCode === 201).flatMap((r) => r.json().data.map((c: { code: string }) => c.code));
    expect(replies.every((r) => r.statusCode === 201 || r.statusCode === 422)).toBe(true);
    expect(won).toHaveLength(5);
    expect(new Set(won).size).toBe(5);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOP_SCOPES } from '../../../domain/shop/scopes.ts';
import { adminPost, createTestShop, operator, type TestShop } from '../../helpers/shop.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';

let stack: TestStack;
let shop: TestShop;
let other: TestShop;

beforeAll(async () => {
  stack = await startTestApp('shop-foundation');
  [shop, other] = await Promise.all([createTestShop(stack.app, 'one'), createTestShop(stack.app, 'two')]);
});
afterAll(() => stack.close());

const get = (url: string, key: string) => stack.app.inject({ method: 'GET', url, headers: { 'x-api-key': key } });

describe('POST /admin/v1/shops', () => {
  it('creates a shop with the built-in statuses New and Paid, API on, invoicing off', async () => {
    const res = await stack.app.inject({ method: 'POST', url: '/admin/v1/shops', headers: operator, payload: { subdomain: `s-${Date.now()}`, name: 'Shop' } });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ name: 'Shop', currency: 'PLN', admin_email: null, api_enabled: true, automatic_invoicing: false });
    const statuses = await stack.app.inject({ method: 'GET', url: `/admin/v1/shops/${res.json().data.id}/order_statuses`, headers: operator });
    const kinds = statuses.json().data.map((s: { name: string; kind: string }) => `${s.name}:${s.kind}`);
    expect(kinds).toEqual(expect.arrayContaining(['New:NewDefaultOrderStatus', 'Paid:PaidDefaultOrderStatus']));
  });

  it('answers 422 naming the field for a bad body, 409 for a taken subdomain, 401 without the operator token', async () => {
    const bad = await stack.app.inject({ method: 'POST', url: '/admin/v1/shops', headers: operator, payload: { subdomain: 'Bad Name!', name: '' } });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(expect.arrayContaining(['subdomain', 'name']));
    const subdomain = `taken-${Date.now()}`;
    await adminPost(stack.app, '/admin/v1/shops', { subdomain, name: 'A' });
    const taken = await stack.app.inject({ method: 'POST', url: '/admin/v1/shops', headers: operator, payload: { subdomain, name: 'B' } });
    expect(taken.statusCode).toBe(409);
    const anonymous = await stack.app.inject({ method: 'POST', url: '/admin/v1/shops', payload: { subdomain: 'x', name: 'x' } });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('shop API keys', () => {
  it('shows the token once and stores only a prefix; a deleted key stops at once', async () => {
    const created = await adminPost(stack.app, `/admin/v1/shops/${shop.id}/api_keys`, { name: 'temp', scopes: ['read'] });
    expect(created.token.startsWith(created.prefix)).toBe(true);
    expect((await get('/api/v1/delivery_types', created.token)).statusCode).toBe(200);
    const del = await stack.app.inject({ method: 'DELETE', url: `/admin/v1/shops/${shop.id}/api_keys/${created.id}`, headers: operator });
    expect(del.statusCode).toBe(200);
    expect((await get('/api/v1/delivery_types', created.token)).statusCode).toBe(401);
    const again = await stack.app.inject({ method: 'DELETE', url: `/admin/v1/shops/${other.id}/api_keys/${created.id}`, headers: operator });
    expect(again.statusCode).toBe(404);
  });

  it('answers 401 {error} for a missing or wrong key', async () => {
    const missing = await stack.app.inject({ method: 'GET', url: '/api/v1/delivery_types' });
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toHaveProperty('error');
    expect((await get('/api/v1/delivery_types', 'sk_wrong')).statusCode).toBe(401);
  });

  it('answers 401 to every request while the owner has switched the API off, and works again at once', async () => {
    const patch = (api_enabled: boolean) =>
      stack.app.inject({ method: 'PATCH', url: `/admin/v1/shops/${shop.id}`, headers: operator, payload: { api_enabled } });
    expect((await patch(false)).json().data.api_enabled).toBe(false);
    expect((await get('/api/v1/delivery_types', shop.key)).statusCode).toBe(401);
    await patch(true);
    expect((await get('/api/v1/delivery_types', shop.key)).statusCode).toBe(200);
  });

  it('a platform API key is a 401 on a shop path', async () => {
    const platform = await adminPost(stack.app, '/admin/v1/platforms', { subdomain: `p-${Date.now()}`, title: 'P' });
    expect((await get('/api/courses', platform.api_key)).statusCode).toBe(200);
    expect((await get('/api/v1/delivery_types', platform.api_key)).statusCode).toBe(401);
  });

  it('reads need scope read: every other single-scope key gets 403 {error}', async () => {
    for (const scope of SHOP_SCOPES) {
      const res = await get('/api/v1/order_statuses', shop.keys[scope]);
      expect(res.statusCode, scope).toBe(scope === 'read' ? 200 : 403);
      if (scope !== 'read') expect(res.json()).toHaveProperty('error');
    }
  });
});

describe('reference lists', () => {
  beforeAll(async () => {
    await adminPost(stack.app, `/admin/v1/shops/${shop.id}/delivery_types`, { name: 'Courier', default_price: '12.00' });
    await adminPost(stack.app, `/admin/v1/shops/${shop.id}/delivery_types`, { name: 'Old post', default_price: '5', active: false });
    await adminPost(stack.app, `/admin/v1/shops/${shop.id}/payment_types`, { name: 'Transfer', cash_on_delivery: false });
    await adminPost(stack.app, `/admin/v1/shops/${shop.id}/payment_types`, { name: 'Off', active: false });
    await adminPost(stack.app, `/admin/v1/shops/${shop.id}/order_statuses`, { name: 'Hidden', visible: false });
    const books = await adminPost(stack.app, `/admin/v1/shops/${shop.id}/product_categories`, { name: 'Books' });
    await adminPost(stack.app, `/admin/v1/shops/${shop.id}/product_categories`, { name: 'E-books', parent_id: books.id });
    await adminPost(stack.app, `/admin/v1/shops/${other.id}/delivery_types`, { name: 'Foreign', default_price: '1.00' });
  });

  it('lists active delivery types with the spec fields and pagination meta, never another shop\'s', async () => {
    const res = await get('/api/v1/delivery_types', shop.key);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: [{ id: expect.any(Number), name: 'Courier', name_displayed: 'Courier', default_price: '12.00', vat_rate: 23 }],
      meta: { page: 1, per_page: 25, total: 1, total_pages: 1 },
    });
  });

  it('lists active payment types and visible statuses only', async () => {
    const payments = (await get('/api/v1/payment_types', shop.key)).json().data;
    expect(payments).toEqual([{ id: expect.any(Number), name: 'Transfer', name_displayed: 'Transfer', default_price: '0.00', vat_rate: 23, cash_on_delivery: false }]);
    const statuses = (await get('/api/v1/order_statuses', shop.key)).json().data.map((s: { name: string }) => s.name);
    expect(statuses).toContain('New');
    expect(statuses).not.toContain('Hidden');
  });

  it('answers the categories as a tree', async () => {
    const tree = (await get('/api/v1/product_categories', shop.key)).json().data;
    expect(tree).toEqual([{ id: expect.any(Number), name: 'Books', parent_id: null, children: [{ id: expect.any(Number), name: 'E-books', parent_id: tree[0].id, children: [] }] }]);
    expect((await get('/api/v1/product_categories', other.key)).json().data).toEqual([]);
  });

  it('refuses a per_page over 100 and a parent category of another shop', async () => {
    expect((await get('/api/v1/delivery_types?per_page=101', shop.key)).statusCode).toBe(422);
    const foreignParent = (await get('/api/v1/product_categories', shop.key)).json().data[0].id;
    const res = await stack.app.inject({ method: 'POST', url: `/admin/v1/shops/${other.id}/product_categories`, headers: operator, payload: { name: 'X', parent_id: foreignParent } });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toHaveProperty('parent_id');
  });
});

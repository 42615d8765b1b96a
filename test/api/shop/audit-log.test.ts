import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminPost, createTestShop, operator, type TestShop } from '../../helpers/shop.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';

let stack: TestStack;
let shop: TestShop;
let other: TestShop;

beforeAll(async () => {
  stack = await startTestApp('shop-audit-log');
  [shop, other] = await Promise.all([createTestShop(stack.app, 'audited'), createTestShop(stack.app, 'audited-other')]);
});
afterAll(() => stack?.close());

const call = (method: 'GET' | 'PATCH', url: string, key: string, payload?: object) =>
  stack.app.inject({ method, url, headers: { 'x-api-key': key, ...(payload && { 'content-type': 'application/json' }) }, ...(payload && { payload }) });
const auditLog = async (of: TestShop) => {
  const res = await stack.app.inject({ method: 'GET', url: `/admin/v1/shops/${of.id}/audit_log`, headers: operator });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { at: string; method: string; path: string; status: number; key_prefix: string | null }[];
};

describe('the shop audit log of configuration requests', () => {
  it('holds every configuration request of a known key, refused ones included, without query or token; other shop requests stay out', async () => {
    expect((await call('GET', '/api/v1/configuration/club?probe=secret-value', shop.key)).statusCode).toBe(200);
    expect((await call('PATCH', '/api/v1/configuration/club', shop.keys.read, { active: false })).statusCode).toBe(403);
    const revoked = await adminPost(stack.app, `/admin/v1/shops/${shop.id}/api_keys`, { name: 'old', scopes: ['read'] });
    const removed = await stack.app.inject({ method: 'DELETE', url: `/admin/v1/shops/${shop.id}/api_keys/${revoked.id}`, headers: operator });
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await call('GET', '/api/v1/configuration/order_statuses', revoked.token)).statusCode).toBe(401);
    // Not configuration: a product list; and an unknown key names no shop.
    expect((await call('GET', '/api/v1/products', shop.key)).statusCode).toBe(200);
    expect((await call('GET', '/api/v1/configuration/club', 'sk_unknown')).statusCode).toBe(401);

    const log = await auditLog(shop);
    expect(log.map(({ method, path, status }) => ({ method, path, status }))).toEqual([
      { method: 'GET', path: '/api/v1/configuration/order_statuses', status: 401 },
      { method: 'PATCH', path: '/api/v1/configuration/club', status: 403 },
      { method: 'GET', path: '/api/v1/configuration/club', status: 200 },
    ]);
    expect(log[0]!.key_prefix).toBe(revoked.prefix);
    expect(log.every((e) => e.key_prefix && !JSON.stringify(e).includes('secret-value'))).toBe(true);
    expect(JSON.stringify(log)).not.toContain(shop.key);
    expect(await auditLog(other)).toEqual([]);
  });

  it('answers 404 for an unknown shop', async () => {
    const res = await stack.app.inject({ method: 'GET', url: '/admin/v1/shops/00000000-0000-4000-8000-000000000000/audit_log', headers: operator });
    expect(res.statusCode).toBe(404);
  });
});

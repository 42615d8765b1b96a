import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConfigurationKey } from '../../helpers/configuration.ts';
import { createCourse, createPlatform } from '../../helpers/fixtures.ts';
import { insertProduct } from '../../helpers/shop-catalogue.ts';
import { insertSubscriber } from '../../helpers/shop-subscribers.ts';
import { adminPost, createTestShop, operator, type TestShop } from '../../helpers/shop.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';

/**
 * Every operator route that takes two ids (DESIGN.md section 8): the second id of another tenant is
 * a 404 like an unknown one (the repository read under the tenant filter finds no row), and the same
 * id under its own tenant works.
 */
let stack: TestStack;
let shop: TestShop;
let other: TestShop;
let platformId: string;
let otherPlatformId: string;

beforeAll(async () => {
  stack = await startTestApp('admin-two-ids');
  [shop, other] = await Promise.all([createTestShop(stack.app, 'two-ids-a'), createTestShop(stack.app, 'two-ids-b')]);
  const [mine, theirs] = await Promise.all([createPlatform(stack.app, 'Two ids'), createPlatform(stack.app, 'Other')]);
  [platformId, otherPlatformId] = [mine.id, theirs.id];
});
afterAll(() => stack?.close());

type Method = 'GET' | 'PATCH' | 'DELETE';
const call = (method: Method, url: string, payload?: object) => stack.app.inject({ method, url, headers: operator, ...(payload ? { payload } : {}) });

/** The route under `owner` (its tenant) and under `stranger` (another tenant); the id belongs to `owner`. */
async function expectOwnedOnly(method: Method, url: (tenant: string) => string, owner: string, stranger: string, payload?: object) {
  const foreign = await call(method, url(stranger), payload);
  expect(foreign.statusCode, foreign.body).toBe(404);
  expect(foreign.json().error).toMatch(/not found/);
  const own = await call(method, url(owner), payload);
  expect(own.statusCode, own.body).toBe(200);
}

describe('operator routes with two ids answer 404 for another tenant\'s id', () => {
  it('GET /shops/:shop_id/orders/:order_id/effects', async () => {
    const productId = await insertProduct(stack.orm, shop.id, { name: 'Book', price: '40.00' });
    const order = await adminPost(stack.app, `/admin/v1/shops/${shop.id}/orders`, { email: 'buyer@example.com', items: [{ product_id: productId, quantity: 1 }] });
    await expectOwnedOnly('GET', (s) => `/admin/v1/shops/${s}/orders/${order.id}/effects`, shop.id, other.id);
    expect((await call('GET', `/admin/v1/shops/${shop.id}/orders/2147483647/effects`)).statusCode).toBe(404);
  });

  it('GET /shops/:shop_id/subscribers/:subscriber_id/billing', async () => {
    const plan = await stack.app.inject({ method: 'POST', url: '/api/v1/subscription_plans', headers: shop.headers(), payload: { subscription_plan: { name: 'Plan' } } });
    const now = Date.now();
    const id = await insertSubscriber(stack.orm, shop.id, { planId: plan.json().data.id, periods: [{ startsAt: new Date(now), endsAt: new Date(now + 86_400_000) }] });
    await expectOwnedOnly('GET', (s) => `/admin/v1/shops/${s}/subscribers/${id}/billing`, shop.id, other.id);
  });

  it('GET /shops/:shop_id/webhooks/:id/deliveries and DELETE /shops/:shop_id/webhooks/:id', async () => {
    const hook = await adminPost(stack.app, `/admin/v1/shops/${shop.id}/webhooks`, { url: 'https://hooks.example.com/shop', events: ['order_cleared'], secret_key: 'shop-secret-0123456789abcdef' });
    await expectOwnedOnly('GET', (s) => `/admin/v1/shops/${s}/webhooks/${hook.id}/deliveries`, shop.id, other.id);
    await expectOwnedOnly('DELETE', (s) => `/admin/v1/shops/${s}/webhooks/${hook.id}`, shop.id, other.id);
  });

  it('DELETE /shops/:shop_id/api_keys/:key_id', async () => {
    const key = await adminPost(stack.app, `/admin/v1/shops/${shop.id}/api_keys`, { name: 'spare', scopes: ['read'] });
    await expectOwnedOnly('DELETE', (s) => `/admin/v1/shops/${s}/api_keys/${key.id}`, shop.id, other.id);
  });

  it('PATCH /platforms/:platform_id/courses/:course_id', async () => {
    const course = await createCourse(stack.app, platformId);
    await expectOwnedOnly('PATCH', (p) => `/admin/v1/platforms/${p}/courses/${course.id}`, platformId, otherPlatformId, { title: 'Renamed' });
  });

  it('DELETE /platforms/:platform_id/configuration_keys/:key_id', async () => {
    const key = await createConfigurationKey(stack.app, platformId);
    await expectOwnedOnly('DELETE', (p) => `/admin/v1/platforms/${p}/configuration_keys/${key.id}`, platformId, otherPlatformId);
  });
});

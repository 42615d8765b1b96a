/**
 * Clients generated from the audience documents (types by openapi-typescript, committed in
 * test/generated/ and checked for freshness by openapi.test.ts; calls by openapi-fetch) drive real
 * flows against a listening app: the types are checked by `npm run typecheck`, the calls here.
 */
import type { AddressInfo } from 'node:net';
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { paths as AccessPaths } from '../../generated/access-api.d.ts';
import type { paths as ShopPaths } from '../../generated/shop-api.d.ts';
import { createCourse, createPlatform } from '../../helpers/fixtures.ts';
import { adminPost, createTestShop, type TestShop } from '../../helpers/shop.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';

let stack: TestStack;
let baseUrl: string;
let shop: TestShop;
beforeAll(async () => {
  stack = await startTestApp('generated-client');
  await stack.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(stack.app.server.address() as AddressInfo).port}`;
  shop = await createTestShop(stack.app, 'generated-client');
});
afterAll(() => stack?.close());

describe('a client generated from /docs/shop.json', () => {
  it('creates a product, clears an order of it and reads the order, with the shop key', async () => {
    const client = createClient<ShopPaths>({ baseUrl, headers: { 'X-API-KEY': shop.key } });

    const created = await client.POST('/api/v1/products', { body: { name: 'Generated book', price: '19.90' } });
    expect(created.response.status, JSON.stringify(created.error)).toBe(201);
    const product = created.data!.data;
    expect(product).toMatchObject({ name: 'Generated book', price: '19.90' });

    // The shop API places no orders (the storefront and the operator do): the operator places it.
    const placed = await adminPost(stack.app, `/admin/v1/shops/${shop.id}/orders`, { email: 'buyer@example.com', items: [{ product_id: product.id, quantity: 2 }] });
    const id = placed.id as number;

    const cleared = await client.PATCH('/api/v1/orders/{id}/clear', { params: { path: { id } } });
    expect(cleared.response.status, JSON.stringify(cleared.error)).toBe(200);
    expect(cleared.data!.data.paid).toBe(true);

    const read = await client.GET('/api/v1/orders/{id}', { params: { path: { id } } });
    expect(read.response.status).toBe(200);
    const order = read.data!.data;
    expect(order).toMatchObject({ id, paid: true, total: '39.80', email: 'buyer@example.com' });

    const listed = await client.GET('/api/v1/orders', { params: { query: { customer_email: 'buyer@example.com' } } });
    expect(listed.data!.data.map((o) => o.id)).toEqual([id]);
  });

  it('reads the documented error body of a refused request', async () => {
    const client = createClient<ShopPaths>({ baseUrl, headers: { 'X-API-KEY': shop.keys.read } });
    const refused = await client.POST('/api/v1/products', { body: { name: 'Not allowed', price: '1.00' } });
    expect(refused.response.status).toBe(403);
    expect(refused.error).toEqual({ error: expect.stringContaining('write_data') });
  });
});

describe('a client generated from /docs/access.json', () => {
  it('lists the courses with the platform API key', async () => {
    const platform = await createPlatform(stack.app, 'Generated client');
    const course = await createCourse(stack.app, platform.id);
    const client = createClient<AccessPaths>({ baseUrl, headers: { 'X-API-KEY': platform.apiKey } });
    const listed = await client.GET('/api/courses');
    expect(listed.response.status, JSON.stringify(listed.error)).toBe(200);
    expect(JSON.stringify(listed.data)).toContain(course.id);
  });
});

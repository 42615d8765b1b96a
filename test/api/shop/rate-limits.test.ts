import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestShop, operator, type TestShop } from '../../helpers/shop.ts';
import { repeat, statuses } from '../../helpers/limits.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';

/** The shop's limits (spec: Limits): 100 requests and 30 mutations a minute, counted per shop API key. */
let stack: TestStack;
let shop: TestShop;

beforeAll(async () => {
  stack = await startTestApp('shop-rate-limits', { rateLimits: { enabled: true } });
  shop = await createTestShop(stack.app, 'limits');
});
afterAll(() => stack.close());

const newKey = async () =>
  (await stack.app.inject({ method: 'POST', url: `/admin/v1/shops/${shop.id}/api_keys`, headers: operator, payload: { name: 'k', scopes: ['read', 'write_data'] } })).json().data.token as string;

describe('shop rate limits', () => {
  it('answers the 101st request of a minute 429 {error} with Retry-After; another key of the same shop still passes', async () => {
    const key = await newKey();
    const replies = await repeat(101, () => stack.app.inject({ method: 'GET', url: '/api/v1/delivery_types', headers: { 'x-api-key': key } }));
    expect(statuses(replies.slice(0, 100))).toEqual([200]);
    const refused = replies[100]!;
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toHaveProperty('error');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const other = await newKey();
    expect((await stack.app.inject({ method: 'GET', url: '/api/v1/delivery_types', headers: { 'x-api-key': other } })).statusCode).toBe(200);
  });

  it('answers the 31st mutation of a minute 429 while reads of the same key still pass', async () => {
    const key = await newKey();
    const headers = { 'x-api-key': key, 'content-type': 'application/json' };
    const writes = await repeat(31, (i) => stack.app.inject({ method: 'POST', url: '/api/v1/products', headers, payload: { name: `P${i}`, price: '1.00' } }));
    expect(statuses(writes.slice(0, 30))).toEqual([201]);
    expect(writes[30]!.statusCode).toBe(429);
    expect(writes[30]!.headers['retry-after']).toBeDefined();
    expect((await stack.app.inject({ method: 'GET', url: '/api/v1/products', headers: { 'x-api-key': key } })).statusCode).toBe(200);
  });

  it('does not count requests with a wrong key against the shop', async () => {
    const key = await newKey();
    await repeat(5, () => stack.app.inject({ method: 'GET', url: '/api/v1/delivery_types', headers: { 'x-api-key': 'sk_wrong' } }));
    const res = await stack.app.inject({ method: 'GET', url: '/api/v1/delivery_types', headers: { 'x-api-key': key } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-ratelimit-remaining']).toBe('99');
  });
});

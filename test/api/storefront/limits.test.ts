import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Order } from '../../../db/entities/shop/index.ts';
import { trustProxyFrom } from '../../../domain/shared/config.ts';
import { addressSource, repeat, statuses } from '../../helpers/limits.ts';
import { insertProduct } from '../../helpers/shop-catalogue.ts';
import { createTestShop, type TestShop } from '../../helpers/shop.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';
import { buyer } from '../../helpers/storefront.ts';

let limited: TestStack;
let proxied: TestStack;
let shop: TestShop;
let productId: number;
const nextAddress = addressSource(24);

beforeAll(async () => {
  [limited, proxied] = await Promise.all([
    startTestApp('storefront-limits', { rateLimits: { enabled: true } }),
    startTestApp('storefront-proxy', { trustProxy: trustProxyFrom('127.0.0.1') }),
  ]);
  shop = await createTestShop(limited.app, 'limits');
  productId = await insertProduct(limited.orm, shop.id, { name: 'Book' });
});
afterAll(() => Promise.all([limited?.close(), proxied?.close()]));

describe('per-address limits (RATE_LIMITS on)', () => {
  it('allows 120 requests a minute per address, then 429 with Retry-After; another address is unaffected', async () => {
    const address = nextAddress();
    const store = buyer(limited.app, shop.subdomain, address);
    const replies = await repeat(121, () => store.get('/products'));
    expect(statuses(replies.slice(0, 120))).toEqual([200]);
    const refused = replies[120]!;
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json().error).toMatch(/120 requests per minute per client address/);
    expect((await buyer(limited.app, shop.subdomain, nextAddress()).get('/products')).statusCode).toBe(200);
  });

  it('allows 30 writes a minute per address', async () => {
    const store = buyer(limited.app, shop.subdomain, nextAddress());
    const replies = await repeat(31, () => store.post('/carts', { items: [{ product_id: productId }] }));
    expect(statuses(replies.slice(0, 30))).toEqual([201]);
    expect(replies[30]!.statusCode).toBe(429);
    expect(replies[30]!.headers['retry-after']).toBeDefined();
    // Reads of the same address still pass.
    expect((await store.get('/products')).statusCode).toBe(200);
  });
});

describe('placed_ip and TRUST_PROXY', () => {
  async function checkout(stack: TestStack, s: TestShop, product: number, headers: Record<string, string>) {
    const store = buyer(stack.app, s.subdomain, '127.0.0.1');
    const cart = (await store.post('/carts', { items: [{ product_id: product }], email: 'ip@example.com' }, headers)).json().data;
    const res = await store.post(`/carts/${cart.id}/checkout`, undefined, headers);
    expect(res.statusCode, res.body).toBe(201);
    return (await stack.orm.em.fork().findOneOrFail(Order, res.json().data.order_id, { filters: false })).placedIp;
  }

  it('ignores X-Forwarded-For unless the proxy is trusted', async () => {
    expect(await checkout(limited, shop, productId, { 'x-forwarded-for': '198.51.100.9' })).toBe('127.0.0.1');
    const s = await createTestShop(proxied.app, 'proxied');
    const product = await insertProduct(proxied.orm, s.id, { name: 'Book' });
    expect(await checkout(proxied, s, product, { 'x-forwarded-for': '198.51.100.9' })).toBe('198.51.100.9');
  });

  it('reads TRUST_PROXY as Fastify does', () => {
    expect(trustProxyFrom(undefined)).toBe(false);
    expect(trustProxyFrom('false')).toBe(false);
    expect(trustProxyFrom('true')).toBe(true);
    expect(trustProxyFrom('10.0.0.0/8, 127.0.0.1')).toBe('10.0.0.0/8, 127.0.0.1');
  });
});

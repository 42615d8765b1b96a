import type { Redis } from 'ioredis';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../../api/app.ts';
import { createPlatform, operator, type TestPlatform } from '../../helpers/fixtures.ts';
import { addressSource, repeat, statuses } from '../../helpers/limits.ts';
import { deleteKeys, openTestRedis, TEST_REDIS_URL, uniqueKeyPrefix } from '../../helpers/redis.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';

let stack: TestStack;
beforeAll(async () => {
  stack = await startTestApp('rate-limits', { rateLimits: { enabled: true } });
});
afterAll(() => stack?.close());

// Every test speaks from addresses of its own, so their per-address counts never meet.
const newAddress = addressSource(20);

interface Call {
  ip: string;
  key?: string;
  method?: 'GET' | 'POST' | 'DELETE';
  url?: string;
  headers?: Record<string, string>;
}

function call(app: App, { ip, key, method = 'GET', url = '/api/test', headers = {} }: Call) {
  return app.inject({
    method,
    url,
    remoteAddress: ip,
    headers: { ...(key === undefined ? {} : { 'x-api-key': key }), ...headers },
    ...(method === 'GET' ? {} : { payload: {} }),
  });
}

const quota = (res: LightMyRequestResponse) => [res.headers['x-ratelimit-limit'], res.headers['x-ratelimit-remaining']].map(Number);

function expectLimited(res: LightMyRequestResponse, limit: number, windowSeconds: number, says: RegExp) {
  expect(res.statusCode, res.body).toBe(429);
  expect(res.json()).toEqual({ error: expect.stringMatching(says) });
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
  expect(res.headers['x-ratelimit-limit']).toBe(String(limit));
  expect(res.headers['x-ratelimit-remaining']).toBe('0');
  expect(res.headers['x-ratelimit-reset']).toBe(String(retryAfter));
}

// A grant or revoke with an empty body is answered 400 without starting any work; it still counts.
const mutation = (i: number): Pick<Call, 'method' | 'url'> =>
  i % 2 === 0 ? { method: 'POST', url: '/api/courses/subscribe' } : { method: 'DELETE', url: '/api/courses/unsubscribe' };

describe('general limit: 100 requests per minute per API key', () => {
  it('answers the 101st request 429 with Retry-After and the quota headers; another key is unaffected', async () => {
    const [a, b] = await Promise.all([createPlatform(stack.app, 'A'), createPlatform(stack.app, 'B')]);
    const ip = newAddress();
    const first = await call(stack.app, { ip, key: a.apiKey });
    expect(first.statusCode).toBe(200);
    expect(quota(first)).toEqual([100, 99]);
    const reset = Number(first.headers['x-ratelimit-reset']);
    expect(reset).toBeGreaterThan(0);
    expect(reset).toBeLessThanOrEqual(60);

    const rest = await repeat(99, () => call(stack.app, { ip, key: a.apiKey }));
    expect(statuses(rest)).toEqual([200]);
    expect(quota(rest.at(-1)!)).toEqual([100, 0]);

    expectLimited(await call(stack.app, { ip, key: a.apiKey }), 100, 60, /100 requests per minute per API key/);
    expectLimited(await call(stack.app, { ip: newAddress(), key: a.apiKey, url: '/api/courses' }), 100, 60, /per API key/);

    const other = await call(stack.app, { ip: newAddress(), key: b.apiKey });
    expect(other.statusCode).toBe(200);
    expect(quota(other)).toEqual([100, 99]);
  });
});

describe('mutation limit: 30 POST or DELETE per minute per API key', () => {
  it('answers the 31st mutation 429 while GETs still pass', async () => {
    const [a, b] = await Promise.all([createPlatform(stack.app), createPlatform(stack.app)]);
    const ip = newAddress();
    const replies = await repeat(30, (i) => call(stack.app, { ip, key: a.apiKey, ...mutation(i) }));
    expect(statuses(replies)).toEqual([400]);
    expect(quota(replies[0]!)).toEqual([30, 29]);
    expect(quota(replies.at(-1)!)).toEqual([30, 0]);

    expectLimited(await call(stack.app, { ip, key: a.apiKey, ...mutation(0) }), 30, 60, /30 POST or DELETE requests per minute/);
    expectLimited(await call(stack.app, { ip, key: a.apiKey, ...mutation(1) }), 30, 60, /POST or DELETE/);

    const get = await call(stack.app, { ip, key: a.apiKey, url: '/api/courses' });
    expect(get.statusCode).toBe(200);
    expect(quota(get)).toEqual([100, 100 - 33]);

    expect((await call(stack.app, { ip, key: b.apiKey, ...mutation(0) })).statusCode).toBe(400);
  });
});

describe('per-address limit: 120 requests per minute per IP address', () => {
  it('answers the 121st request from one address 429 whatever the key; another address is unaffected', async () => {
    const platforms = await Promise.all([1, 2, 3, 4].map(() => createPlatform(stack.app)));
    const ip = newAddress();
    const replies = await repeat(120, (i) => call(stack.app, { ip, key: platforms[i % 3]!.apiKey }));
    expect(statuses(replies)).toEqual([200]);
    // Below 100 per key, the address is the tightest limit.
    expect(quota(replies.at(-1)!)).toEqual([120, 0]);

    expectLimited(await call(stack.app, { ip, key: platforms[3]!.apiKey }), 120, 60, /120 requests per minute per IP address/);
    expectLimited(await call(stack.app, { ip }), 120, 60, /per IP address/);
    expect((await call(stack.app, { ip: newAddress(), key: platforms[3]!.apiKey })).statusCode).toBe(200);
  });

  it('counts IPv6 clients per /64 network', async () => {
    const platforms = await Promise.all([createPlatform(stack.app), createPlatform(stack.app)]);
    const replies = await repeat(121, (i) => call(stack.app, { ip: `2001:db8:77::${(i + 1).toString(16)}`, key: platforms[i % 2]!.apiKey }));
    expect(statuses(replies.slice(0, 120))).toEqual([200]);
    expectLimited(replies.at(-1)!, 120, 60, /per IP address/);
  });
});

describe('requests without a valid key: 5 per 5 minutes per IP address', () => {
  it('counts missing keys, wrong keys and refused Referers, and answers the 6th 429', async () => {
    const platform = await createPlatform(stack.app);
    await stack.app.inject({ method: 'PUT', url: `/admin/v1/platforms/${platform.id}/allowed_domains`, headers: operator, payload: { domains: ['shop.example.com'] } });
    const ip = newAddress();
    const attempts: Omit<Call, 'ip'>[] = [
      {},
      { key: '' },
      { key: 'ak_wrong' },
      { key: platform.apiKey, headers: { referer: 'https://evil.example.net/' } },
      { key: 'ak_wrong', url: '/api/courses' },
    ];
    const replies = await repeat(5, (i) => call(stack.app, { ip, ...attempts[i] }));
    expect(statuses(replies)).toEqual([401]);
    expect(replies.map(quota)).toEqual([[5, 4], [5, 3], [5, 2], [5, 1], [5, 0]]);

    expectLimited(await call(stack.app, { ip }), 5, 300, /5 requests without a valid API key per 5 minutes/);
    // Until the window ends no key is tried from this address, so a guessed key cannot be confirmed.
    expectLimited(await call(stack.app, { ip, key: platform.apiKey }), 5, 300, /without a valid API key/);

    expect((await call(stack.app, { ip: newAddress() })).statusCode).toBe(401);
    expect((await call(stack.app, { ip: newAddress(), key: platform.apiKey })).statusCode).toBe(200);
  });

  it('does not count requests with a valid key', async () => {
    const platform = await createPlatform(stack.app);
    const ip = newAddress();
    expect(statuses(await repeat(10, () => call(stack.app, { ip, key: platform.apiKey })))).toEqual([200]);
    expect(statuses(await repeat(5, () => call(stack.app, { ip })))).toEqual([401]);
  });
});

describe('persistent requests without a key', () => {
  it('block the address for one hour after 10 refusals: 403 {error} with Retry-After, for every key', async () => {
    const platform = await createPlatform(stack.app);
    const ip = newAddress();
    expect(statuses(await repeat(5, () => call(stack.app, { ip, key: 'ak_guess' })))).toEqual([401]);
    expect(statuses(await repeat(10, () => call(stack.app, { ip, key: 'ak_guess' })))).toEqual([429]);

    const blocked = await call(stack.app, { ip, key: 'ak_guess' });
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json()).toEqual({ error: expect.stringMatching(/blocked/) });
    expect(blocked.headers['retry-after']).toBe('3600');

    const stillBlocked = await call(stack.app, { ip, key: platform.apiKey, url: '/api/courses' });
    expect(stillBlocked.statusCode).toBe(403);
    expect(Number(stillBlocked.headers['retry-after'])).toBeGreaterThan(3590);

    expect((await call(stack.app, { ip: newAddress(), key: platform.apiKey })).statusCode).toBe(200);
    // The block concerns the access interface only.
    expect((await stack.app.inject({ method: 'GET', url: '/health', remoteAddress: ip })).statusCode).toBe(200);
    expect((await stack.app.inject({ method: 'GET', url: `/admin/v1/platforms/${platform.id}/emails?to=x@example.com`, headers: operator, remoteAddress: ip })).statusCode).toBe(200);
  });
});

describe('what is not limited', () => {
  it('the operator API', async () => {
    const platform = await createPlatform(stack.app);
    const ip = newAddress();
    const replies = await repeat(130, () =>
      stack.app.inject({ method: 'GET', url: `/admin/v1/platforms/${platform.id}/emails?to=x@example.com`, headers: operator, remoteAddress: ip }),
    );
    expect(statuses(replies)).toEqual([200]);
    expect(replies.at(-1)!.headers['x-ratelimit-limit']).toBeUndefined();
  });

  it('the OpenAPI document, which documents the 403 and 429 replies of every access route', async () => {
    const ip = newAddress();
    const replies = await repeat(7, () => stack.app.inject({ method: 'GET', url: '/docs/json', remoteAddress: ip }));
    expect(statuses(replies)).toEqual([200]);
    const doc = replies[0]!.json();
    for (const [path, operations] of Object.entries<Record<string, { responses: Record<string, unknown> }>>(doc.paths)) {
      // The access interface only: `/api/v1/...` is the configuration interface and the shop.
      if (!path.startsWith('/api/') || path.startsWith('/api/v1/')) continue;
      for (const operation of Object.values(operations)) expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['401', '403', '429']));
    }
    expect(JSON.stringify(doc.paths['/api/test'].get.responses['429'])).toContain('Retry-After');
  });
});

describe('RATE_LIMITS=off', () => {
  let off: TestStack;
  beforeAll(async () => {
    off = await startTestApp('rate-limits-off', { rateLimits: { enabled: false } });
  });
  afterAll(() => off?.close());

  it('lets every request through without quota headers', async () => {
    const platform = await createPlatform(off.app);
    const ip = newAddress();
    const replies = await repeat(130, (i) => call(off.app, { ip, key: platform.apiKey, ...(i < 40 ? mutation(i) : {}) }));
    expect(statuses(replies.slice(0, 40))).toEqual([400]);
    expect(statuses(replies.slice(40))).toEqual([200]);
    expect(replies.at(-1)!.headers['x-ratelimit-limit']).toBeUndefined();
    expect(statuses(await repeat(20, () => call(off.app, { ip })))).toEqual([401]);
  });
});

const redis: Redis | undefined = await openTestRedis();

describe.skipIf(!redis)('with REDIS_URL', () => {
  const keyPrefix = uniqueKeyPrefix('access');
  let one: TestStack;
  let two: TestStack;
  let platform: TestPlatform;
  beforeAll(async () => {
    const rateLimits = { enabled: true, redisUrl: TEST_REDIS_URL, keyPrefix };
    [one, two] = await Promise.all([startTestApp('rate-limits-redis-1', { rateLimits }), startTestApp('rate-limits-redis-2', { rateLimits })]);
    platform = await createPlatform(one.app);
  });
  afterAll(async () => {
    await Promise.all([one?.close(), two?.close()]);
    await deleteKeys(redis!, keyPrefix);
    redis!.disconnect();
  });

  it('two api instances share the per-key count', async () => {
    const ip = newAddress();
    const replies = await repeat(100, (i) => call(i % 2 === 0 ? one.app : two.app, { ip, key: platform.apiKey }));
    expect(statuses(replies)).toEqual([200]);
    expect(quota(replies.at(-1)!)).toEqual([100, 0]);
    expectLimited(await call(one.app, { ip, key: platform.apiKey }), 100, 60, /per API key/);
    expectLimited(await call(two.app, { ip, key: platform.apiKey }), 100, 60, /per API key/);
    expect((await redis!.keys(`${keyPrefix}*`)).length).toBeGreaterThan(0);
  });

  it('two api instances share the keyless count and the block', async () => {
    const ip = newAddress();
    expect(statuses(await repeat(5, (i) => call(i % 2 === 0 ? one.app : two.app, { ip })))).toEqual([401]);
    expect(statuses(await repeat(10, (i) => call(i % 2 === 0 ? two.app : one.app, { ip })))).toEqual([429]);
    expect((await call(one.app, { ip })).statusCode).toBe(403);
    const blocked = await call(two.app, { ip, key: platform.apiKey });
    expect(blocked.statusCode).toBe(403);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(3590);
  });
});

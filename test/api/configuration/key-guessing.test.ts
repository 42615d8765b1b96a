import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../../api/app.ts';
import { CONFIGURATION, createConfigurationKey } from '../../helpers/configuration.ts';
import { createPlatform, type TestPlatform } from '../../helpers/fixtures.ts';
import { addressSource, repeat, statuses } from '../../helpers/limits.ts';
import { deleteKeys, openTestRedis, TEST_REDIS_URL, uniqueKeyPrefix } from '../../helpers/redis.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';

let stack: TestStack;
let platform: TestPlatform;
let configKey: string;
beforeAll(async () => {
  stack = await startTestApp('key-guessing', { rateLimits: { enabled: true } });
  platform = await createPlatform(stack.app);
  configKey = (await createConfigurationKey(stack.app, platform.id)).token;
});
afterAll(() => stack?.close());

// Every test speaks from addresses of its own, so their counts never meet.
const newAddress = addressSource(30);

const configuration = (app: App, ip: string, key?: string) =>
  app.inject({ method: 'GET', url: `${CONFIGURATION}/self`, remoteAddress: ip, headers: key === undefined ? {} : { 'x-api-key': key } });
const access = (app: App, ip: string, key?: string) =>
  app.inject({ method: 'GET', url: '/api/test', remoteAddress: ip, headers: key === undefined ? {} : { 'x-api-key': key } });


describe('requests to the configuration interface without a valid key', () => {
  it('5 per 5 minutes per address, the 6th 429 even with the right key', async () => {
    const ip = newAddress();
    const replies = await repeat(5, (i) => configuration(stack.app, ip, ['ck_wrong', '', undefined, 'ck_guess', 'x'][i]));
    expect(statuses(replies)).toEqual([401]);
    expect(replies.map((r) => [r.headers['x-ratelimit-limit'], r.headers['x-ratelimit-remaining']])).toEqual([
      ['5', '4'], ['5', '3'], ['5', '2'], ['5', '1'], ['5', '0'],
    ]);
    const limited = await configuration(stack.app, ip, configKey);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ error: expect.stringMatching(/5 requests without a valid API key per 5 minutes/) });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(300);

    expect((await configuration(stack.app, newAddress(), configKey)).statusCode).toBe(200);
  });

  it('requests with a valid configuration key are not counted', async () => {
    const ip = newAddress();
    expect(statuses(await repeat(8, () => configuration(stack.app, ip, configKey)))).toEqual([200]);
    expect(statuses(await repeat(5, () => configuration(stack.app, ip)))).toEqual([401]);
  });

  it('one count for both interfaces: 3 guesses at one and 2 at the other use up the quota of both', async () => {
    const ip = newAddress();
    expect(statuses(await repeat(3, () => access(stack.app, ip, 'ak_guess')))).toEqual([401]);
    expect(statuses(await repeat(2, () => configuration(stack.app, ip, 'ck_guess')))).toEqual([401]);
    expect((await access(stack.app, ip, platform.apiKey)).statusCode).toBe(429);
    expect((await configuration(stack.app, ip, configKey)).statusCode).toBe(429);
  });

  it('persistent guessing blocks the address for one hour on both interfaces (one blocklist)', async () => {
    const ip = newAddress();
    expect(statuses(await repeat(5, () => configuration(stack.app, ip, 'ck_guess')))).toEqual([401]);
    expect(statuses(await repeat(10, () => configuration(stack.app, ip, 'ck_guess')))).toEqual([429]);
    const blocked = await configuration(stack.app, ip, configKey);
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json()).toEqual({ error: expect.stringMatching(/blocked/) });
    expect(blocked.headers['retry-after']).toBe('3600');
    const onAccess = await access(stack.app, ip, platform.apiKey);
    expect(onAccess.statusCode).toBe(403);
    expect(Number(onAccess.headers['retry-after'])).toBeGreaterThan(3590);
    expect((await configuration(stack.app, newAddress(), configKey)).statusCode).toBe(200);
  });
});

const redis: Redis | undefined = await openTestRedis();

describe.skipIf(!redis)('with REDIS_URL', () => {
  const keyPrefix = uniqueKeyPrefix('keyless');
  let one: TestStack;
  let two: TestStack;
  let shared: TestPlatform;
  beforeAll(async () => {
    const rateLimits = { enabled: true, redisUrl: TEST_REDIS_URL, keyPrefix };
    [one, two] = await Promise.all([startTestApp('key-guessing-redis-1', { rateLimits }), startTestApp('key-guessing-redis-2', { rateLimits })]);
    shared = await createPlatform(one.app);
  });
  afterAll(async () => {
    await Promise.all([one?.close(), two?.close()]);
    await deleteKeys(redis!, keyPrefix);
    redis!.disconnect();
  });

  it('two api instances share the keyless count and the block across both interfaces', async () => {
    const ip = newAddress();
    expect(statuses(await repeat(5, (i) => (i % 2 === 0 ? configuration(one.app, ip) : access(two.app, ip))))).toEqual([401]);
    expect(statuses(await repeat(10, (i) => (i % 2 === 0 ? access(one.app, ip) : configuration(two.app, ip))))).toEqual([429]);
    expect((await configuration(one.app, ip)).statusCode).toBe(403);
    expect((await access(two.app, ip, shared.apiKey)).statusCode).toBe(403);
  });
});

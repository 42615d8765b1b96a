import type { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryBlocklist, createRedisBlocklist, type Blocklist } from '../../../api/shared/rate-limits/blocklist.ts';
import { deleteKeys, openTestRedis, uniqueKeyPrefix } from '../../helpers/redis.ts';

describe('memory blocklist', () => {
  it('blocks an address until the duration has passed', async () => {
    let now = 1_000_000;
    const blocklist = createMemoryBlocklist(() => now);
    await blocklist.block('10.0.0.1', 3_600_000);
    expect(await blocklist.remainingMs('10.0.0.1')).toBe(3_600_000);
    expect(await blocklist.remainingMs('10.0.0.2')).toBe(0);
    now += 3_599_000;
    expect(await blocklist.remainingMs('10.0.0.1')).toBe(1_000);
    now += 1_000;
    expect(await blocklist.remainingMs('10.0.0.1')).toBe(0);
  });

  it('forgets expired blocks when new ones arrive', async () => {
    let now = 0;
    const blocklist = createMemoryBlocklist(() => now);
    await blocklist.block('10.0.0.1', 10);
    now = 20;
    await blocklist.block('10.0.0.2', 10);
    expect(await blocklist.remainingMs('10.0.0.1')).toBe(0);
    expect(await blocklist.remainingMs('10.0.0.2')).toBe(10);
  });
});

const redis: Redis | undefined = await openTestRedis();
const prefix = uniqueKeyPrefix('blocklist');
afterAll(async () => {
  if (!redis) return;
  await deleteKeys(redis, prefix);
  redis.disconnect();
});

describe.skipIf(!redis)('Redis blocklist', () => {
  const blocklist = (): Blocklist => createRedisBlocklist(redis!, prefix);

  it('is shared by every client of the same Redis and prefix', async () => {
    await blocklist().block('10.0.0.1', 3_600_000);
    const remaining = await blocklist().remainingMs('10.0.0.1');
    expect(remaining).toBeGreaterThan(3_590_000);
    expect(remaining).toBeLessThanOrEqual(3_600_000);
    expect(await blocklist().remainingMs('10.0.0.2')).toBe(0);
    expect(await createRedisBlocklist(redis!, `${prefix}other:`).remainingMs('10.0.0.1')).toBe(0);
  });

  it('ends with the key expiry', async () => {
    // Seconds of room: on a loaded machine the first read still comes before the expiry.
    const blockedAt = Date.now();
    await blocklist().block('10.0.0.3', 3_000);
    expect(await blocklist().remainingMs('10.0.0.3')).toBeGreaterThan(0);
    // Polled until it ends (a generous bound), and not before its time.
    while ((await blocklist().remainingMs('10.0.0.3')) > 0) {
      expect(Date.now() - blockedAt).toBeLessThan(30_000);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(Date.now() - blockedAt).toBeGreaterThanOrEqual(2_990);
  });
});

/** The Redis of the rate-limit tests: REDIS_URL or the local default; tests skip when none answers. */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';

export const TEST_REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * The tests' Redis. With `REDIS_URL` set (as .ci/run does when a Redis answers) an unreachable
 * server fails the run instead of skipping; without it, the Redis-shared tests are skipped and
 * said so on the console (the run's summary counts them as skipped).
 */
export async function openTestRedis(): Promise<Redis | undefined> {
  const redis = await tryRedis();
  if (redis) return redis;
  if (process.env.REDIS_URL) throw new Error(`REDIS_URL is set but no Redis answers at ${TEST_REDIS_URL}`);
  console.warn(`[redis] no Redis at ${TEST_REDIS_URL}: the Redis-shared tests of this file are skipped (set REDIS_URL to run them)`);
  return undefined;
}

async function tryRedis(): Promise<Redis | undefined> {
  const redis = new Redis(TEST_REDIS_URL, { lazyConnect: true, connectTimeout: 500, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.ping();
    return redis;
  } catch {
    redis.disconnect();
    return undefined;
  }
}

/** A key prefix of its own per test run, so reruns and parallel files never share counters. */
export const uniqueKeyPrefix = (label: string) => `test:${label}:${randomUUID().slice(0, 8)}:`;

export async function deleteKeys(redis: Redis, prefix: string): Promise<void> {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
}

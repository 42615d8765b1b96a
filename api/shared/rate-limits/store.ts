import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';

/** How an app limits requests: `RATE_LIMITS` and `REDIS_URL` of the config. */
export interface RateLimitSettings {
  enabled: boolean;
  /** Counters shared by every api instance on this Redis; in-process when unset. */
  redisUrl?: string;
  /** Leading part of every Redis key (tests use one per run). */
  keyPrefix?: string;
}

/** Store options for `@fastify/rate-limit`: `redis` absent means its in-process LRU store. */
export interface RateLimitStore {
  redis?: Redis;
  nameSpace: string;
}

/**
 * The counter store of one interface (`scope` separates their keys). With a Redis URL it opens a
 * client that closes with the app. A limiter must not make requests wait for an unreachable
 * Redis, so a command fails after one retry and the limiter lets the request through.
 */
export function rateLimitStore(app: FastifyInstance, settings: RateLimitSettings, scope: string): RateLimitStore {
  const nameSpace = `${settings.keyPrefix ?? 'rate-limit:'}${scope}:`;
  if (!settings.redisUrl) return { nameSpace };
  const redis = new Redis(settings.redisUrl, { maxRetriesPerRequest: 1, connectTimeout: 1000 });
  redis.on('error', (err: Error) => app.log.warn({ err }, 'rate-limit Redis unavailable'));
  app.addHook('onClose', async () => {
    await redis.quit().catch(() => redis.disconnect());
  });
  return { redis, nameSpace };
}

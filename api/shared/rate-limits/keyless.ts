import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { ACCESS_RATE_LIMITS, IP_BLOCK, type Quota } from '../../../domain/shared/rate-limits.ts';
import { createMemoryBlocklist, createRedisBlocklist, type Blocklist } from './blocklist.ts';
import { addressBlocked, quotaHeaders, tooManyRequests } from './replies.ts';
import { rateLimitStore, type RateLimitSettings } from './store.ts';

const RULE = ACCESS_RATE_LIMITS.keyless;

/** IPv6 clients are counted per /64, IPv4-mapped addresses as IPv4 (`@fastify/rate-limit`'s rule). */
export const addressOf = (request: FastifyRequest) => normalizeIP(request.ip);

interface WindowCount {
  count: number;
  resetMs: number;
}

/** A fixed-window counter of unauthenticated requests per address. */
interface KeylessCounter {
  get(address: string): Promise<WindowCount>;
  hit(address: string): Promise<WindowCount>;
}

function memoryCounter(now: () => number = Date.now): KeylessCounter {
  const windows = new Map<string, { count: number; endsAt: number }>();
  const current = (address: string) => {
    const t = now();
    for (const [a, w] of windows) if (w.endsAt <= t) windows.delete(a);
    return windows.get(address);
  };
  return {
    async get(address) {
      const w = current(address);
      return w ? { count: w.count, resetMs: w.endsAt - now() } : { count: 0, resetMs: RULE.windowMs };
    },
    async hit(address) {
      const w = current(address) ?? { count: 0, endsAt: now() + RULE.windowMs };
      w.count += 1;
      windows.set(address, w);
      return { count: w.count, resetMs: w.endsAt - now() };
    },
  };
}

function redisCounter(redis: Redis, prefix: string): KeylessCounter {
  const read = (replies: [Error | null, unknown][] | null, countAt: number): WindowCount => {
    if (!replies) throw new Error('keyless counter: transaction aborted');
    for (const [err] of replies) if (err) throw err;
    const ttl = Number(replies[countAt + 1]![1]);
    return { count: Number(replies[countAt]![1] ?? 0), resetMs: ttl > 0 ? ttl : RULE.windowMs };
  };
  return {
    async get(address) {
      return read(await redis.multi().get(prefix + address).pttl(prefix + address).exec(), 0);
    },
    async hit(address) {
      const key = prefix + address;
      return read(await redis.multi().set(key, '0', 'PX', RULE.windowMs, 'NX').incr(key).pttl(key).exec(), 1);
    },
  };
}

/**
 * The protection against key guessing, one per app and shared by every interface that registers
 * `keylessProtection` (the access and the configuration interface): one count of unauthenticated
 * requests per address and one blocklist, in Redis when `REDIS_URL` is set (so shared by every
 * api instance too), else in process.
 */
interface KeylessGuard {
  blocklist: Blocklist;
  counter: KeylessCounter;
}

/** Keyed by the app's HTTP server, which every encapsulated context of one app shares. */
const guards = new WeakMap<object, KeylessGuard>();

function guardOf(app: FastifyInstance, settings: RateLimitSettings): KeylessGuard {
  let guard = guards.get(app.server);
  if (!guard) {
    const { redis, nameSpace } = rateLimitStore(app, settings, 'keyless');
    guard = redis
      ? { blocklist: createRedisBlocklist(redis, `${nameSpace}blocked:`), counter: redisCounter(redis, `${nameSpace}count:`) }
      : { blocklist: createMemoryBlocklist(), counter: memoryCounter() };
    guards.set(app.server, guard);
  }
  return guard;
}

const quotaOf = ({ count, resetMs }: WindowCount): Quota => ({ limit: RULE.max, remaining: Math.max(0, RULE.max - count), resetSeconds: Math.ceil(resetMs / 1000) });

/**
 * Requests without a valid key (spec, Limits): 5 per 5 minutes per address, counted over every
 * interface that registers this plugin; register it before the interface's key check. Per request:
 * 1. onRequest: a blocked address gets 403. An address that has used its quota gets 429 before its
 *    key is even looked at (answering a right key differently would tell a guesser which one is
 *    right), and after `IP_BLOCK.afterRefusals` such refusals it is blocked for an hour (403).
 * 2. onSend: a 401 (the key check refused it) counts and carries the keyless quota headers.
 * A store that fails lets the request through: the limits protect, they must not take the API down.
 */
export const keylessProtection = fp(
  async (app: FastifyInstance, settings: RateLimitSettings) => {
    if (!settings.enabled) return;
    const { blocklist, counter } = guardOf(app, settings);
    const unavailable = (request: FastifyRequest) => (err: unknown) => {
      request.log.warn({ err }, 'keyless counter or IP blocklist unavailable');
      return undefined;
    };

    app.addHook('onRequest', async (request) => {
      const address = addressOf(request);
      const blocked = await blocklist.remainingMs(address).catch(unavailable(request));
      if (blocked) throw addressBlocked(blocked);
      const seen = await counter.get(address).catch(unavailable(request));
      if (!seen || seen.count < RULE.max) return;
      const refused = await counter.hit(address).catch(unavailable(request));
      if (!refused) return;
      if (refused.count > RULE.max + IP_BLOCK.afterRefusals) {
        await blocklist.block(address, IP_BLOCK.durationMs).catch(unavailable(request));
        request.log.warn({ address, url: request.url }, 'IP address blocked after persistent requests without a valid key');
        throw addressBlocked(IP_BLOCK.durationMs);
      }
      throw tooManyRequests(RULE, quotaOf(refused).resetSeconds);
    });

    app.addHook('onSend', async (request, reply, payload) => {
      if (reply.statusCode !== 401) return payload;
      // Not authenticated, so the keyless quota is the one this client is spending.
      const counted = await counter.hit(addressOf(request)).catch(unavailable(request));
      if (counted) reply.headers(quotaHeaders(quotaOf(counted)));
      return payload;
    });
  },
  { name: 'keyless-protection' },
);

import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { RateLimitRule } from '../../domain/shared/rate-limits.ts';
import { isWrite } from './json-only.ts';
import { quotaHeaders, tooManyRequests } from './rate-limits/replies.ts';
import { rateLimitStore, type RateLimitSettings } from './rate-limits/store.ts';

export interface KeyRateLimit {
  rule: RateLimitRule;
  /** Counts writes (POST, PUT, PATCH, DELETE) only; otherwise every request. */
  writesOnly: boolean;
}

export interface KeyRateLimitOptions {
  settings: RateLimitSettings;
  /** Name space of the counters in the store (one per interface). */
  scope: string;
  limits: readonly KeyRateLimit[];
  /** Whom a request is counted for (the authenticated key). */
  keyOf(request: FastifyRequest): string;
}

/**
 * Per-key request limits of the encapsulating interface, counted after the key and its scope
 * were accepted (register after the key check) and before the body is read. Over a limit: 429
 * naming the rule, with `Retry-After`; a counted request carries the `x-ratelimit-*` headers of
 * the last limit counted. The store is the app's (Redis when `REDIS_URL` is set) under `scope`.
 */
export const keyRateLimits = fp(
  async (app: FastifyInstance, { settings, scope, limits, keyOf }: KeyRateLimitOptions) => {
    if (!settings.enabled) return;
    await app.register(rateLimit, { global: false, skipOnError: true, ...rateLimitStore(app, settings, scope) });
    const checks = limits.map(({ rule, writesOnly }) => ({
      rule,
      writesOnly,
      check: app.createRateLimit({ max: rule.max, timeWindow: rule.windowMs, keyGenerator: (request) => `${rule.name}:${keyOf(request)}` }),
    }));
    app.addHook('onRequest', async (request, reply) => {
      for (const { rule, writesOnly, check } of checks) {
        if (writesOnly && !isWrite(request)) continue;
        const result = await check(request);
        if (result.isAllowed) continue;
        reply.headers(quotaHeaders({ limit: result.max, remaining: result.remaining, resetSeconds: result.ttlInSeconds }));
        if (result.isExceeded) throw tooManyRequests(rule, result.ttlInSeconds);
      }
    });
  },
  { name: 'key-rate-limits' },
);

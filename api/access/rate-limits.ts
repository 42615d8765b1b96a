import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ACCESS_RATE_LIMITS as RULES, isMutation, tightestQuota, type Quota, type RateLimitRule } from '../../domain/shared/rate-limits.ts';
import { hashToken } from '../shared/tokens.ts';
import { addressOf, keylessProtection } from '../shared/rate-limits/keyless.ts';
import { AddressBlockedReply, quotaHeaders, RateLimitedReply, tooManyRequests } from '../shared/rate-limits/replies.ts';
import { rateLimitStore, type RateLimitSettings } from '../shared/rate-limits/store.ts';

interface Counted {
  quota: Quota;
  exceeded: boolean;
}

/** Counters never hold a key itself, only part of its hash. */
const apiKeyOf = (request: FastifyRequest) => hashToken(String(request.headers['x-api-key'])).slice(0, 32);

/** Every access route documents the 403 of a blocked address and the 429 of a limit. */
function documentLimitReplies(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    route.schema ??= {};
    const response = (route.schema.response ??= {}) as Record<number, unknown>;
    response[403] ??= AddressBlockedReply;
    response[429] ??= RateLimitedReply;
  });
}

/**
 * The access interface's limits (domain/rate-limits.ts), counted by `@fastify/rate-limit` in
 * Redis or in process. Register before `apiKeyAuth`; per request:
 * 1. onRequest: the protection against key guessing shared with the configuration interface
 *    (api/shared/rate-limits/keyless.ts: blocked address 403, used-up keyless quota 429, a 401
 *    counts toward it); then the per-address count (429 beyond it).
 * 2. (apiKeyAuth authenticates.)
 * 3. preParsing, so before a body is read: the per-key count and, for POST and DELETE, the
 *    mutation count.
 * Replies carry the `x-ratelimit-*` headers of the tightest quota that applies.
 */
export const accessRateLimits = fp(
  async (app: FastifyInstance, settings: RateLimitSettings) => {
    documentLimitReplies(app);
    if (!settings.enabled) return;

    await app.register(keylessProtection, settings);
    const store = rateLimitStore(app, settings, 'access');
    // A store that fails lets requests through (skipOnError): the limits protect, they must not take the API down.
    await app.register(rateLimit, { global: false, skipOnError: true, cache: 10_000, ...store });

    const counter = (rule: RateLimitRule, keyOf: (request: FastifyRequest) => string) => {
      const check = app.createRateLimit({
        max: rule.max,
        timeWindow: rule.windowMs,
        keyGenerator: (request) => `${rule.name}:${keyOf(request)}`,
      });
      return async (request: FastifyRequest): Promise<Counted> => {
        const result = await check(request);
        if (result.isAllowed) throw new Error('rate limits have no allow list');
        const quota = { limit: result.max, remaining: result.remaining, resetSeconds: result.ttlInSeconds };
        return { quota, exceeded: result.isExceeded };
      };
    };
    const perAddress = counter(RULES.perAddress, addressOf);
    const perKey = counter(RULES.general, apiKeyOf);
    const mutations = counter(RULES.mutations, apiKeyOf);

    const tightest = new WeakMap<FastifyRequest, Quota>();
    const report = (request: FastifyRequest, reply: FastifyReply, quotas: Quota[]) => {
      const previous = tightest.get(request);
      const quota = tightestQuota(previous ? [previous, ...quotas] : quotas);
      if (!quota) return;
      tightest.set(request, quota);
      reply.headers(quotaHeaders(quota));
    };
    app.addHook('onRequest', async (request, reply) => {
      const ip = await perAddress(request);
      if (ip.exceeded) throw tooManyRequests(RULES.perAddress, ip.quota.resetSeconds);
      report(request, reply, [ip.quota]);
    });

    app.addHook('preParsing', async (request, reply, payload) => {
      const [key, mutation] = await Promise.all([perKey(request), isMutation(request.method) ? mutations(request) : undefined]);
      if (key.exceeded) throw tooManyRequests(RULES.general, key.quota.resetSeconds);
      if (mutation?.exceeded) throw tooManyRequests(RULES.mutations, mutation.quota.resetSeconds);
      report(request, reply, mutation ? [key.quota, mutation.quota] : [key.quota]);
      return payload;
    });
  },
  { name: 'access-rate-limits' },
);

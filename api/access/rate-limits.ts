import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ACCESS_RATE_LIMITS as RULES, IP_BLOCK, isMutation, tightestQuota, type Quota, type RateLimitRule } from '../../domain/shared/rate-limits.ts';
import { hashToken } from '../shared/tokens.ts';
import { createMemoryBlocklist, createRedisBlocklist } from '../shared/rate-limits/blocklist.ts';
import { addressBlocked, AddressBlockedReply, quotaHeaders, RateLimitedReply, tooManyRequests } from '../shared/rate-limits/replies.ts';
import { rateLimitStore, type RateLimitSettings } from '../shared/rate-limits/store.ts';

interface Counted {
  quota: Quota;
  exceeded: boolean;
  banned: boolean;
}

/** IPv6 clients are counted per /64, IPv4-mapped addresses as IPv4 (the library's own rule). */
const addressOf = (request: FastifyRequest) => normalizeIP(request.ip);
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
 * 1. onRequest: a blocked address gets 403; then the per-address count (429 beyond it); then an
 *    address that has used its keyless quota gets 429 before its key is even looked at, and
 *    after `IP_BLOCK.afterRefusals` such refusals the address is blocked (403) for an hour.
 * 2. (apiKeyAuth authenticates; a 401 reply counts toward the keyless quota in onSend.)
 * 3. preParsing, so before a body is read: the per-key count and, for POST and DELETE, the
 *    mutation count.
 * Replies carry the `x-ratelimit-*` headers of the tightest quota that applies.
 */
export const accessRateLimits = fp(
  async (app: FastifyInstance, settings: RateLimitSettings) => {
    documentLimitReplies(app);
    if (!settings.enabled) return;

    const store = rateLimitStore(app, settings, 'access');
    // A store that fails lets requests through (skipOnError): the limits protect, they must not take the API down.
    await app.register(rateLimit, { global: false, skipOnError: true, cache: 10_000, ...store });
    const blocklist = store.redis ? createRedisBlocklist(store.redis, `${store.nameSpace}blocked:`) : createMemoryBlocklist();

    const counter = (rule: RateLimitRule, keyOf: (request: FastifyRequest) => string, ban?: number) => {
      const check = app.createRateLimit({
        max: rule.max,
        timeWindow: rule.windowMs,
        keyGenerator: (request) => `${rule.name}:${keyOf(request)}`,
        ...(ban === undefined ? {} : { ban }),
      });
      return async (request: FastifyRequest, increment = true): Promise<Counted> => {
        const result = await check(request, { increment });
        if (result.isAllowed) throw new Error('rate limits have no allow list');
        const quota = { limit: result.max, remaining: result.remaining, resetSeconds: result.ttlInSeconds };
        return { quota, exceeded: result.isExceeded, banned: result.isBanned };
      };
    };
    const perAddress = counter(RULES.perAddress, addressOf);
    const keyless = counter(RULES.keyless, addressOf, IP_BLOCK.afterRefusals);
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
    const blockedMs = (request: FastifyRequest, address: string) =>
      blocklist.remainingMs(address).catch((err: unknown) => {
        request.log.warn({ err }, 'IP blocklist unavailable');
        return 0;
      });

    app.addHook('onRequest', async (request, reply) => {
      const address = addressOf(request);
      const blocked = await blockedMs(request, address);
      if (blocked > 0) throw addressBlocked(blocked);

      const ip = await perAddress(request);
      if (ip.exceeded) throw tooManyRequests(RULES.perAddress, ip.quota.resetSeconds);
      report(request, reply, [ip.quota]);

      // Once the keyless quota is used up, no key is even tried until the window ends: answering a
      // right key differently would tell a key guesser which one is right.
      if ((await keyless(request, false)).quota.remaining > 0) return;
      const refused = await keyless(request);
      if (refused.banned) {
        await blocklist.block(address, IP_BLOCK.durationMs).catch((err: unknown) => request.log.warn({ err }, 'IP blocklist unavailable'));
        request.log.warn({ address }, 'IP address blocked after persistent requests without a valid API key');
        throw addressBlocked(IP_BLOCK.durationMs);
      }
      throw tooManyRequests(RULES.keyless, refused.quota.resetSeconds);
    });

    app.addHook('preParsing', async (request, reply, payload) => {
      const [key, mutation] = await Promise.all([perKey(request), isMutation(request.method) ? mutations(request) : undefined]);
      if (key.exceeded) throw tooManyRequests(RULES.general, key.quota.resetSeconds);
      if (mutation?.exceeded) throw tooManyRequests(RULES.mutations, mutation.quota.resetSeconds);
      report(request, reply, mutation ? [key.quota, mutation.quota] : [key.quota]);
      return payload;
    });

    app.addHook('onSend', async (request, reply, payload) => {
      if (reply.statusCode === 401) {
        // Not authenticated, so the keyless quota is the one this client is spending.
        reply.headers(quotaHeaders((await keyless(request)).quota));
      }
      return payload;
    });
  },
  { name: 'access-rate-limits' },
);

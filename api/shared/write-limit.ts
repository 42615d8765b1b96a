import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { CONFIGURATION_WRITE_LIMIT as RULE } from '../../domain/shared/rate-limits.ts';
import { quotaHeaders, tooManyRequests } from './rate-limits/replies.ts';
import { rateLimitStore, type RateLimitSettings } from './rate-limits/store.ts';
import { isWrite } from './json-only.ts';

/**
 * Configuration writes: 10 a minute per configuration key (spec: Limits), counted after the key
 * and its scope were accepted and before the body is read. Reads are not limited here. The store
 * is the access interface's (Redis when `REDIS_URL` is set) under its own name space.
 */
export async function configurationWriteLimit(app: FastifyInstance, settings: RateLimitSettings): Promise<void> {
  if (!settings.enabled) return;
  await app.register(rateLimit, { global: false, skipOnError: true, ...rateLimitStore(app, settings, 'configuration') });
  const check = app.createRateLimit({
    max: RULE.max,
    timeWindow: RULE.windowMs,
    keyGenerator: (request) => `${RULE.name}:${request.configurationKey?.id ?? 'none'}`,
  });
  app.addHook('onRequest', async (request, reply) => {
    if (!isWrite(request)) return;
    const result = await check(request);
    if (result.isAllowed) return;
    reply.headers(quotaHeaders({ limit: result.max, remaining: result.remaining, resetSeconds: result.ttlInSeconds }));
    if (result.isExceeded) throw tooManyRequests(RULE, result.ttlInSeconds);
  });
}

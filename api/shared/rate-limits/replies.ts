import { z } from 'zod';
import type { Quota, RateLimitRule } from '../../../domain/shared/rate-limits.ts';
import { HttpError } from '../errors.ts';

/** The `x-ratelimit-*` headers of one quota (reset in seconds from now, as `@fastify/rate-limit` sends it). */
export function quotaHeaders(quota: Quota): Record<string, string> {
  return {
    'x-ratelimit-limit': String(quota.limit),
    'x-ratelimit-remaining': String(quota.remaining),
    'x-ratelimit-reset': String(quota.resetSeconds),
  };
}

/** 429 `{error}` naming the exceeded rule, with `Retry-After` and the rule's quota headers. */
export function tooManyRequests(rule: RateLimitRule, resetSeconds: number): HttpError {
  const retryAfter = Math.max(1, resetSeconds);
  return new HttpError(429, `rate limit exceeded: at most ${rule.description}; retry in ${retryAfter} s`, undefined, {
    ...quotaHeaders({ limit: rule.max, remaining: 0, resetSeconds: retryAfter }),
    'retry-after': String(retryAfter),
  });
}

/** 403 `{error}` for a blocked address, with `Retry-After` until the block ends. */
export function addressBlocked(remainingMs: number): HttpError {
  const retryAfter = Math.max(1, Math.ceil(remainingMs / 1000));
  return new HttpError(
    403,
    `this IP address is blocked after repeated requests without a valid API key; retry in ${retryAfter} s`,
    undefined,
    { 'retry-after': String(retryAfter) },
  );
}

// No schema id: the description then becomes the reply's description in the OpenAPI document.
export const RateLimitedReply = z.object({ error: z.string() }).describe(
  'A rate limit is exceeded; `error` names it. Headers: `Retry-After` (seconds), `x-ratelimit-limit`, ' +
    '`x-ratelimit-remaining` (0) and `x-ratelimit-reset` (seconds until the window ends). Other replies carry the ' +
    '`x-ratelimit-*` headers of the tightest limit that applies.',
);

export const AddressBlockedReply = z.object({ error: z.string() }).describe(
  'The IP address is blocked for one hour after persistent requests without a valid API key. ' +
    '`Retry-After` gives the seconds until the block ends.',
);

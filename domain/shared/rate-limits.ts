/** The request limits of the spec (access-service.md, Limits), as plain data and small pure rules. */

export interface RateLimitRule {
  /** Short name; also the counter's key segment. */
  name: string;
  max: number;
  windowMs: number;
  /** Said in a 429 body: "at most <description>". */
  description: string;
}

const MINUTE = 60_000;

export const ACCESS_RATE_LIMITS = {
  /** Every request with a valid API key. */
  general: { name: 'key', max: 100, windowMs: MINUTE, description: '100 requests per minute per API key' },
  /** Every request to the access interface, whatever its key. */
  perAddress: { name: 'ip', max: 120, windowMs: MINUTE, description: '120 requests per minute per IP address' },
  /** POST and DELETE with a valid API key, counted on top of `general`. */
  mutations: { name: 'mutation', max: 30, windowMs: MINUTE, description: '30 POST or DELETE requests per minute per API key' },
  /** Requests that do not authenticate: no key, a wrong key, or a Referer not allowed. */
  keyless: { name: 'keyless', max: 5, windowMs: 5 * MINUTE, description: '5 requests without a valid API key per 5 minutes per IP address' },
} as const satisfies Record<string, RateLimitRule>;

/** The configuration interface's write limit, for the configuration routes. */
export const CONFIGURATION_WRITE_LIMIT = {
  name: 'configuration-write',
  max: 10,
  windowMs: MINUTE,
  description: '10 writes per minute per configuration key',
} as const satisfies RateLimitRule;

/**
 * "Persistent requests without a key": once an address has used its keyless quota, each further
 * unauthenticated request in the same window is refused with 429. The request after
 * `afterRefusals` such refusals blocks the address for `durationMs`, answered with 403.
 */
export const IP_BLOCK = { afterRefusals: 10, durationMs: 60 * MINUTE } as const;

const MUTATION_METHODS: ReadonlySet<string> = new Set(['POST', 'DELETE']);

export function isMutation(method: string): boolean {
  return MUTATION_METHODS.has(method.toUpperCase());
}

/** What a client may still do under one rule; sent as the `x-ratelimit-*` headers. */
export interface Quota {
  limit: number;
  remaining: number;
  resetSeconds: number;
}

/** The quota a client runs out of first: the fewest requests left, then the later reset. */
export function tightestQuota(quotas: readonly Quota[]): Quota | undefined {
  let best: Quota | undefined;
  for (const quota of quotas) {
    if (!best || quota.remaining < best.remaining || (quota.remaining === best.remaining && quota.resetSeconds > best.resetSeconds)) {
      best = quota;
    }
  }
  return best;
}

/**
 * The shop interface's limits (shop-service.md, Limits), both counted per shop API key: every
 * request, and POST/PATCH/PUT/DELETE on top (docs/decisions/: counting basis).
 */
export const SHOP_RATE_LIMITS = {
  general: { name: 'shop', max: 100, windowMs: MINUTE, description: '100 requests per minute per shop API key' },
  mutations: { name: 'shop-mutation', max: 30, windowMs: MINUTE, description: '30 POST, PATCH or DELETE requests per minute per shop API key' },
} as const satisfies Record<string, RateLimitRule>;

/**
 * The storefront's limits (DESIGN.md section 9), both counted per client address (no key there):
 * every request, and POST/PATCH/PUT/DELETE on top.
 */
export const STOREFRONT_RATE_LIMITS = {
  general: { name: 'storefront', max: 120, windowMs: MINUTE, description: '120 requests per minute per client address' },
  writes: { name: 'storefront-write', max: 30, windowMs: MINUTE, description: '30 POST or PATCH requests per minute per client address' },
} as const satisfies Record<string, RateLimitRule>;

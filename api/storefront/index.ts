import type { FastifyPluginAsync } from 'fastify';
import { STOREFRONT_RATE_LIMITS } from '../../domain/shared/rate-limits.ts';
import { idempotency } from '../shared/idempotency/index.ts';
import { jsonBodiesOnly } from '../shared/json-only.ts';
import { keyRateLimits } from '../shared/key-rate-limits.ts';
import { addressOf } from '../shared/rate-limits/keyless.ts';
import type { RateLimitSettings } from '../shared/rate-limits/store.ts';
import { AS_SENT_422, validationErrorHandler } from '../shared/validation-errors.ts';
import { storefrontCartRoutes } from './carts/routes.ts';
import { storefrontFeedRoutes } from './feeds/routes.ts';
import { storefrontOrderRoutes } from './orders/routes.ts';
import { storefrontProductRoutes } from './products/routes.ts';
import { StorefrontShops } from './shop.ts';

export interface StorefrontOptions {
  rateLimits: RateLimitSettings;
}

/**
 * The storefront (`/store/v1/:subdomain`, DESIGN.md section 9): buyers, no key. Encapsulated like
 * the shop interface: JSON-only writes (415), the two per-address limits (429 with Retry-After;
 * the address is the connection's, or X-Forwarded-For's when TRUST_PROXY trusts the proxy), then
 * the body (422 `{error, errors}`). Carts and orders are reached only through their secret uuid.
 */
export const storefrontRoutes: FastifyPluginAsync<StorefrontOptions> = async (app, { rateLimits }) => {
  app.decorate('storefrontShops', new StorefrontShops());
  await app.register(jsonBodiesOnly, { interfaceName: 'storefront' });
  await app.register(keyRateLimits, {
    settings: rateLimits,
    scope: 'storefront',
    limits: [
      { rule: STOREFRONT_RATE_LIMITS.general, writesOnly: false },
      { rule: STOREFRONT_RATE_LIMITS.writes, writesOnly: true },
    ],
    keyOf: addressOf,
  });
  app.setErrorHandler(validationErrorHandler(AS_SENT_422));
  // Idempotency-Key on every write, per shop (its subdomain): a buyer's client retries a checkout safely.
  await app.register(idempotency, { tenantKind: 'storefront', tenantOf: (request) => (request.params as { subdomain?: string }).subdomain?.toLowerCase() });

  await app.register(storefrontProductRoutes);
  await app.register(storefrontCartRoutes);
  await app.register(storefrontOrderRoutes);
  await app.register(storefrontFeedRoutes);
};

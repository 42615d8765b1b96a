import type { FastifyPluginAsync } from 'fastify';
import { SHOP_RATE_LIMITS } from '../../domain/shared/rate-limits.ts';
import { recordShopConfigurationRequest } from '../../db/repositories/shop/audit-log.ts';
import { auditLog } from '../shared/audit.ts';
import { idempotency } from '../shared/idempotency/index.ts';
import { jsonBodiesOnly } from '../shared/json-only.ts';
import { keyRateLimits } from '../shared/key-rate-limits.ts';
import type { RateLimitSettings } from '../shared/rate-limits/store.ts';
import { scopedKeyAuth } from '../shared/scoped-key-auth.ts';
import { AS_SENT_422, validationErrorHandler } from '../shared/validation-errors.ts';
import { shopKeys, type AuthenticatedShopKey } from './auth.ts';
import { strictQueries } from './shared/strict-queries.ts';
import { clubRoutes } from './configuration/club/routes.ts';
import { emailSequenceRoutes } from './configuration/email-sequences/routes.ts';
import { orderStatusConfigRoutes } from './configuration/order-statuses/routes.ts';
import { electronicContentRoutes } from './electronic-contents/routes.ts';
import { orderDownloadRoutes } from './orders/downloads.ts';
import { orderRoutes } from './orders/routes.ts';
import { orderInvoiceRoutes } from './orders/invoices.ts';
import { orderTransitionRoutes } from './orders/transitions.ts';
import { productRoutes } from './products/routes.ts';
import { discountCodeRoutes } from './discount-codes/routes.ts';
import { discountCodePoolRoutes } from './discount-code-pools/routes.ts';
import { productSetRoutes } from './product-sets/routes.ts';
import { recommendationGroupRoutes } from './recommendation-groups/routes.ts';
import { referenceListRoutes } from './reference/routes.ts';
import { reportRoutes } from './reports/routes.ts';
import { subscriberRoutes } from './subscribers/routes.ts';
import { subscriptionPlanRoutes } from './subscription-plans/routes.ts';
import { automaticDiscountRoutes } from './automatic-discounts/routes.ts';

export interface ShopOptions {
  rateLimits: RateLimitSettings;
}

/**
 * The shop interface (`/api/v1`, spec shop-service.md), encapsulated like the configuration
 * interface: per request the key (401) and the route's scope (403), JSON-only writes (415), the
 * two per-key limits (429), then the body (422 `{error, errors}`), then the Idempotency-Key
 * (api/shared/idempotency: a replay, 409 or 422). Every route declares its scope
 * in `config.scope`; a route without one stops the start.
 */
export const shopRoutes: FastifyPluginAsync<ShopOptions> = async (app, { rateLimits }) => {
  await app.register(scopedKeyAuth, shopKeys);
  await app.register(jsonBodiesOnly, { interfaceName: 'shop API' });
  await app.register(keyRateLimits, {
    settings: rateLimits,
    scope: 'shop',
    limits: [
      { rule: SHOP_RATE_LIMITS.general, writesOnly: false },
      { rule: SHOP_RATE_LIMITS.mutations, writesOnly: true },
    ],
    keyOf: (request) => request.scopedKey?.id ?? 'none',
  });
  app.setErrorHandler(validationErrorHandler(AS_SENT_422));
  await app.register(strictQueries);
  // Idempotency-Key on every write, per shop (after the key, limits and body checks).
  await app.register(idempotency, { tenantKind: 'shop', tenantOf: (request) => (request.scopedKey as AuthenticatedShopKey | null)?.shopId });
  // After the Idempotency-Key: its onSend commits a keyed write's transaction first, so the entry
  // takes no second connection while that one is held and carries the status the client gets.
  await app.register(auditLog, { record: (em, subject, entry) => recordShopConfigurationRequest(em, subject.tenantId, entry) });

  await app.register(referenceListRoutes);
  await app.register(productRoutes);
  await app.register(discountCodeRoutes);
  await app.register(discountCodePoolRoutes);
  await app.register(productSetRoutes);
  await app.register(recommendationGroupRoutes);
  await app.register(electronicContentRoutes);
  await app.register(orderRoutes);
  await app.register(orderTransitionRoutes);
  await app.register(orderDownloadRoutes);
  await app.register(orderInvoiceRoutes);
  await app.register(reportRoutes);
  await app.register(subscriptionPlanRoutes);
  await app.register(subscriberRoutes);
  await app.register(automaticDiscountRoutes);
  await app.register(clubRoutes);
  await app.register(emailSequenceRoutes);
  await app.register(orderStatusConfigRoutes);
};

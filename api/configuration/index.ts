import type { FastifyPluginAsync } from 'fastify';
import { recordConfigurationRequest } from '../../db/repositories/access/audit-log.ts';
import { CONFIGURATION_WRITE_LIMIT } from '../../domain/shared/rate-limits.ts';
import { auditLog } from '../shared/audit.ts';
import { idempotency } from '../shared/idempotency/index.ts';
import { createImageStore } from '../shared/image-store.ts';
import { jsonBodiesOnly } from '../shared/json-only.ts';
import { keyRateLimits } from '../shared/key-rate-limits.ts';
import { keylessProtection } from '../shared/rate-limits/keyless.ts';
import type { RateLimitSettings } from '../shared/rate-limits/store.ts';
import { scopedKeyAuth } from '../shared/scoped-key-auth.ts';
import { AS_SENT_422, validationErrorHandler } from '../shared/validation-errors.ts';
import { appearanceRoutes } from './appearance/routes.ts';
import { configurationKeys, type AuthenticatedConfigurationKey } from './auth.ts';
import { emailDeliveryRoutes } from './email-delivery/routes.ts';
import { emailTemplateRoutes } from './email-templates/routes.ts';
import { selfRoutes } from './self.ts';
import { webhookRoutes } from './webhooks/routes.ts';

export interface ConfigurationOptions {
  /** Where uploaded images are kept (`STORAGE_DIR`). */
  storageDir: string;
  /** `PLATFORM_URL_TEMPLATE`: the platform address shown as a template's `host`. */
  platformUrlTemplate: string;
  rateLimits: RateLimitSettings;
}

/**
 * The configuration interface (`/api/v1/configuration`), encapsulated: its own key check, audit
 * log, JSON-only writes, 422 validation replies and write limit. Per request, in this order: the
 * key-guessing protection shared with the access interface (blocked address 403, used-up keyless
 * quota 429; a 401 counts toward it), key (401) and scope (403), content type (415), write limit
 * (429), then the body (422), then the Idempotency-Key (api/shared/idempotency). The audit entry
 * is written as the reply leaves, whatever its status (after a keyed write's commit).
 */
export const configurationRoutes: FastifyPluginAsync<ConfigurationOptions> = async (app, { storageDir, platformUrlTemplate, rateLimits }) => {
  await app.register(keylessProtection, rateLimits);
  await app.register(scopedKeyAuth, configurationKeys);
  await app.register(jsonBodiesOnly, { interfaceName: 'configuration interface' });
  await app.register(keyRateLimits, {
    settings: rateLimits,
    scope: 'configuration',
    limits: [{ rule: CONFIGURATION_WRITE_LIMIT, writesOnly: true }],
    keyOf: (request) => request.scopedKey?.id ?? 'none',
  });
  app.setErrorHandler(validationErrorHandler(AS_SENT_422));
  // Idempotency-Key on every write, per platform (after the key, limits and body checks).
  await app.register(idempotency, { tenantKind: 'platform', tenantOf: (request) => (request.scopedKey as AuthenticatedConfigurationKey | null)?.platformId });
  // After the Idempotency-Key: its onSend commits a keyed write's transaction first, so the entry
  // takes no second connection while that one is held and carries the status the client gets.
  await app.register(auditLog, { record: (em, subject, entry) => recordConfigurationRequest(em, subject.tenantId, entry) });
  // Here, not at the root, so that unknown paths pass the key check and land in the audit log too.
  app.setNotFoundHandler((request, reply) => reply.code(404).send({ error: `route ${request.method} ${request.url.split('?')[0]} not found` }));

  await app.register(selfRoutes);
  await app.register(appearanceRoutes, { images: createImageStore(storageDir) });
  await app.register(emailTemplateRoutes, { platformUrlTemplate });
  await app.register(emailDeliveryRoutes);
  await app.register(webhookRoutes);
};

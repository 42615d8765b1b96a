import type { FastifyPluginAsync } from 'fastify';
import type { RateLimitSettings } from '../shared/rate-limits/store.ts';
import { appearanceConfigurationRoutes } from './platform.ts';
import { auditLog } from '../shared/audit.ts';
import { configurationKeyAuth } from './auth.ts';
import { jsonBodiesOnly } from '../shared/json-only.ts';
import { emailDeliveryRoutes } from './email-delivery.ts';
import { emailTemplateRoutes } from './email-templates.ts';
import { configurationErrorHandler } from '../shared/validation-errors.ts';
import { createImageStore } from '../shared/image-store.ts';
import { configurationWriteLimit } from '../shared/write-limit.ts';
import { selfRoutes } from './self.ts';
import { webhookRoutes } from './webhooks.ts';

export interface ConfigurationOptions {
  /** Where uploaded images are kept (`STORAGE_DIR`). */
  storageDir: string;
  /** `PLATFORM_URL_TEMPLATE`: the platform address shown as a template's `host`. */
  platformUrlTemplate: string;
  rateLimits: RateLimitSettings;
}

/**
 * The configuration interface (`/api/v1/configuration`), encapsulated: its own key check, audit
 * log, JSON-only writes, 422 validation replies and write limit. Per request, in this order:
 * audit timestamp, key (401) and scope (403), content type (415), write limit (429), then the
 * body (422). The audit entry is written as the reply leaves, whatever its status.
 */
export const configurationRoutes: FastifyPluginAsync<ConfigurationOptions> = async (app, { storageDir, platformUrlTemplate, rateLimits }) => {
  auditLog(app);
  configurationKeyAuth(app);
  jsonBodiesOnly(app);
  await configurationWriteLimit(app, rateLimits);
  app.setErrorHandler(configurationErrorHandler);
  // Here, not at the root, so that unknown paths pass the key check and land in the audit log too.
  app.setNotFoundHandler((request, reply) => reply.code(404).send({ error: `route ${request.method} ${request.url.split('?')[0]} not found` }));

  await app.register(selfRoutes);
  await app.register(appearanceConfigurationRoutes, { images: createImageStore(storageDir) });
  await app.register(emailTemplateRoutes, { platformUrlTemplate });
  await app.register(emailDeliveryRoutes);
  await app.register(webhookRoutes);
};

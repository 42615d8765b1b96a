import type { Client } from '@temporalio/client';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { secretsKeyFrom } from '../db/secret-box.ts';
import { DEFAULT_MAIL_ENDPOINTS, type MailEndpoints } from '../domain/shared/mail-endpoints.ts';
import type { Orm } from '../db/orm.ts';
import { DEFAULT_PLATFORM_URL_TEMPLATE, DEFAULT_PUBLIC_API_URL, DEFAULT_STORAGE_DIR } from '../domain/shared/config.ts';
import { accessRoutes } from './access/index.ts';
import { apiKeyCachePlugin } from './access/api-key-changes.ts';
import { adminRoutes } from './admin/index.ts';
import { configurationRoutes } from './configuration/index.ts';
import { fileRoutes } from './shared/file-routes.ts';
import { productPhotoRoutes } from './shop/products/photo-routes.ts';
import { shopRoutes } from './shop/index.ts';
import type { FileStorage } from '../db/file-storage/index.ts';
import { localFileStorage } from '../db/file-storage/local.ts';
import { downloadRoutes } from './shop/downloads/routes.ts';
import { healthRoutes } from './shared/health.ts';
import { inputGuard } from './shared/input-guard.ts';
import { errorsPlugin, frameworkErrorReply } from './shared/errors-plugin.ts';
import { openapiPlugin } from './shared/openapi.ts';
import { ormPlugin } from './shared/orm-context.ts';
import type { RateLimitSettings } from './shared/rate-limits/store.ts';
import { createWorkflowStarter, type WorkflowStarter } from './shared/workflow-starter.ts';

declare module 'fastify' {
  interface FastifyInstance {
    temporal: Client;
    workflows: WorkflowStarter;
    /** `SECRETS_KEY`: seals write-only secrets (db/secret-box.ts). */
    secretsKey: Buffer;
    /** Provider endpoints for the checks made when mail delivery settings are saved. */
    mailEndpoints: MailEndpoints;
    /** Where the shop's photos and product files are kept (db/file-storage), for every interface. */
    fileStorage: FileStorage;
    /** `SHOP_DOWNLOAD_BASE_URL`: the base of download links; null: the address each request came to. */
    downloadBaseUrl: string | null;
  }
}

export interface AppDeps {
  orm: Orm;
  temporal: Client;
  taskQueue: string;
  adminToken: string;
  /** Pino level; logging is off when unset (tests). */
  logLevel?: string;
  /** Where log lines go (stdout when unset); tests capture them. */
  logStream?: { write(line: string): void };
  /** Request limits (`RATE_LIMITS`, `REDIS_URL`); on with in-process counters when unset. */
  rateLimits?: RateLimitSettings;
  /** `STORAGE_DIR` and `PLATFORM_URL_TEMPLATE` of the configuration interface. */
  storageDir?: string;
  platformUrlTemplate?: string;
  /** `SECRETS_KEY` (32 bytes); the development key, with a warning, when unset. */
  secretsKey?: Buffer;
  /** Mail provider endpoints (`PROVIDER_*`, `DEFAULT_SMTP_URL`): provider checks on save; none configured when unset. */
  mailEndpoints?: MailEndpoints;
  /** Shop photos and product files (`S3_*`: db/file-storage); a folder under `storageDir` when unset. */
  fileStorage?: FileStorage;
  /** `SHOP_DOWNLOAD_BASE_URL`: base of the download links (`{base}/downloads/<token>`); the request's address when unset. */
  downloadBaseUrl?: string;
  /** `PUBLIC_API_URL`: the API's address for integrators (the OpenAPI document's `servers`). */
  publicUrl?: string;
}

/** Builds the whole HTTP edge from its dependencies; main.ts listens, tests use `app.inject`. */
export async function buildApp(deps: AppDeps) {
  const { orm, temporal, taskQueue, adminToken, logLevel, rateLimits = { enabled: true } } = deps;
  const { storageDir = DEFAULT_STORAGE_DIR, platformUrlTemplate = DEFAULT_PLATFORM_URL_TEMPLATE } = deps;
  const app = Fastify({
    // Keys and tokens never reach the logs.
    logger: logLevel ? { level: logLevel, redact: ['req.headers["x-api-key"]', 'req.headers.authorization'], ...(deps.logStream ? { stream: deps.logStream } : {}) } : false,
    bodyLimit: 1024 * 1024,
    requestIdHeader: 'x-request-id',
    frameworkErrors: frameworkErrorReply,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.decorate('temporal', temporal);
  app.decorate('workflows', createWorkflowStarter(temporal, taskQueue));
  app.decorate('secretsKey', deps.secretsKey ?? secretsKeyFrom(undefined, (m) => app.log.warn(m)));
  app.decorate('mailEndpoints', deps.mailEndpoints ?? DEFAULT_MAIL_ENDPOINTS);
  app.decorate('fileStorage', deps.fileStorage ?? localFileStorage(storageDir));
  app.decorate('downloadBaseUrl', deps.downloadBaseUrl ?? null);

  await app.register(errorsPlugin);
  // Before every interface: NUL, unpaired surrogates and deep nesting never reach a route (any interface's).
  await app.register(inputGuard);
  await app.register(ormPlugin, { orm });
  // The access keys' cache, kept in step with key changes of every api instance.
  await app.register(apiKeyCachePlugin);
  await app.register(openapiPlugin, { publicUrl: deps.publicUrl ?? DEFAULT_PUBLIC_API_URL });

  await app.register(healthRoutes);
  await app.register(accessRoutes, { rateLimits });
  await app.register(adminRoutes, { prefix: '/admin/v1', adminToken });
  await app.register(configurationRoutes, { prefix: '/api/v1/configuration', storageDir, platformUrlTemplate, rateLimits });
  await app.register(shopRoutes, { prefix: '/api/v1', rateLimits, taskQueue });
  await app.register(fileRoutes, { storageDir });
  await app.register(productPhotoRoutes);
  await app.register(downloadRoutes);

  await app.ready();
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;

import type { Client } from '@temporalio/client';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { secretsKeyFrom } from '../adapters/secrets/secret-box.ts';
import { storefrontBase } from '../domain/shop/cart.ts';
import { requestForLog } from './shared/request-log.ts';
import { DEFAULT_MAIL_ENDPOINTS, type MailEndpoints } from '../domain/shared/mail-endpoints.ts';
import type { Orm } from '../db/orm.ts';
import { DEFAULT_PLATFORM_URL_TEMPLATE, DEFAULT_PUBLIC_URL, DEFAULT_STORAGE_DIR, DEFAULT_STOREFRONT_URL_TEMPLATE } from '../domain/shared/config.ts';
import { accessRoutes } from './access/index.ts';
import { apiKeyCachePlugin } from './access/api-key-changes.ts';
import { shopKeyCachePlugin } from './shop/key-cache.ts';
import { adminRoutes } from './admin/index.ts';
import { configurationRoutes } from './configuration/index.ts';
import { fileRoutes } from './shared/file-routes.ts';
import { productPhotoRoutes } from './shop/products/photo-routes.ts';
import { shopRoutes } from './shop/index.ts';
import { storefrontRoutes } from './storefront/index.ts';
import type { FileStorage } from '../adapters/file-storage/index.ts';
import { localFileStorage } from '../adapters/file-storage/local.ts';
import { downloadRoutes } from './shop/downloads/routes.ts';
import { healthRoutes } from './shared/health.ts';
import { stripeWebhookRoutes } from './shop/payments/stripe-webhook.ts';
import type { IntegrationEndpoints } from '../adapters/endpoints.ts';
import { inputGuard } from './shared/input-guard.ts';
import { errorsPlugin, frameworkErrorReply } from './shared/errors-plugin.ts';
import { openapiPlugin } from './shared/openapi.ts';
import { metricsPlugin } from './shared/metrics.ts';
import { ormPlugin } from './shared/orm-context.ts';
import { tracingPlugin } from './shared/tracing.ts';
import type { RateLimitSettings } from './shared/rate-limits/store.ts';
import { createWorkflowStarter, type OutboxSettings, type WorkflowStarter } from './shared/workflow-starts/index.ts';

declare module 'fastify' {
  interface FastifyInstance {
    temporal: Client;
    workflows: WorkflowStarter;
    /** `SECRETS_KEY`: seals write-only secrets (adapters/secrets/secret-box.ts). */
    secretsKey: Buffer;
    /** Provider endpoints for the checks made when mail delivery settings are saved. */
    mailEndpoints: MailEndpoints;
    /** Where the shop's photos and product files are kept (adapters/file-storage), for every interface. */
    fileStorage: FileStorage;
    /** `PUBLIC_URL`: the base of every link a reply carries (api/shared/public-base.ts). */
    publicUrl: string;
    /** `STOREFRONT_URL_TEMPLATE`: the template of the shop's storefront addresses (copy links, feed links). */
    storefrontUrlTemplate: string;
    /** The storefront's base address of the shop at `subdomain`. */
    storefrontUrl(subdomain: string): string;
    /** Where the shops' Stripe is reached (`STRIPE_API_URL`); Stripe's own API when unset. */
    integrationEndpoints: IntegrationEndpoints;
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
  /** Shop photos and product files (`S3_*`: adapters/file-storage); a folder under `storageDir` when unset. */
  fileStorage?: FileStorage;
  /** `STOREFRONT_URL_TEMPLATE`: copy links (`.../cart?copy_of=<uuid>`) and feed links; `http://{subdomain}.localhost:8080` when unset. */
  storefrontUrlTemplate?: string;
  /** `TRUST_PROXY` (config.ts trustProxyFrom): whose X-Forwarded-For gives the client address; none when unset. */
  trustProxy?: boolean | string;
  /** A server span per request (adapters/tracing.ts registered the tracer provider); off when unset. */
  tracing?: boolean;
  /**
   * The test environment's own address (`BETA_PORT`): the access and configuration interfaces for
   * sandbox twins' keys only (a production platform's key is 401); no operator or shop routes.
   */
  sandboxOnly?: boolean;
  /** `STRIPE_API_URL` (stripe-mock in tests): where order payments are started. */
  integrationEndpoints?: IntegrationEndpoints;
  /** `PUBLIC_URL` (config.ts publicUrlOf): the base of every link a reply carries and the OpenAPI documents' `servers`; DEFAULT_PUBLIC_URL when unset. */
  publicUrl?: string;
  /** The workflow-start outbox's dispatch (api/shared/workflow-starts/outbox.ts): deadline, retry and period; defaults when unset. */
  workflowOutbox?: OutboxSettings;
}

/** Builds the whole HTTP edge from its dependencies; main.ts listens, tests use `app.inject`. */
export async function buildApp(deps: AppDeps) {
  const { orm, temporal, taskQueue, adminToken, logLevel, rateLimits = { enabled: true } } = deps;
  const { storageDir = DEFAULT_STORAGE_DIR, platformUrlTemplate = DEFAULT_PLATFORM_URL_TEMPLATE } = deps;
  const app = Fastify({
    // Keys and tokens never reach the logs.
    // Nor do the e-mail addresses of query strings (`?email=`, `?to=`; issue 29).
    logger: logLevel
      ? { level: logLevel, redact: ['req.headers["x-api-key"]', 'req.headers.authorization'], serializers: { req: requestForLog }, ...(deps.logStream ? { stream: deps.logStream } : {}) }
      : false,
    bodyLimit: 1024 * 1024,
    trustProxy: deps.trustProxy ?? false,
    requestIdHeader: 'x-request-id',
    frameworkErrors: frameworkErrorReply,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.decorate('temporal', temporal);
  const workflows = createWorkflowStarter(temporal, taskQueue, { em: () => orm.em.fork(), log: app.log, settings: deps.workflowOutbox });
  app.decorate('workflows', workflows);
  // Pending workflow starts (Temporal was down when their write committed) are sent when it is back.
  workflows.outbox.start();
  app.addHook('onClose', () => workflows.outbox.stop());
  app.decorate('secretsKey', deps.secretsKey ?? secretsKeyFrom(undefined, (m) => app.log.warn(m)));
  app.decorate('mailEndpoints', deps.mailEndpoints ?? DEFAULT_MAIL_ENDPOINTS);
  app.decorate('integrationEndpoints', deps.integrationEndpoints ?? {});
  app.decorate('fileStorage', deps.fileStorage ?? localFileStorage(storageDir));
  const publicUrl = (deps.publicUrl ?? DEFAULT_PUBLIC_URL).replace(/\/+$/, '');
  app.decorate('publicUrl', publicUrl);
  const storefrontUrlTemplate = deps.storefrontUrlTemplate ?? DEFAULT_STOREFRONT_URL_TEMPLATE;
  app.decorate('storefrontUrlTemplate', storefrontUrlTemplate);
  app.decorate('storefrontUrl', (subdomain: string) => storefrontBase(storefrontUrlTemplate, subdomain));
  app.decorate('sandboxOnly', deps.sandboxOnly ?? false);

  await app.register(errorsPlugin);
  // Every request, whatever answers it: a span (tracing on) and the request metrics.
  if (deps.tracing) await app.register(tracingPlugin);
  await app.register(metricsPlugin);
  // Before every interface: NUL, unpaired surrogates and deep nesting never reach a route (any interface's).
  await app.register(inputGuard);
  await app.register(ormPlugin, { orm });
  // The access keys' cache, kept in step with key changes of every api instance.
  await app.register(apiKeyCachePlugin);
  await app.register(shopKeyCachePlugin);
  await app.register(openapiPlugin, { publicUrl });

  await app.register(healthRoutes);
  await app.register(accessRoutes, { rateLimits });
  await app.register(configurationRoutes, { prefix: '/api/v1/configuration', storageDir, platformUrlTemplate, rateLimits });
  await app.register(fileRoutes, { storageDir });
  if (!deps.sandboxOnly) {
    await app.register(adminRoutes, { prefix: '/admin/v1', adminToken });
    await app.register(shopRoutes, { prefix: '/api/v1', rateLimits });
    await app.register(storefrontRoutes, { prefix: '/store/v1/:subdomain', rateLimits });
    await app.register(productPhotoRoutes);
    await app.register(downloadRoutes);
    await app.register(stripeWebhookRoutes);
  }

  await app.ready();
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;

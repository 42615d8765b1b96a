import type { Client } from '@temporalio/client';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Orm } from '../db/orm.ts';
import { accessRoutes } from './access/index.ts';
import { adminRoutes } from './admin/index.ts';
import { healthRoutes } from './health.ts';
import { errorsPlugin } from './plugins/errors.ts';
import { openapiPlugin } from './plugins/openapi.ts';
import { ormPlugin } from './plugins/orm.ts';
import type { RateLimitSettings } from './rate-limits/store.ts';
import { createWorkflowStarter, type WorkflowStarter } from './workflow-starter.ts';

declare module 'fastify' {
  interface FastifyInstance {
    temporal: Client;
    workflows: WorkflowStarter;
  }
}

export interface AppDeps {
  orm: Orm;
  temporal: Client;
  taskQueue: string;
  adminToken: string;
  /** Pino level; logging is off when unset (tests). */
  logLevel?: string;
  /** Request limits (`RATE_LIMITS`, `REDIS_URL`); on with in-process counters when unset. */
  rateLimits?: RateLimitSettings;
}

/** Builds the whole HTTP edge from its dependencies; main.ts listens, tests use `app.inject`. */
export async function buildApp({ orm, temporal, taskQueue, adminToken, logLevel, rateLimits = { enabled: true } }: AppDeps) {
  const app = Fastify({
    // Keys and tokens never reach the logs.
    logger: logLevel ? { level: logLevel, redact: ['req.headers["x-api-key"]', 'req.headers.authorization'] } : false,
    bodyLimit: 1024 * 1024,
    requestIdHeader: 'x-request-id',
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.decorate('temporal', temporal);
  app.decorate('workflows', createWorkflowStarter(temporal, taskQueue));

  await app.register(errorsPlugin);
  await app.register(ormPlugin, { orm });
  await app.register(openapiPlugin);

  await app.register(healthRoutes);
  await app.register(accessRoutes, { rateLimits });
  await app.register(adminRoutes, { prefix: '/admin/v1', adminToken });

  await app.ready();
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;

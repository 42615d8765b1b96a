/** `npm run api`: the HTTP server. Closes gracefully on SIGINT and SIGTERM. */
import { Client, Connection } from '@temporalio/client';
import { secretsKeyFromEnvironment } from '../adapters/secrets/secret-box.ts';
import { mailEndpointsFrom } from '../domain/shared/mail-endpoints.ts';
import { openOrm } from '../db/orm.ts';
import { fileStorageFrom } from '../adapters/file-storage/index.ts';
import { parseConfig, publicUrlOf, trustProxyFrom } from '../domain/shared/config.ts';
import { tracingFromEnvironment, tracingClientInterceptors } from '../adapters/tracing.ts';
import { buildApp } from './app.ts';
import { integrationEndpointsFrom } from '../adapters/endpoints.ts';

const config = parseConfig(process.env);
// Refuses to start without SECRETS_KEY in production; otherwise the installation's key (.data/secrets-key).
const secretsKey = secretsKeyFromEnvironment(config, { log: (m) => console.log(m) });
if (!config.ADMIN_TOKEN) throw new Error('ADMIN_TOKEN is required (npm start generates one)');

const tracing = tracingFromEnvironment('coursehub-api');
const orm = await openOrm({ databaseUrl: config.DATABASE_URL, poolMax: config.DATABASE_POOL_MAX });
const connection = await Connection.connect({ address: config.TEMPORAL_ADDRESS });
const temporal = new Client({ connection, namespace: config.TEMPORAL_NAMESPACE, interceptors: tracingClientInterceptors(tracing) });
const deps = {
  orm,
  temporal,
  taskQueue: config.TEMPORAL_TASK_QUEUE,
  adminToken: config.ADMIN_TOKEN,
  logLevel: config.LOG_LEVEL,
  storageDir: config.STORAGE_DIR,
  fileStorage: fileStorageFrom(config),
  integrationEndpoints: integrationEndpointsFrom(config),
  publicUrl: publicUrlOf(config),
  platformUrlTemplate: config.PLATFORM_URL_TEMPLATE,
  storefrontUrlTemplate: config.STOREFRONT_URL_TEMPLATE,
  trustProxy: trustProxyFrom(config.TRUST_PROXY),
  rateLimits: { enabled: config.RATE_LIMITS === 'on', redisUrl: config.REDIS_URL },
  secretsKey,
  mailEndpoints: mailEndpointsFrom(config),
  tracing: tracing !== null,
};
const app = await buildApp(deps);
// The test environment's own address ({beta_base_url}): sandbox twins only (README, "Test environment").
const beta = config.BETA_PORT === undefined ? null : await buildApp({ ...deps, sandboxOnly: true });

await app.listen({ port: config.PORT, host: config.HOST });
if (beta) await beta.listen({ port: config.BETA_PORT, host: config.HOST });

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    void app
      .close()
      .then(() => beta?.close())
      .then(() => Promise.all([connection.close(), orm.close(), tracing?.shutdown()]))
      .then(() => process.exit(0), (err: unknown) => {
        console.error(err);
        process.exit(1);
      });
  });
}

/** `npm run worker`: runs every workflow and activity on the configured task queue until SIGTERM. */
import { NativeConnection } from '@temporalio/worker';
import { secretsKeyFromEnvironment } from '../adapters/secrets/secret-box.ts';
import { createActivities } from '../activities/index.ts';
import { mailEndpointsFrom } from '../domain/shared/mail-endpoints.ts';
import { integrationEndpointsFrom } from '../adapters/endpoints.ts';
import { webhookSettingsFrom } from '../activities/webhooks/settings.ts';
import { openOrm } from '../db/orm.ts';
import { parseConfig, publicUrlOf } from '../domain/shared/config.ts';
import { tracingFromEnvironment } from '../adapters/tracing.ts';
import { bundleWorkflows, createWorker } from './create-worker.ts';
import { ensureSchedules } from './schedules.ts';
import { installRuntimeMetrics, startWorkerMetricsServer } from './metrics.ts';

const config = parseConfig(process.env);
// Refuses to start without SECRETS_KEY in production; otherwise the installation's key (.data/secrets-key).
const secretsKey = secretsKeyFromEnvironment(config, { log: (m) => console.log(m) });

// Before the first connection: the SDK runtime with its metrics exporter, and tracing when OTEL_EXPORTER_OTLP_ENDPOINT is set.
const coreMetricsUrl = await installRuntimeMetrics();
const tracing = tracingFromEnvironment('coursehub-worker');
const orm = await openOrm({ databaseUrl: config.DATABASE_URL, poolMax: config.DATABASE_POOL_MAX });
const connection = await NativeConnection.connect({ address: config.TEMPORAL_ADDRESS });
const worker = await createWorker({
  connection,
  namespace: config.TEMPORAL_NAMESPACE,
  taskQueue: config.TEMPORAL_TASK_QUEUE,
  activities: createActivities({
    orm,
    platformUrlTemplate: config.PLATFORM_URL_TEMPLATE,
    secretsKey,
    mailEndpoints: mailEndpointsFrom(config),
    webhooks: webhookSettingsFrom(config),
    // Each shop's Stripe, GA4 and Mailchimp come from its own settings; these only move the addresses.
    integrationEndpoints: integrationEndpointsFrom(config),
    publicUrl: publicUrlOf(config),
  }),
  workflowBundle: await bundleWorkflows({ tracing: tracing !== null }),
  databasePoolMax: config.DATABASE_POOL_MAX,
  tracing,
});
const metrics = await startWorkerMetricsServer({ host: config.WORKER_METRICS_HOST, port: config.WORKER_METRICS_PORT, coreMetricsUrl });
console.log(`worker metrics at ${metrics.url}${tracing ? `; traces to ${config.OTEL_EXPORTER_OTLP_ENDPOINT}` : ''}`);

// The daily cleanup of unused storefront carts and the hourly one of expired Idempotency-Key replies (no-ops when scheduled already).
await ensureSchedules(connection, config.TEMPORAL_NAMESPACE, config.TEMPORAL_TASK_QUEUE);

console.log(`worker polling task queue "${config.TEMPORAL_TASK_QUEUE}" on ${config.TEMPORAL_ADDRESS}`);
try {
  // The SDK's runtime shuts the worker down gracefully on SIGINT and SIGTERM.
  await worker.run();
} finally {
  await metrics.close();
  await connection.close();
  await orm.close();
  await tracing?.shutdown();
}

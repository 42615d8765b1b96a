/** Connects a test file to the real PostgreSQL and Temporal started by test/global-setup.ts. */
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, type Worker } from '@temporalio/worker';
import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { createActivities, type Activities } from '../../activities/index.ts';
import { withClearingStep } from './clearing-step-fake.ts';
import type { IntegrationEndpoints } from '../../adapters/endpoints.ts';
import type { MailEndpoints } from '../../domain/shared/mail-endpoints.ts';
import { buildApp, type App, type AppDeps } from '../../api/app.ts';
import { openOrm, type Orm } from '../../db/orm.ts';
import { bundleWorkflows, createWorker } from '../../worker/create-worker.ts';

export const ADMIN_TOKEN = 'test-operator-token-0123456789';
export const PLATFORM_URL_TEMPLATE = 'https://{subdomain}.test.local';

export function openTestOrm(): Promise<Orm> {
  return openOrm({ databaseUrl: inject('databaseUrl'), poolMax: 5 });
}

export async function connectTemporal(): Promise<Client> {
  const connection = await Connection.connect({ address: inject('temporalAddress') });
  return new Client({ connection, namespace: 'default' });
}

/** Each test file gets its own task queue, so workers of parallel files never take each other's work. */
export function uniqueTaskQueue(name: string): string {
  return `test-${name}-${randomUUID().slice(0, 8)}`;
}

export interface TestStack {
  app: App;
  orm: Orm;
  temporal: Client;
  taskQueue: string;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Off unless a test turns them on: most tests send many requests with one key from one address. */
  rateLimits?: AppDeps['rateLimits'];
  /** Mail provider endpoints (test/helpers/mail-providers.ts); none configured when unset. */
  mailEndpoints?: MailEndpoints;
  /** Where error log lines go; logging stays off when unset. */
  logStream?: AppDeps['logStream'];
  /** The level of the lines sent to `logStream` (default `error`); `info` also writes every request. */
  logLevel?: string;
  /** `TRUST_PROXY` of the app (none when unset). */
  trustProxy?: AppDeps['trustProxy'];
  /** `STOREFRONT_URL_TEMPLATE` of the app (its default when unset). */
  storefrontUrlTemplate?: string;
  /** `STRIPE_API_URL` and the other tools' addresses (stripe-mock, local receivers). */
  integrationEndpoints?: IntegrationEndpoints;
  /** `PUBLIC_URL` of the app (DEFAULT_PUBLIC_URL when unset; the e2e stack's own address). */
  publicUrl?: string;
}

/** The API as `npm run api` builds it, on the real database and Temporal, for `app.inject`. */
export async function startTestApp(name: string, { rateLimits = { enabled: false }, mailEndpoints, logStream, logLevel = 'error', trustProxy, storefrontUrlTemplate, integrationEndpoints, publicUrl }: TestAppOptions = {}): Promise<TestStack> {
  const orm = await openTestOrm();
  const temporal = await connectTemporal();
  const taskQueue = uniqueTaskQueue(name);
  const app = await buildApp({ orm, temporal, taskQueue, adminToken: ADMIN_TOKEN, rateLimits, mailEndpoints, trustProxy, storefrontUrlTemplate, integrationEndpoints, publicUrl, ...(logStream && { logLevel, logStream }) });
  return {
    app,
    orm,
    temporal,
    taskQueue,
    async close() {
      await app.close();
      await temporal.connection.close();
      await orm.close();
    },
  };
}

let bundle: ReturnType<typeof bundleWorkflows> | undefined;
let runtimeInstalled = false;

export interface RunningWorker {
  worker: Worker;
  stop(): Promise<void>;
}

/** A worker on the real server; real activities unless `activities` replaces them. */
export async function startTestWorker(opts: { taskQueue: string; orm?: Orm; activities?: Partial<Activities>; mailEndpoints?: MailEndpoints; integrationEndpoints?: IntegrationEndpoints; publicUrl?: string }): Promise<RunningWorker> {
  if (!runtimeInstalled) {
    Runtime.install({ logger: new DefaultLogger('WARN') });
    runtimeInstalled = true;
  }
  bundle ??= bundleWorkflows();
  const connection = await NativeConnection.connect({ address: inject('temporalAddress') });
  // Fakes get the clearing's one step made of them (test/helpers/clearing-step-fake.ts).
  const activities = opts.activities ? withClearingStep(opts.activities) : createActivities({ orm: opts.orm!, platformUrlTemplate: PLATFORM_URL_TEMPLATE, mailEndpoints: opts.mailEndpoints, integrationEndpoints: opts.integrationEndpoints, publicUrl: opts.publicUrl });
  const worker = await createWorker({ connection, namespace: 'default', taskQueue: opts.taskQueue, activities, workflowBundle: await bundle });
  const running = worker.run();
  return {
    worker,
    async stop() {
      worker.shutdown();
      await running;
      await connection.close();
    },
  };
}

/** Retries an assertion until it passes or the time is up (background work is asynchronous). */
export async function eventually<T>(check: () => Promise<T>, { timeoutMs = 20_000, intervalMs = 100 } = {}): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}

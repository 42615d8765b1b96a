/**
 * The stack the bench measures, started in this process the way `npm start` starts it in
 * processes: PostgreSQL (DATABASE_URL, else an embedded server on .data/bench-postgres) with a
 * fresh database migrated for this run, Temporal (TEMPORAL_ADDRESS, else an in-memory dev server),
 * the API from buildApp listening on 127.0.0.1 (rate limits off) and a worker with the real
 * activities. Each part has its own ORM and pool, as the api and worker processes have.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import { createActivities } from '../../activities/index.ts';
import { buildApp } from '../../api/app.ts';
import { migrate, openOrm } from '../../db/orm.ts';
import { bundleWorkflows, createWorker } from '../../worker/create-worker.ts';
import type { Log } from '../stack/lifecycle.ts';
import { createFreshDatabase, DATA_DIR, startEmbeddedPostgres } from '../stack/postgres.ts';
import { startTemporalDevServer } from '../stack/temporal.ts';

/** What each process of `npm start` keeps by default (DATABASE_POOL_MAX). */
export const POOL_MAX = 10;
const PLATFORM_URL_TEMPLATE = 'http://{subdomain}.localhost:8080';

export interface BenchStack {
  apiUrl: string;
  adminToken: string;
  databaseUrl: string;
  namespace: string;
  /** The Temporal server (for the worker processes the bench starts). */
  temporalAddress: string;
  /** The task queue of the API and its worker. */
  taskQueue: string;
  /** The API's Temporal client (also used to start the no-op workflows and read histories). */
  temporal: Client;
  /** The worker's connection (the no-op worker shares it). */
  workerConnection: NativeConnection;
}

/** What a batch measurement (grants, no-op workflows) is given. */
export interface BatchOptions {
  stack: BenchStack;
  n: number;
  warmupN: number;
  concurrency: number;
  log: (line: string) => void;
}

/** What was started, stopped last first; run() is safe to call more than once and mid-start. */
export class StopList {
  private readonly entries: { name: string; stop: () => Promise<void> }[] = [];
  private stopping: Promise<void> | undefined;
  constructor(private readonly log: Log) {}

  /** True once run() was called. */
  get started(): boolean {
    return this.stopping !== undefined;
  }

  add(name: string, stop: () => Promise<void>): void {
    this.entries.push({ name, stop });
  }

  run(): Promise<void> {
    this.stopping ??= (async () => {
      for (const entry of this.entries.reverse()) {
        await entry.stop().catch((error: unknown) => this.log(`stopping ${entry.name}: ${String(error)}`));
      }
    })();
    return this.stopping;
  }
}

let runtimeInstalled = false;

/** Starts the stack, registering each part on `stops` as soon as it runs (bench.ts stops them). */
export async function startBenchStack(log: Log, stops: StopList): Promise<BenchStack> {
  let serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    log('PostgreSQL: DATABASE_URL');
  } else {
    const server = await startEmbeddedPostgres({ dataDir: path.join(DATA_DIR, 'bench-postgres'), log });
    stops.add('PostgreSQL', server.stop);
    serverUrl = server.adminUrl;
    log('PostgreSQL: embedded, data in .data/bench-postgres');
  }
  const database = await createFreshDatabase(serverUrl, 'coursehub_bench');
  stops.add('bench database', database.drop);
  const migrator = await openOrm({ databaseUrl: database.url, poolMax: 1 });
  await migrate(migrator).finally(() => migrator.close());
  log(`database ${database.name} created and migrated`);

  let temporalAddress = process.env.TEMPORAL_ADDRESS;
  if (temporalAddress) {
    log(`Temporal: TEMPORAL_ADDRESS ${temporalAddress}`);
  } else {
    // Its complaints about work cut short while we stop (pollers, open workflows) are noise.
    const server = await startTemporalDevServer({ log: (line) => stops.started || log(line) });
    stops.add('Temporal dev server', server.stop);
    temporalAddress = server.address;
    log(`Temporal: in-memory dev server on ${temporalAddress}`);
  }
  const namespace = process.env.TEMPORAL_NAMESPACE ?? 'default';
  const taskQueue = `bench-${randomUUID().slice(0, 8)}`;

  if (!runtimeInstalled) {
    // Warnings to stderr; stdout is the report. Signals are ours (bench.ts stops in order).
    Runtime.install({ logger: new DefaultLogger('WARN', (entry) => console.error(`[temporal sdk] ${entry.level} ${entry.message}`)), shutdownSignals: [] });
    runtimeInstalled = true;
  }

  const apiOrm = await openOrm({ databaseUrl: database.url, poolMax: POOL_MAX });
  stops.add('api ORM', () => apiOrm.close());
  const connection = await Connection.connect({ address: temporalAddress });
  stops.add('api Temporal connection', () => connection.close());
  const temporal = new Client({ connection, namespace });
  const adminToken = randomBytes(24).toString('base64url');
  const app = await buildApp({ orm: apiOrm, temporal, taskQueue, adminToken, rateLimits: { enabled: false } });
  stops.add('api', () => app.close());
  const apiUrl = await app.listen({ port: 0, host: '127.0.0.1' });

  const workerOrm = await openOrm({ databaseUrl: database.url, poolMax: POOL_MAX });
  stops.add('worker ORM', () => workerOrm.close());
  const workerConnection = await NativeConnection.connect({ address: temporalAddress });
  stops.add('worker Temporal connection', () => workerConnection.close());
  const worker = await createWorker({
    connection: workerConnection,
    namespace,
    taskQueue,
    activities: createActivities({ orm: workerOrm, platformUrlTemplate: PLATFORM_URL_TEMPLATE }),
    workflowBundle: await bundleWorkflows(),
  });
  const running = worker.run();
  running.catch((error: unknown) => log(`worker stopped: ${String(error)}`));
  stops.add('worker', async () => {
    if (worker.getState() === 'RUNNING') worker.shutdown();
    await running.catch(() => undefined);
  });
  log(`api on ${apiUrl}, worker on task queue ${taskQueue}`);

  return { apiUrl, adminToken, databaseUrl: database.url, namespace, temporalAddress, taskQueue, temporal, workerConnection };
}

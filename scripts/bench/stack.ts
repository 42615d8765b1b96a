/**
 * The stack the bench measures, run as `npm start` runs it: PostgreSQL (DATABASE_URL, else an
 * embedded server on .data/bench-postgres) with a fresh database migrated for this run, Temporal
 * (TEMPORAL_ADDRESS, else an in-memory dev server; `temporal: 'cluster'`: the Temporal server users
 * deploy, scripts/stack/temporal-server.ts, on two fresh PostgreSQL databases of this run, dropped
 * at the end, as `npm run test:cluster` runs it), and the api (`api/main.ts`) and the worker
 * (`worker/main.ts`, the real activities) each in a child process of its own, configured through
 * the environment as in production (rate limits off, log level warn, a task queue of this run).
 * The bench process keeps a Temporal client of its own (no-op starts, workflow histories) and can
 * start further worker processes on the same task queue.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { migrate, openOrm } from '../../db/orm.ts';
import { findFreePort, sleep, type Log } from '../stack/lifecycle.ts';
import { createFreshDatabase, DATA_DIR, startEmbeddedPostgres } from '../stack/postgres.ts';
import { startTemporalDevServer } from '../stack/temporal.ts';
import { startThrowawayCluster } from '../stack/throwaway-cluster.ts';
import { commandLines, postgresBackendsOf, treesOf, type CpuGroups, type ProcessSelector } from './cpu-usage.ts';
import { startServiceProcess, type ServiceProcess } from './service-process.ts';

/** What each process of `npm start` keeps by default (DATABASE_POOL_MAX). */
export const POOL_MAX = 10;
const PLATFORM_URL_TEMPLATE = 'http://{subdomain}.localhost:8080';
/** Bundling the workflows takes a while on a busy machine. */
const READY_TIMEOUT_MS = 180_000;
const WORKER_READY = /worker polling task queue/;

export interface BenchStack {
  apiUrl: string;
  adminToken: string;
  databaseUrl: string;
  namespace: string;
  /** The Temporal server (for the worker processes the bench starts). */
  temporalAddress: string;
  /** The task queue of the api and its worker. */
  taskQueue: string;
  /** The bench's own client (no-op workflow starts, histories). */
  temporal: Client;
  /** The process group of the stack's first worker process (its RSS: shop-subscriptions). */
  workerPid: number | undefined;
  /** Starts one more worker process on the task queue; stop() ends it (it is also stopped with the stack). */
  startExtraWorker(): Promise<{ stop(): Promise<void> }>;
  /**
   * The processes whose CPU time the bench reads (cpu-usage.ts): `api`, `worker` (the stack's
   * worker processes, or `worker` given: e.g. a no-op worker), `temporal` (the dev server, by its
   * port), `postgres` (the backends of the run's database) and `bench` (this process: the load
   * generators, the pollers, the bench's Temporal client).
   */
  cpuGroups(worker?: ProcessSelector): CpuGroups;
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

/** Which Temporal server the stack runs on: the dev server (`temporal server start-dev`) or the cluster topology. */
export type TemporalTopology = 'dev' | 'cluster';

/**
 * Starts the stack, registering each part on `stops` as soon as it runs (bench.ts stops them).
 * `topology` given: a Temporal server of this run of that topology (TEMPORAL_ADDRESS is not used).
 */
export async function startBenchStack(log: Log, stops: StopList, topology?: TemporalTopology): Promise<BenchStack> {
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

  let temporalAddress = topology ? undefined : process.env.TEMPORAL_ADDRESS;
  let temporalServer: ProcessSelector | undefined;
  let temporalDatabases: ProcessSelector | undefined;
  if (temporalAddress) {
    log(`Temporal: TEMPORAL_ADDRESS ${temporalAddress}`);
  } else if (topology === 'cluster') {
    const cluster = await startCluster(serverUrl, log, stops);
    temporalAddress = cluster.address;
    temporalServer = (processes) => treesOf([cluster.pid() ?? undefined])(processes);
    const [persistence, visibility] = cluster.databases.map(postgresBackendsOf);
    temporalDatabases = (processes) => [...persistence!(processes), ...visibility!(processes)];
    log(`Temporal: server on PostgreSQL (cluster topology) on ${temporalAddress}`);
  } else {
    // Its complaints about work cut short while we stop (pollers, open workflows) are noise.
    const server = await startTemporalDevServer({ log: (line) => stops.started || log(line) });
    stops.add('Temporal dev server', server.stop);
    temporalAddress = server.address;
    log(`Temporal: in-memory dev server on ${temporalAddress}`);
  }
  const temporalPort = temporalAddress.split(':').at(-1);
  const namespace = process.env.TEMPORAL_NAMESPACE ?? 'default';
  const taskQueue = `bench-${randomUUID().slice(0, 8)}`;

  const connection = await Connection.connect({ address: temporalAddress });
  stops.add('bench Temporal connection', () => connection.close());
  const temporal = new Client({ connection, namespace });

  const adminToken = randomBytes(24).toString('base64url');
  const port = await findFreePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: database.url,
    DATABASE_POOL_MAX: String(POOL_MAX),
    TEMPORAL_ADDRESS: temporalAddress,
    TEMPORAL_NAMESPACE: namespace,
    TEMPORAL_TASK_QUEUE: taskQueue,
    ADMIN_TOKEN: adminToken,
    SECRETS_KEY: randomBytes(32).toString('base64'),
    PORT: String(port),
    HOST: '127.0.0.1',
    RATE_LIMITS: 'off',
    LOG_LEVEL: 'warn',
    PLATFORM_URL_TEMPLATE,
    // The shop parts' webhook receiver listens on loopback (scripts/bench/receiver.ts).
    WEBHOOK_PRIVATE_ALLOWLIST: '127.0.0.1/32',
  };
  delete env.NODE_OPTIONS;

  const started = (service: ServiceProcess) => {
    stops.add(service.name, () => service.stop());
    return service;
  };
  const workerPids: (number | undefined)[] = [];
  const startWorker = async () => {
    const worker = started(startServiceProcess(workerPids.length === 0 ? 'worker' : `worker ${workerPids.length + 1}`, 'worker/main.ts', env));
    workerPids.push(worker.pid);
    await worker.untilLine(WORKER_READY, READY_TIMEOUT_MS);
    return worker;
  };
  const api = started(startServiceProcess('api', 'api/main.ts', env));
  const apiUrl = `http://127.0.0.1:${port}`;
  const [firstWorker] = await Promise.all([startWorker(), untilHealthy(apiUrl, api)]);
  log(`api (pid ${api.pid}) on ${apiUrl}, worker on task queue ${taskQueue}`);

  return {
    apiUrl,
    adminToken,
    databaseUrl: database.url,
    namespace,
    temporalAddress,
    taskQueue,
    temporal,
    workerPid: firstWorker.pid,
    async startExtraWorker() {
      const worker = await startWorker();
      log(`${worker.name} (pid ${worker.pid}) polling task queue ${taskQueue}`);
      return { stop: () => worker.stop() };
    },
    cpuGroups: (worker = treesOf(workerPids)) => ({
      api: treesOf([api.pid]),
      worker,
      temporal: temporalServer ?? commandLines(new RegExp(`temporal.* server start-dev .*--port ${temporalPort}\\b`)),
      postgres: postgresBackendsOf(database.name),
      bench: () => [process.pid],
      // The cluster's own PostgreSQL work (its persistence and visibility databases); the dev server keeps its state in memory.
      ...(temporalDatabases && { temporal_db: temporalDatabases }),
    }),
  };
}

/** The Temporal server built from go.temporal.io/server, on fresh persistence and visibility databases of this run (dropped when stopped). */
async function startCluster(serverUrl: string, log: Log, stops: StopList) {
  const cluster = await startThrowawayCluster({ postgresUrl: serverUrl, prefix: 'coursehub_bench_temporal', stateRoot: path.join(DATA_DIR, 'bench-cluster'), log: (line) => stops.started || log(line) });
  stops.add('Temporal server (cluster) and its databases', cluster.stop);
  return { address: cluster.address, pid: cluster.pid, databases: cluster.databases };
}

/** Until GET /health answers 200 (PostgreSQL and Temporal reachable from the api). */
async function untilHealthy(apiUrl: string, api: ServiceProcess): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (!api.running()) throw new Error('the api exited before it was healthy');
    const status = await fetch(`${apiUrl}/health`, { signal: AbortSignal.timeout(2_000) }).then((r) => r.status, () => 0);
    if (status === 200) return;
    await sleep(250);
  }
  throw new Error(`${apiUrl}/health did not answer 200 within ${READY_TIMEOUT_MS / 1000} s`);
}

/**
 * The Temporal server its users deploy, run here without Docker: `go.temporal.io/server`'s
 * `cmd/server` (all four services in one process) with its persistence and visibility in
 * PostgreSQL databases of their own, the schema set up and upgraded by the server's SQL tool, and
 * the Temporal UI server beside it. Binaries are built once with `go install` into the tools cache
 * (go-tools.ts), as the CLI is. Used by `npm run start:cluster` and the cluster tests.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time.js';
import { ensureGoTool, type GoTool } from './go-tools.ts';
import { findFreePort, sleep, type Log } from './lifecycle.ts';
import { ensureDatabase, withDatabase } from './postgres.ts';
import { spawnIncarnation, supervise, type Incarnation } from './supervise.ts';

const run = promisify(execFile);

export const TEMPORAL_SERVER_VERSION = '1.32.1'; // 1.32.2 needs Go 1.26.10; this machine has 1.26.8
const UI_SERVER_VERSION = '2.42.1'; // the one the Temporal CLI 1.5.1 embeds
const READY_TIMEOUT_MS = 120_000;
const HOST = '127.0.0.1';
const RETENTION = '3 days';

const SERVER: GoTool = { name: 'temporal-server', label: 'Temporal server', version: TEMPORAL_SERVER_VERSION, module: `go.temporal.io/server/cmd/server@v${TEMPORAL_SERVER_VERSION}`, binary: 'server' };
const SQL_TOOL: GoTool = { name: 'temporal-sql-tool', label: 'Temporal SQL tool', version: TEMPORAL_SERVER_VERSION, module: `go.temporal.io/server/cmd/tools/sql@v${TEMPORAL_SERVER_VERSION}`, binary: 'sql' };
const UI_SERVER: GoTool = { name: 'temporal-ui-server', label: 'Temporal UI server', version: UI_SERVER_VERSION, module: `github.com/temporalio/ui-server/v2/cmd/server@v${UI_SERVER_VERSION}`, binary: 'server' };

export interface TemporalClusterOptions {
  /** An admin URL of the PostgreSQL server (the app's server): the two Temporal databases go there. */
  postgresUrl: string;
  /** Names of the persistence and visibility databases (default `temporal`, `temporal_visibility`). */
  databases?: { persistence: string; visibility: string };
  /** Folder for the rendered configuration. */
  stateDir: string;
  /** Preferred frontend gRPC port (next free when taken). */
  port?: number;
  /** Preferred UI port (next free when taken); 0: no UI. */
  uiPort?: number;
  restartOnCrash?: boolean;
  log?: Log;
}

export interface TemporalCluster {
  address: string;
  uiUrl: string | null;
  /** The server's current pid (null while it restarts). */
  pid(): number | null;
  /** Stops the server (and the UI); a supervised server is not restarted. */
  stop(): Promise<void>;
  /** Stops the server process only and starts it again on the same ports and databases. */
  restart(): Promise<void>;
}

/** Builds (first time), prepares the databases, starts server and UI, registers `default`. */
export async function startTemporalCluster(opts: TemporalClusterOptions): Promise<TemporalCluster> {
  const log = opts.log ?? ((line: string) => console.error(`[temporal-server] ${line}`));
  const [server, sqlTool, uiServer] = [await ensureGoTool(SERVER, log), await ensureGoTool(SQL_TOOL, log), opts.uiPort === 0 ? null : await ensureGoTool(UI_SERVER, log)];
  const databases = opts.databases ?? { persistence: 'temporal', visibility: 'temporal_visibility' };
  await prepareDatabases(sqlTool, opts.postgresUrl, databases, log);

  const ports = await allocatePorts(opts.port ?? 7233);
  const address = `${HOST}:${ports.frontend}`;
  await fs.mkdir(opts.stateDir, { recursive: true });
  const configFile = path.join(opts.stateDir, 'temporal-server.yaml');
  const dynamicConfigFile = path.join(opts.stateDir, 'dynamic-config.yaml');
  await fs.writeFile(dynamicConfigFile, DYNAMIC_CONFIG);
  await fs.writeFile(configFile, JSON.stringify(serverConfig(opts.postgresUrl, databases, ports, dynamicConfigFile), null, 2));

  const launch = async (): Promise<Incarnation> => {
    const incarnation = await spawnIncarnation('temporal-server', server, ['--config-file', configFile, '--allow-no-auth', 'start'], { graceMs: 20_000, env: quietEnv() });
    await waitUntilUp(address, incarnation);
    return incarnation;
  };
  const supervised = opts.restartOnCrash ? await supervise('Temporal server', launch, { log }) : null;
  let single = supervised ? null : await launch();
  await ensureDefaultNamespace(address, log);

  let ui: Incarnation | null = null;
  let uiUrl: string | null = null;
  if (uiServer) {
    const uiPort = await findFreePort(opts.uiPort ?? 8233);
    const uiRoot = path.join(opts.stateDir, 'ui');
    await fs.mkdir(path.join(uiRoot, 'config'), { recursive: true });
    await fs.writeFile(path.join(uiRoot, 'config', 'cluster.yaml'), JSON.stringify({ temporalGrpcAddress: address, host: HOST, port: uiPort, enableUi: true, defaultNamespace: 'default', cors: { allowOrigins: [`http://${HOST}:${uiPort}`] } }));
    ui = await spawnIncarnation('temporal-ui', uiServer, ['--root', uiRoot, '--config', 'config', '--env', 'cluster', 'start'], { graceMs: 5_000 });
    uiUrl = `http://${HOST}:${uiPort}`;
  }

  return {
    address,
    uiUrl,
    pid: () => (supervised ? (supervised.current()?.pid ?? null) : (single?.pid ?? null)),
    stop: async () => {
      await ui?.stop();
      await (supervised ? supervised.stop() : single?.stop());
    },
    restart: async () => {
      if (supervised) {
        // The supervisor sees an unexpected exit and starts it again after its backoff.
        const current = supervised.current();
        await current?.stop();
        await waitUntil(() => supervised.current() !== null && supervised.current() !== current, READY_TIMEOUT_MS);
        await waitUntilServing(address);
      } else {
        await single?.stop();
        single = await launch();
      }
    },
  };
}

/** The server logs at info level on stdout by default: warn keeps `npm run start:cluster` readable. */
function quietEnv(): NodeJS.ProcessEnv {
  return { ...process.env, TEMPORAL_LOG_LEVEL: 'warn' };
}

interface Ports {
  frontend: number;
  frontendHttp: number;
  frontendMembership: number;
  history: number;
  historyMembership: number;
  matching: number;
  matchingMembership: number;
  worker: number;
  workerMembership: number;
  metrics: number;
}

/**
 * Ports beside the preferred frontend port (the dev server's layout); for 0, the same layout from a
 * random base below 32 768: the server stores membership ports in a PostgreSQL smallint.
 */
async function allocatePorts(preferredFrontend: number): Promise<Ports> {
  const taken = new Set<number>();
  const next = async (preferred: number) => {
    let port = await findFreePort(preferred);
    while (taken.has(port)) port = await findFreePort(port + 1);
    taken.add(port);
    return port;
  };
  const frontend = await next(preferredFrontend || 20_000 + Math.floor(Math.random() * 10_000));
  return {
    frontend,
    frontendHttp: await next(frontend + 10),
    history: await next(frontend + 1),
    matching: await next(frontend + 2),
    worker: await next(frontend + 6),
    frontendMembership: await next(frontend - 300),
    historyMembership: await next(frontend - 299),
    matchingMembership: await next(frontend - 298),
    workerMembership: await next(frontend - 294),
    metrics: await next(frontend + 767),
  };
}

/** The server's configuration (YAML; written as JSON, which YAML reads). */
function serverConfig(postgresUrl: string, databases: { persistence: string; visibility: string }, ports: Ports, dynamicConfigFile: string) {
  const url = new URL(postgresUrl);
  const sql = (databaseName: string, maxConns: number) => ({
    sql: {
      pluginName: 'postgres12',
      databaseName,
      connectAddr: `${url.hostname}:${url.port || 5432}`,
      connectProtocol: 'tcp',
      user: decodeURIComponent(url.username || 'postgres'),
      password: decodeURIComponent(url.password),
      maxConns,
      maxIdleConns: maxConns,
      maxConnLifetime: '1h',
    },
  });
  const service = (grpcPort: number, membershipPort: number, extra: object = {}) => ({ rpc: { grpcPort, membershipPort, bindOnIP: HOST, ...extra } });
  return {
    log: { stdout: true, level: 'warn' },
    persistence: {
      defaultStore: 'default',
      visibilityStore: 'visibility',
      numHistoryShards: 4,
      datastores: { default: sql(databases.persistence, 20), visibility: sql(databases.visibility, 10) },
    },
    global: {
      membership: { maxJoinDuration: '30s', broadcastAddress: HOST },
      metrics: { prometheus: { framework: 'tally', timerType: 'histogram', listenAddress: `${HOST}:${ports.metrics}` } },
    },
    services: {
      frontend: service(ports.frontend, ports.frontendMembership, { httpPort: ports.frontendHttp }),
      history: service(ports.history, ports.historyMembership),
      matching: service(ports.matching, ports.matchingMembership),
      worker: service(ports.worker, ports.workerMembership),
    },
    clusterMetadata: {
      enableGlobalNamespace: false,
      failoverVersionIncrement: 10,
      masterClusterName: 'active',
      currentClusterName: 'active',
      clusterInformation: { active: { enabled: true, initialFailoverVersion: 1, rpcName: 'frontend', rpcAddress: `${HOST}:${ports.frontend}` } },
    },
    dcRedirectionPolicy: { policy: 'noop' },
    archival: { history: { state: 'disabled' }, visibility: { state: 'disabled' } },
    namespaceDefaults: { archival: { history: { state: 'disabled' }, visibility: { state: 'disabled' } } },
    dynamicConfigClient: { filepath: dynamicConfigFile, pollInterval: '10s' },
  };
}

/** The app needs no feature beyond a server's defaults (signal-with-start, child workflows, timers). */
const DYNAMIC_CONFIG = `system.forceSearchAttributesCacheRefreshOnRead:
  - value: true
`;

/** Creates the two databases when missing, sets up the schema once and upgrades it to this version's. */
async function prepareDatabases(sqlTool: string, postgresUrl: string, databases: { persistence: string; visibility: string }, log: Log): Promise<void> {
  const schemaRoot = await serverSchemaDir();
  const url = new URL(postgresUrl);
  const base = ['--plugin', 'postgres12', '--ep', url.hostname, '--port', url.port || '5432', '--user', decodeURIComponent(url.username || 'postgres')];
  if (url.password) base.push('--password', decodeURIComponent(url.password));
  for (const [database, schema] of [[databases.persistence, 'temporal'], [databases.visibility, 'visibility']] as const) {
    await ensureDatabase(withDatabase(postgresUrl, 'postgres'), database);
    const args = [...base, '--db', database];
    if (!(await hasSchemaVersionTable(withDatabase(postgresUrl, database)))) {
      await run(sqlTool, [...args, 'setup-schema', '-v', '0.0']);
      log(`${database}: schema set up`);
    }
    await run(sqlTool, [...args, 'update-schema', '-d', path.join(schemaRoot, 'postgresql', 'v12', schema, 'versioned')]);
  }
}

async function hasSchemaVersionTable(databaseUrl: string): Promise<boolean> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM information_schema.tables WHERE table_name = 'schema_version'");
    return (rowCount ?? 0) > 0;
  } finally {
    await client.end();
  }
}

/** The server module's `schema/` folder, from the Go module cache (the build already fetched it). */
async function serverSchemaDir(): Promise<string> {
  const { stdout } = await run('go', ['mod', 'download', '-json', `go.temporal.io/server@v${TEMPORAL_SERVER_VERSION}`], { cwd: os.tmpdir(), env: { ...process.env, GOWORK: 'off', GOFLAGS: '' } });
  return path.join((JSON.parse(stdout) as { Dir: string }).Dir, 'schema');
}

async function waitUntilUp(address: string, incarnation: Incarnation): Promise<void> {
  let exited: string | null = null;
  void incarnation.exited.then((reason) => (exited = reason));
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (exited) throw new Error(`Temporal server exited during startup (${exited})`);
    if (await isServing(address)) return;
    await sleep(500);
  }
  await incarnation.stop();
  throw new Error(`Temporal server not serving on ${address} within ${READY_TIMEOUT_MS / 1000} s`);
}

async function isServing(address: string, namespace?: string): Promise<boolean> {
  const connection = await Connection.connect({ address, connectTimeout: '2s' }).catch(() => null);
  if (!connection) return false;
  try {
    await connection.workflowService.getSystemInfo({});
    if (namespace) await connection.workflowService.describeNamespace({ namespace });
    return true;
  } catch {
    return false;
  } finally {
    await connection.close();
  }
}

async function waitUntilServing(address: string): Promise<void> {
  await waitUntil(() => isServing(address, 'default'), READY_TIMEOUT_MS);
}

async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not ready within ${timeoutMs / 1000} s`);
    await sleep(250);
  }
}

const ALREADY_EXISTS = 6; // gRPC status

/** Registers `default` (a real server has no namespace until one is registered) and waits until it serves. */
async function ensureDefaultNamespace(address: string, log: Log): Promise<void> {
  const connection = await Connection.connect({ address });
  try {
    await connection.workflowService.registerNamespace({ namespace: 'default', workflowExecutionRetentionPeriod: msToTs(RETENTION) }).then(
      () => log('registered the namespace default'),
      (error: { code?: number }) => {
        if (error.code !== ALREADY_EXISTS) throw error;
      },
    );
  } finally {
    await connection.close();
  }
  await waitUntilServing(address);
}

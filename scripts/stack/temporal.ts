/**
 * Temporal for local runs and tests: the Temporal CLI's dev server (`temporal server start-dev`).
 *
 * The CLI binary is provisioned once per machine, outside the checkout:
 *   1. $TEMPORAL_CLI_PATH when set;
 *   2. ${XDG_CACHE_HOME:-~/.cache}/coursehub/tools/temporal-1.5.1/temporal when already built;
 *   3. `go install github.com/temporalio/cli/cmd/temporal@v1.5.1` when `go` is on PATH (a few
 *      minutes the first time; v1.5.1 is the newest release `go install` accepts);
 *   4. otherwise (no Go) the SDK's own download of the dev-server CLI (@temporalio/testing,
 *      `cached-download`) into the same cache folder; it needs internet access to the SDK's
 *      download host. TEMPORAL_CLI_PATH or TEMPORAL_ADDRESS avoid it.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { cachedToolPath, ensureGoTool, type GoTool } from './go-tools.ts';
import { commandLineOf, findFreePort, isAlive, lineSplitter, own, signalGroup, sleep, terminate, withParentDeathSignal, type Log } from './lifecycle.ts';
import { REPO_ROOT } from './postgres.ts';
import { supervise, type Backoff, type Incarnation } from './supervise.ts';
import { commandOnPath, isExecutable } from './tool-cache.ts';

export const TEMPORAL_CLI_VERSION = '1.5.1';
const CLI_MODULE = `github.com/temporalio/cli/cmd/temporal@v${TEMPORAL_CLI_VERSION}`;
const READY_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 10_000;

const defaultLog: Log = (line) => console.error(`[temporal] ${line}`);

// ---------------------------------------------------------------------------------------------
// CLI provisioning

const TEMPORAL_CLI: GoTool = { name: 'temporal', label: 'Temporal CLI', version: TEMPORAL_CLI_VERSION, module: CLI_MODULE, binary: 'temporal' };

export function cachedCliPath(): string {
  return cachedToolPath(TEMPORAL_CLI);
}

/** Path of a Temporal CLI binary; builds it with Go the first time (see the file comment). */
export async function ensureTemporalCli(log: Log = defaultLog): Promise<string> {
  const fromEnv = process.env.TEMPORAL_CLI_PATH;
  if (fromEnv) {
    if (!isExecutable(fromEnv)) throw new Error(`TEMPORAL_CLI_PATH=${fromEnv} is not an executable file`);
    return fromEnv;
  }
  const cached = cachedCliPath();
  if (isExecutable(cached)) return cached;
  if (!commandOnPath('go')) return downloadCliWithSdk(path.join(path.dirname(cached), 'sdk-download'), log);
  return ensureGoTool(TEMPORAL_CLI, log);
}

/**
 * No Go on this machine: let the SDK (@temporalio/testing) download its dev-server CLI into `dir`
 * once, then use that binary like ours. Needs internet access to the SDK's download host.
 */
async function downloadCliWithSdk(dir: string, log: Log): Promise<string> {
  const findBinary = () =>
    existsSync(dir) ? readdirSync(dir).map((f) => path.join(dir, f)).find((f) => /temporal/i.test(path.basename(f)) && statSync(f).isFile() && isExecutable(f)) : undefined;
  const existing = findBinary();
  if (existing) return existing;
  log(`Go is not installed: downloading the Temporal CLI through the SDK into ${dir} ...`);
  mkdirSync(dir, { recursive: true });
  const { TestWorkflowEnvironment } = await import('@temporalio/testing');
  const env = await TestWorkflowEnvironment.createLocal({ server: { executable: { type: 'cached-download', downloadDir: dir, ttl: '3650d' } } });
  await env.teardown();
  const downloaded = findBinary();
  if (!downloaded) {
    throw new Error(
      `The SDK download left no Temporal CLI in ${dir}. Install Go (it builds ${CLI_MODULE}), set TEMPORAL_CLI_PATH to a CLI binary, or set TEMPORAL_ADDRESS.`,
    );
  }
  return downloaded;
}

// ---------------------------------------------------------------------------------------------
// dev server

export type SearchAttributeType = 'Text' | 'Keyword' | 'Int' | 'Double' | 'Bool' | 'Datetime' | 'KeywordList';

export interface StartTemporalOptions {
  /** SQLite file for persistent state; in memory when absent. */
  dbFile?: string;
  /** Preferred gRPC port; the next free one when taken; a free one when absent. */
  port?: number;
  /** Preferred Web UI port (next free when taken); 0 or absent: no UI (--headless). */
  uiPort?: number;
  /** Custom search attributes to register at start (`--search-attribute`). */
  searchAttributes?: Record<string, SearchAttributeType>;
  /** Extra namespaces to create besides `default`. */
  namespaces?: string[];
  /**
   * Start the server again, on the same ports and SQLite file, whenever it exits without being
   * asked to (killed, crashed), with a backoff and a log line (supervise.ts). Off by default; it
   * only makes sense with `dbFile` (an in-memory server comes back empty).
   */
  restartOnCrash?: boolean | { backoff?: Backoff };
  log?: Log;
}

export interface TemporalServer {
  /** host:port of the frontend gRPC service. */
  address: string;
  uiUrl: string | null;
  stop(): Promise<void>;
  /** The running server's pid (null while it restarts or when it is not ours). */
  pid?: () => number | null;
}

const HOST = '127.0.0.1';

export async function startTemporalDevServer(opts: StartTemporalOptions = {}): Promise<TemporalServer> {
  const log = opts.log ?? defaultLog;
  const dbFile = opts.dbFile ? path.resolve(opts.dbFile) : undefined;
  if (dbFile) await fs.mkdir(path.dirname(dbFile), { recursive: true });
  for (let attempt = 1; ; attempt++) {
    // Looked for before every try: a starter beside us on the same file may have won meanwhile.
    const running = dbFile ? await findRunningServer(dbFile) : null;
    if (running) {
      log(`reusing the Temporal dev server (pid ${running.pid}) already running on ${dbFile}`);
      return { address: running.address, uiUrl: running.uiUrl, stop: async () => undefined };
    }
    try {
      return await startOwnServer(await ensureTemporalCli(log), { ...opts, dbFile }, log);
    } catch (error) {
      if (attempt >= PORT_RACE_TRIES || !(error instanceof PortRaceLost)) throw error;
      log(`the dev server lost a port to another process at startup (try ${attempt} of ${PORT_RACE_TRIES}): starting it again`);
    }
  }
}

/**
 * The CLI picks its internal ports (history, matching, worker, HTTP) by binding port 0 and closing
 * it, and listens on them later; a process starting beside it can take one in between, and the
 * dev server then dies at startup with "address already in use" (PortRaceLost). That race is
 * retried with fresh ports (ours and the CLI's); a port we passed and the CLI found taken, and any
 * other startup failure, are thrown at once.
 */
const PORT_RACE_TRIES = 3;

class PortRaceLost extends Error {}

/** A server of our own on free ports, restarted on a crash when asked (on the same ports and file). */
async function startOwnServer(cli: string, opts: StartTemporalOptions, log: Log): Promise<TemporalServer> {
  const port = await findFreePort(opts.port);
  const uiPort = opts.uiPort ? await findFreePort(opts.uiPort) : 0;
  if (opts.port && port !== opts.port) log(`port ${opts.port} is taken, using ${port}`);
  if (opts.uiPort && uiPort !== opts.uiPort) log(`UI port ${opts.uiPort} is taken, using ${uiPort}`);
  const address = `${HOST}:${port}`;
  const uiUrl = uiPort ? `http://${HOST}:${uiPort}` : null;
  const launchOne = () => launch(cli, { ...opts, port, uiPort }, { address, uiUrl }, log);

  const first = await launchOne();
  if (!opts.restartOnCrash) return { address, uiUrl, stop: first.stop, pid: () => first.pid ?? null };
  // Restarts keep the ports (api and worker hold the address) and the SQLite file (the data).
  let incarnations = 0;
  const supervised = await supervise('Temporal dev server', async () => (incarnations++ === 0 ? first : launchOne()), {
    log,
    ...(typeof opts.restartOnCrash === 'object' && opts.restartOnCrash.backoff ? { backoff: opts.restartOnCrash.backoff } : {}),
  });
  return { address, uiUrl, stop: () => supervised.stop(), pid: () => supervised.current()?.pid ?? null };
}

/** One run of the dev server: spawned, serving, with its pid file written while it lives. */
async function launch(
  cli: string,
  opts: StartTemporalOptions & { port: number; uiPort: number },
  { address, uiUrl }: { address: string; uiUrl: string | null },
  log: Log,
): Promise<Incarnation> {
  const { dbFile } = opts;
  const command = withParentDeathSignal(cli, devServerArgs(opts), 'SIGTERM');
  const child = spawn(command.command, command.args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  const errors: string[] = []; // a startup panic's stack pushes its cause out of `output`
  let lostPort = false;
  let stopping: Promise<void> | undefined;
  const collect = lineSplitter((line) => {
    if (!line.trim()) return;
    output.push(line);
    if (output.length > 60) output.shift();
    if (line.includes('level=ERROR') && errors.length < 10) errors.push(line);
    // The CLI's own check of a port we passed says "can't set ... port": that one is not a race.
    if (line.includes('address already in use') && !line.includes("can't set")) lostPort = true;
    if (!stopping) log(line); // its shutdown chatter (pollers losing their connection) is noise
  });
  child.stdout.on('data', collect.push);
  child.stderr.on('data', collect.push);
  let spawnError: Error | null = null;
  child.once('error', (error) => (spawnError = error));
  let closed = false; // its output is read to the end only then
  const exited = new Promise<string>((resolve) =>
    child.once('close', (code, signal) => {
      collect.flush();
      closed = true;
      resolve(signal ?? `code ${code}`);
    }),
  );
  void exited.then(() => {
    release();
    if (dbFile && !stopping) rmSync(pidFileOf(dbFile), { force: true });
  });

  const stop = () =>
    (stopping ??= (async () => {
      await terminate(child, { signal: 'SIGTERM', graceMs: STOP_GRACE_MS });
      release();
      if (dbFile) rmSync(pidFileOf(dbFile), { force: true });
    })());
  const release = own({
    name: 'temporal',
    stop,
    killNow: () => child.pid !== undefined && signalGroup(child.pid, 'SIGTERM'),
  });

  try {
    await waitUntilServing(address, () => {
      if (spawnError) return spawnError;
      if (!closed) return null;
      const message = `Temporal dev server exited during startup (${child.exitCode ?? child.signalCode}):\n${[...errors, ...output].join('\n')}`;
      return lostPort ? new PortRaceLost(message) : new Error(message);
    }, () => output.join('\n'));
  } catch (error) {
    await stop();
    throw error;
  }
  if (dbFile && child.pid) {
    writeFileSync(pidFileOf(dbFile), JSON.stringify({ pid: child.pid, address, uiUrl }));
  }
  return { exited, stop, ...(child.pid !== undefined && { pid: child.pid }) };
}

function devServerArgs(o: StartTemporalOptions & { port: number; uiPort: number }): string[] {
  const args = ['server', 'start-dev', '--ip', HOST, '--port', String(o.port), '--log-level', 'warn'];
  args.push(...(o.uiPort ? ['--ui-port', String(o.uiPort)] : ['--headless']));
  if (o.dbFile) {
    args.push('--db-filename', o.dbFile);
    args.push('--sqlite-pragma', 'journal_mode=wal', '--sqlite-pragma', 'synchronous=normal');
  }
  for (const [name, type] of Object.entries(o.searchAttributes ?? {})) args.push('--search-attribute', `${name}=${type}`);
  for (const namespace of o.namespaces ?? []) args.push('--namespace', namespace);
  return args;
}

/** Polls the frontend until it answers gRPC and the `default` namespace is there. */
async function waitUntilServing(address: string, failure: () => Error | null, output: () => string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let lastError: unknown;
  while (Date.now() < deadline) {
    const failed = failure();
    if (failed) throw failed;
    if (await isServing(address).catch((error: unknown) => ((lastError = error), false))) return;
    await sleep(250);
  }
  throw new Error(`Temporal dev server not ready on ${address} within ${READY_TIMEOUT_MS / 1000} s (${String(lastError)}):\n${output()}`);
}

async function isServing(address: string): Promise<boolean> {
  const connection = await Connection.connect({ address, connectTimeout: '2s' });
  try {
    await connection.workflowService.getSystemInfo({});
    await connection.workflowService.describeNamespace({ namespace: 'default' });
    return true;
  } finally {
    await connection.close();
  }
}

const pidFileOf = (dbFile: string) => `${dbFile}.pid`;

/**
 * A dev server started on this SQLite file by another live process is reused (two servers must
 * not share one file); a pid file whose process is gone or is something else is removed.
 */
async function findRunningServer(dbFile: string): Promise<{ pid: number; address: string; uiUrl: string | null } | null> {
  const pidFile = pidFileOf(dbFile);
  if (!existsSync(pidFile)) return null;
  try {
    const recorded = JSON.parse(readFileSync(pidFile, 'utf8')) as { pid: number; address: string; uiUrl: string | null };
    const commandLine = isAlive(recorded.pid) ? commandLineOf(recorded.pid) : null;
    if (commandLine?.includes('start-dev') && commandLine.includes(dbFile) && (await isServing(recorded.address).catch(() => false))) {
      return recorded;
    }
  } catch {
    // unreadable: stale
  }
  rmSync(pidFile, { force: true });
  return null;
}

// ---------------------------------------------------------------------------------------------
// resolve

/**
 * TEMPORAL_ADDRESS when set; otherwise a dev server with its state in <repo>/.data/temporal.sqlite,
 * gRPC on 7233 and the Web UI on 8233 (the next free ports when taken).
 */
export async function resolveTemporal(
  opts: { log?: Log; searchAttributes?: Record<string, SearchAttributeType> } = {},
): Promise<TemporalServer> {
  const fromEnv = process.env.TEMPORAL_ADDRESS;
  if (fromEnv) return { address: fromEnv, uiUrl: null, stop: async () => undefined };
  return startTemporalDevServer({
    dbFile: path.join(REPO_ROOT, '.data', 'temporal.sqlite'),
    port: 7233,
    uiPort: 8233,
    restartOnCrash: true,
    ...opts,
  });
}

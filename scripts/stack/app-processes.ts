/**
 * What `npm start` and `npm run start:cluster` share: the operator token and secrets key kept in
 * `.data/`, migrations, the api and worker processes (supervised), and waiting for `/health`.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { installationKey } from '../../adapters/secrets/secret-box.ts';
import { migrate, openOrm } from '../../db/orm.ts';
import { sleep, type Log } from './lifecycle.ts';
import { DATA_DIR, REPO_ROOT } from './postgres.ts';
import { spawnIncarnation, supervise, type Supervised } from './supervise.ts';

const HEALTH_TIMEOUT_MS = 120_000;

export async function runMigrations(databaseUrl: string, say: Log): Promise<void> {
  const orm = await openOrm({ databaseUrl, poolMax: 1 });
  try {
    const applied = await migrate(orm);
    say(applied.length ? `migrations applied: ${applied.join(', ')}` : 'database schema is up to date');
  } finally {
    await orm.close();
  }
}

/** ADMIN_TOKEN, else the one saved in .data/admin-token, else a new one saved there (0600). */
export function loadAdminToken(say: Log): string {
  if (process.env.ADMIN_TOKEN) return process.env.ADMIN_TOKEN;
  const file = path.join(DATA_DIR, 'admin-token');
  try {
    const saved = readFileSync(file, 'utf8').trim();
    if (saved) return saved;
  } catch {
    // first start
  }
  mkdirSync(DATA_DIR, { recursive: true });
  const token = randomBytes(32).toString('base64url');
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  say(`generated an operator token, saved in ${path.relative(process.cwd(), file)}`);
  return token;
}

/**
 * SECRETS_KEY, else the installation's key in .data/secrets-key (generated on first start, 0600),
 * which `npm run api` / `npm run worker` started by hand read too (adapters/secrets/secret-box.ts).
 */
export function loadSecretsKey(say: Log): string {
  if (process.env.SECRETS_KEY?.trim()) return process.env.SECRETS_KEY;
  return installationKey(path.join(DATA_DIR, 'secrets-key'), say).toString('base64');
}

/**
 * `node --import tsx <entry>` in its own process group (so a terminal's Ctrl-C reaches only us and
 * we stop things in order), with its output prefixed, restarted with a backoff when it dies. Should
 * we be SIGKILLed, it is SIGKILLed too (Temporal and PostgreSQL go down: no point in a graceful drain).
 */
export function startAppProcess(name: string, entry: 'api/main.ts' | 'worker/main.ts', env: NodeJS.ProcessEnv, say: Log): Promise<Supervised> {
  return supervise(name, () => spawnIncarnation(name, process.execPath, ['--import', 'tsx', entry], { cwd: REPO_ROOT, env }), { log: say });
}

/** Resolves when `url` answers 200; throws after two minutes, or never resolves once `stopping()`. */
export async function waitForHealth(url: string, stopping: () => boolean): Promise<void> {
  const deadline = Date.now() + HEALTH_TIMEOUT_MS;
  while (Date.now() < deadline && !stopping()) {
    const status = await fetch(url, { signal: AbortSignal.timeout(2_000) }).then((r) => r.status, () => 0);
    if (status === 200) return;
    await sleep(500);
  }
  if (!stopping()) throw new Error(`${url} did not answer 200 within ${HEALTH_TIMEOUT_MS / 1000} s`);
  await new Promise(() => undefined); // shutdown is on its way to process.exit
}

/** Where a client reaches a server bound to `host`. */
export function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/** A framed block of `label value` rows, as both launchers print it. */
export function printBox(title: string, rows: string[][], footer: string[]): void {
  const line = '-'.repeat(72);
  console.log(['', line, `  ${title}`, '', ...rows.map(([label, value]) => `  ${label?.padEnd(15)} ${value}`), '', ...footer.map((f) => `  ${f}`), line, ''].join('\n'));
}

export interface Stoppable {
  name: string;
  stop(): Promise<void>;
}

/**
 * What a launcher started, and its one way out: on SIGINT/SIGTERM/SIGHUP or `shutdown()` the
 * services (api, worker) stop together (they drain on SIGTERM), then the servers last-first, then
 * the process exits.
 */
export function launcherLifecycle(say: Log) {
  const servers: Stoppable[] = [];
  const services: Stoppable[] = [];
  let shuttingDown = false;
  const shutdown = async (code: number, reason: string): Promise<void> => {
    if (shuttingDown) return;
    shuttingDown = true;
    say(`${reason}: stopping...`);
    const stop = (s: Stoppable) => s.stop().catch((error: unknown) => say(`stopping ${s.name}: ${String(error)}`));
    await Promise.all(services.map(stop));
    for (const server of [...servers].reverse()) await stop(server);
    say('stopped');
    process.exit(code);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => void shutdown(signal === 'SIGINT' ? 130 : 143, `received ${signal}`));
  }
  return { servers, services, shuttingDown: () => shuttingDown, shutdown };
}

/** Runs a launcher's `main`, shutting down with code 1 when it throws. */
export function runLauncher(main: () => Promise<void>, lifecycle: ReturnType<typeof launcherLifecycle>, prefix: string): void {
  main().catch((error: unknown) => {
    console.error(`${prefix} ${error instanceof Error ? error.message : String(error)}`);
    void lifecycle.shutdown(1, 'startup failed');
  });
}

/** The environment the api and worker processes of a launcher share. */
export function appEnvironment(o: { databaseUrl: string; temporalAddress: string; adminToken: string; host: string; apiUrl: string; smtpUrl: string | null; say: Log }): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATABASE_URL: o.databaseUrl,
    TEMPORAL_ADDRESS: o.temporalAddress,
    TEMPORAL_NAMESPACE: process.env.TEMPORAL_NAMESPACE ?? 'default',
    ADMIN_TOKEN: o.adminToken,
    SECRETS_KEY: loadSecretsKey(o.say),
    HOST: o.host,
    // Links in mails and replies open where the launcher prints the API (DESIGN.md section 10).
    PUBLIC_URL: process.env.PUBLIC_URL ?? o.apiUrl,
    ...(o.smtpUrl && { DEFAULT_SMTP_URL: o.smtpUrl }),
    // Sandbox twins' mail reaches only a catcher (never DEFAULT_SMTP_URL, which may be a real relay).
    ...(o.smtpUrl && !process.env.SANDBOX_SMTP_URL && { SANDBOX_SMTP_URL: o.smtpUrl }),
  };
}

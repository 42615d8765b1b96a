/**
 * `npm start`: the one-command local stack.
 *
 * PostgreSQL (embedded, unless DATABASE_URL) -> Temporal dev server (unless TEMPORAL_ADDRESS) ->
 * migrations -> worker and api as child processes -> wait for /health -> print where things are.
 * A worker, api, embedded PostgreSQL or Temporal dev server that dies is restarted with a backoff (stack/supervise.ts).
 * Ctrl-C (SIGINT) or SIGTERM stops everything in reverse order and exits.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { installationKey } from '../adapters/secrets/secret-box.ts';
import { openOrm, migrate } from '../db/orm.ts';
import { findFreePort, isPortFree, sleep, type Log } from './stack/lifecycle.ts';
import { DATA_DIR, REPO_ROOT, resolveDatabaseUrl } from './stack/postgres.ts';
import { spawnIncarnation, supervise } from './stack/supervise.ts';
import { resolveTemporal } from './stack/temporal.ts';
import { resolveMailCatcher } from './stack/mail-catcher.ts';

const HEALTH_TIMEOUT_MS = 120_000;

const prefixed = (prefix: string): Log => (line) => console.log(`${prefix} ${line}`);
const say = prefixed('[start]');
const startedAt = Date.now();
const elapsed = () => `${((Date.now() - startedAt) / 1000).toFixed(1)} s`;

interface Stoppable {
  name: string;
  stop(): Promise<void>;
}
/** What we started so far: servers are stopped last-first, after the services (api, worker). */
const servers: Stoppable[] = [];
const services: Stoppable[] = [];
let shuttingDown = false;

async function main(): Promise<void> {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => void shutdown(signal === 'SIGINT' ? 130 : 143, `received ${signal}`));
  }

  const db = await resolveDatabaseUrl({ log: prefixed('[postgres]'), restartOnCrash: true });
  servers.push({ name: 'PostgreSQL', stop: db.stop });
  say(db.embedded ? `PostgreSQL (embedded) is up (${elapsed()})` : 'using DATABASE_URL');

  const temporal = await resolveTemporal({ log: prefixed('[temporal]') });
  servers.push({ name: 'Temporal dev server', stop: temporal.stop });
  say(`Temporal at ${temporal.address} (${elapsed()})`);

  const mail = await resolveMailCatcher({ log: prefixed('[mail]') });
  if (mail) servers.push({ name: 'mail catcher', stop: mail.stop });
  say(mail ? `mail catcher at ${mail.uiUrl} (${elapsed()})` : 'mail goes to DEFAULT_SMTP_URL');

  await runMigrations(db.url);

  const host = process.env.HOST ?? '127.0.0.1';
  const port = Number(process.env.PORT ?? 3000);
  if (!(await isPortFree(port, host))) throw new Error(`port ${port} on ${host} is already in use: stop what uses it or set PORT`);

  const adminToken = loadAdminToken();
  const workerMetricsPort = await findFreePort(Number(process.env.WORKER_METRICS_PORT ?? 9464));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: db.url,
    TEMPORAL_ADDRESS: temporal.address,
    TEMPORAL_NAMESPACE: process.env.TEMPORAL_NAMESPACE ?? 'default',
    ADMIN_TOKEN: adminToken,
    SECRETS_KEY: loadSecretsKey(),
    PORT: String(port),
    HOST: host,
    ...(mail && { DEFAULT_SMTP_URL: mail.smtpUrl }),
    // Sandbox twins' mail reaches only a catcher (never DEFAULT_SMTP_URL, which may be a real relay).
    ...(mail && !process.env.SANDBOX_SMTP_URL && { SANDBOX_SMTP_URL: mail.smtpUrl }),
    WORKER_METRICS_PORT: String(workerMetricsPort),
  };
  if (shuttingDown) return;
  await Promise.all([startService('worker', 'worker/main.ts', env), startService('api', 'api/main.ts', env)]);

  const apiUrl = `http://${urlHost(host)}:${port}`;
  await waitForHealth(`${apiUrl}/health`);
  say(`api is healthy (${elapsed()})`);
  printSummary({ apiUrl, temporalUiUrl: temporal.uiUrl, mailUiUrl: mail?.uiUrl ?? null, workerMetricsUrl: `http://127.0.0.1:${workerMetricsPort}/metrics`, adminToken, databaseEmbedded: db.embedded });
}

/** Where a client reaches a server bound to `host`. */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

async function runMigrations(databaseUrl: string): Promise<void> {
  const orm = await openOrm({ databaseUrl, poolMax: 1 });
  try {
    const applied = await migrate(orm);
    say(`${applied.length ? `migrations applied: ${applied.join(', ')}` : 'database schema is up to date'} (${elapsed()})`);
  } finally {
    await orm.close();
  }
}

/** ADMIN_TOKEN, else the one saved in .data/admin-token, else a new one saved there (0600). */
function loadAdminToken(): string {
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
function loadSecretsKey(): string {
  if (process.env.SECRETS_KEY?.trim()) return process.env.SECRETS_KEY;
  return installationKey(path.join(DATA_DIR, 'secrets-key'), say).toString('base64');
}

/**
 * `node --import tsx <entry>` in its own process group (so a terminal's Ctrl-C reaches only us and
 * we stop things in order), with its output prefixed, restarted with a backoff when it dies. Should
 * we be SIGKILLed, it is SIGKILLed too (Temporal and PostgreSQL go down: no point in a graceful drain).
 */
async function startService(name: string, entry: string, env: NodeJS.ProcessEnv): Promise<void> {
  const supervised = await supervise(name, () => spawnIncarnation(name, process.execPath, ['--import', 'tsx', entry], { cwd: REPO_ROOT, env }), { log: say });
  services.push({ name, stop: () => supervised.stop() });
}

async function waitForHealth(url: string): Promise<void> {
  const deadline = Date.now() + HEALTH_TIMEOUT_MS;
  while (Date.now() < deadline && !shuttingDown) {
    const status = await fetch(url, { signal: AbortSignal.timeout(2_000) }).then((r) => r.status, () => 0);
    if (status === 200) return;
    await sleep(500);
  }
  if (!shuttingDown) throw new Error(`${url} did not answer 200 within ${HEALTH_TIMEOUT_MS / 1000} s`);
  await new Promise(() => undefined); // shutdown() is on its way to process.exit
}

function printSummary(o: { apiUrl: string; temporalUiUrl: string | null; mailUiUrl: string | null; workerMetricsUrl: string; adminToken: string; databaseEmbedded: boolean }): void {
  const rows = [
    ['API', o.apiUrl],
    ['OpenAPI docs', `${o.apiUrl}/docs`],
    // BETA_PORT: the test environment's own address, sandbox platforms only (api/main.ts).
    ...(process.env.BETA_PORT ? [['Test environment', `${o.apiUrl.replace(/:\d+$/, `:${process.env.BETA_PORT}`)} (sandbox platforms only)`]] : []),
    ['Temporal UI', o.temporalUiUrl ?? '(external Temporal: TEMPORAL_ADDRESS)'],
    ['Mail (catcher)', o.mailUiUrl ?? '(DEFAULT_SMTP_URL)'],
    ['API metrics', `${o.apiUrl}/metrics`],
    ['Worker metrics', o.workerMetricsUrl],
    ['Operator token', o.adminToken],
    ['Database', o.databaseEmbedded ? `embedded PostgreSQL, data in ${path.relative(process.cwd(), DATA_DIR) || '.'}/postgres` : 'DATABASE_URL'],
  ];
  const curl =
    `curl -X POST ${o.apiUrl}/admin/v1/platforms -H 'Authorization: Bearer ${o.adminToken}' ` +
    `-H 'Content-Type: application/json' -d '{"subdomain":"demo","title":"Demo school"}'`;
  const line = '-'.repeat(72);
  console.log(
    [
      '',
      line,
      '  CourseHub is running',
      '',
      ...rows.map(([label, value]) => `  ${label?.padEnd(15)} ${value}`),
      '',
      '  Try:',
      `  ${curl}`,
      '',
      '  A crashed api, worker, PostgreSQL or Temporal is restarted. Ctrl-C stops everything.',
      line,
      '',
    ].join('\n'),
  );
}

/** Stops everything started, last first (api and worker together), then exits with `code`. */
async function shutdown(code: number, reason: string): Promise<void> {
  if (shuttingDown) return;
  shuttingDown = true;
  say(`${reason}: stopping...`);
  const stop = (s: Stoppable) => s.stop().catch((error: unknown) => say(`stopping ${s.name}: ${String(error)}`));
  await Promise.all(services.map(stop));
  for (const server of [...servers].reverse()) await stop(server);
  say('stopped');
  process.exit(code);
}

main().catch((error: unknown) => {
  console.error(`[start] ${error instanceof Error ? error.message : String(error)}`);
  void shutdown(1, 'startup failed');
});

/**
 * `npm start`: the one-command local stack.
 *
 * PostgreSQL (embedded, unless DATABASE_URL) -> Temporal dev server (unless TEMPORAL_ADDRESS) ->
 * migrations -> worker and api as child processes -> wait for /health -> print where things are.
 * A worker, api, embedded PostgreSQL or Temporal dev server that dies is restarted with a backoff (stack/supervise.ts).
 * Ctrl-C (SIGINT) or SIGTERM stops everything in reverse order and exits.
 */
import path from 'node:path';
import { appEnvironment, launcherLifecycle, loadAdminToken, runLauncher, printBox, runMigrations, startAppProcess, urlHost, waitForHealth } from './stack/app-processes.ts';
import { findFreePort, isPortFree, type Log } from './stack/lifecycle.ts';
import { DATA_DIR, resolveDatabaseUrl } from './stack/postgres.ts';
import { resolveTemporal } from './stack/temporal.ts';
import { resolveMailCatcher } from './stack/mail-catcher.ts';

const prefixed = (prefix: string): Log => (line) => console.log(`${prefix} ${line}`);
const say = prefixed('[start]');
const startedAt = Date.now();
const elapsed = () => `${((Date.now() - startedAt) / 1000).toFixed(1)} s`;

const lifecycle = launcherLifecycle(say);
const { servers, services } = lifecycle;

async function main(): Promise<void> {

  const db = await resolveDatabaseUrl({ log: prefixed('[postgres]'), restartOnCrash: true });
  servers.push({ name: 'PostgreSQL', stop: db.stop });
  say(db.embedded ? `PostgreSQL (embedded) is up (${elapsed()})` : 'using DATABASE_URL');

  const temporal = await resolveTemporal({ log: prefixed('[temporal]') });
  servers.push({ name: 'Temporal dev server', stop: temporal.stop });
  say(`Temporal at ${temporal.address} (${elapsed()})`);

  const mail = await resolveMailCatcher({ log: prefixed('[mail]') });
  if (mail) servers.push({ name: 'mail catcher', stop: mail.stop });
  say(mail ? `mail catcher at ${mail.uiUrl} (${elapsed()})` : 'mail goes to DEFAULT_SMTP_URL');

  await runMigrations(db.url, say);

  const host = process.env.HOST ?? '127.0.0.1';
  const port = Number(process.env.PORT ?? 3000);
  if (!(await isPortFree(port, host))) throw new Error(`port ${port} on ${host} is already in use: stop what uses it or set PORT`);

  const apiUrl = `http://${urlHost(host)}:${port}`;
  const adminToken = loadAdminToken(say);
  const workerMetricsPort = await findFreePort(Number(process.env.WORKER_METRICS_PORT ?? 9464));
  const env: NodeJS.ProcessEnv = {
    ...appEnvironment({ databaseUrl: db.url, temporalAddress: temporal.address, adminToken, host, apiUrl, smtpUrl: mail?.smtpUrl ?? null, say }),
    PORT: String(port),
    WORKER_METRICS_PORT: String(workerMetricsPort),
  };
  if (lifecycle.shuttingDown()) return;
  const started = await Promise.all([startAppProcess('worker', 'worker/main.ts', env, say), startAppProcess('api', 'api/main.ts', env, say)]);
  services.push(...started);

  await waitForHealth(`${apiUrl}/health`, lifecycle.shuttingDown);
  say(`api is healthy (${elapsed()})`);
  printSummary({ apiUrl, temporalUiUrl: temporal.uiUrl, mailUiUrl: mail?.uiUrl ?? null, workerMetricsUrl: `http://127.0.0.1:${workerMetricsPort}/metrics`, adminToken, databaseEmbedded: db.embedded });
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
  printBox('CourseHub is running', rows, ['Try:', curl, '', 'A crashed api, worker, PostgreSQL or Temporal is restarted. Ctrl-C stops everything.']);
}

runLauncher(main, lifecycle, '[start]');

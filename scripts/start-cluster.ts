/**
 * `npm run start:cluster`: the production topology on one machine, without Docker.
 *
 * PostgreSQL (embedded, unless DATABASE_URL) -> a Temporal server built from go.temporal.io/server
 * with its persistence and visibility in databases of their own on that PostgreSQL, and the
 * Temporal UI -> Redis (REDIS_URL, else a local one when it answers) -> migrations -> two workers
 * and two apis (PORT and the next free port) sharing the database, Temporal and the rate limits.
 * Ctrl-C drains the apis and workers (SIGTERM), then stops Temporal and PostgreSQL.
 */
import path from 'node:path';
import { Redis } from 'ioredis';
import { appEnvironment, launcherLifecycle, loadAdminToken, runLauncher, printBox, runMigrations, startAppProcess, urlHost, waitForHealth } from './stack/app-processes.ts';
import { findFreePort, isPortFree, type Log } from './stack/lifecycle.ts';
import { resolveMailCatcher } from './stack/mail-catcher.ts';
import { DATA_DIR, resolveDatabaseUrl, withDatabase } from './stack/postgres.ts';
import { startTemporalCluster } from './stack/temporal-server.ts';

const APIS = 2;
const WORKERS = 2;
const LOCAL_REDIS = 'redis://127.0.0.1:6379';

const prefixed = (prefix: string): Log => (line) => console.log(`${prefix} ${line}`);
const say = prefixed('[cluster]');

const lifecycle = launcherLifecycle(say);
const { servers, services } = lifecycle;

async function main(): Promise<void> {
  const db = await resolveDatabaseUrl({ log: prefixed('[postgres]'), restartOnCrash: true });
  servers.push({ name: 'PostgreSQL', stop: db.stop });

  const temporal = await startTemporalCluster({
    postgresUrl: withDatabase(db.url, 'postgres'),
    stateDir: path.join(DATA_DIR, 'cluster'),
    port: Number(process.env.TEMPORAL_PORT ?? 7233),
    uiPort: Number(process.env.TEMPORAL_UI_PORT ?? 8233),
    restartOnCrash: true,
    log: prefixed('[temporal]'),
  });
  servers.push({ name: 'Temporal server', stop: temporal.stop });
  say(`Temporal server (PostgreSQL persistence) at ${temporal.address}`);

  const mail = await resolveMailCatcher({ log: prefixed('[mail]') });
  if (mail) servers.push({ name: 'mail catcher', stop: mail.stop });

  const redisUrl = process.env.REDIS_URL ?? ((await answersPing(LOCAL_REDIS)) ? LOCAL_REDIS : undefined);
  await runMigrations(db.url, say);

  const host = process.env.HOST ?? '127.0.0.1';
  const firstPort = Number(process.env.PORT ?? 3000);
  if (!(await isPortFree(firstPort, host))) throw new Error(`port ${firstPort} on ${host} is already in use: stop what uses it or set PORT`);
  const apiPorts = [firstPort];
  while (apiPorts.length < APIS) apiPorts.push(await findFreePort((apiPorts.at(-1) ?? firstPort) + 1, host));
  const metricsPorts: number[] = [];
  while (metricsPorts.length < WORKERS) metricsPorts.push(await findFreePort((metricsPorts.at(-1) ?? Number(process.env.WORKER_METRICS_PORT ?? 9464) - 1) + 1));
  const apiUrls = apiPorts.map((port) => `http://${urlHost(host)}:${port}`);

  const adminToken = loadAdminToken(say);
  const env: NodeJS.ProcessEnv = {
    ...appEnvironment({ databaseUrl: db.url, temporalAddress: temporal.address, adminToken, host, apiUrl: apiUrls[0]!, smtpUrl: mail?.smtpUrl ?? null, say }),
    ...(redisUrl && { REDIS_URL: redisUrl }),
  };
  if (lifecycle.shuttingDown()) return;
  const started = await Promise.all([
    ...metricsPorts.map((port, i) => startAppProcess(`worker-${i + 1}`, 'worker/main.ts', { ...env, WORKER_METRICS_PORT: String(port) }, say)),
    ...apiPorts.map((port, i) => startAppProcess(`api-${i + 1}`, 'api/main.ts', { ...env, PORT: String(port) }, say)),
  ]);
  services.push(...started);
  await Promise.all(apiUrls.map((url) => waitForHealth(`${url}/health`, lifecycle.shuttingDown)));

  printBox(
    'CourseHub is running (cluster topology)',
    [
      ...apiUrls.map((url, i) => [`API ${i + 1}`, url]),
      ['OpenAPI docs', `${apiUrls[0]}/docs`],
      ['Temporal', `${temporal.address} (server on PostgreSQL: databases temporal, temporal_visibility)`],
      ['Temporal UI', temporal.uiUrl ?? '(none)'],
      ['Mail (catcher)', mail?.uiUrl ?? '(DEFAULT_SMTP_URL)'],
      ['Rate limits', redisUrl ? `shared in Redis ${redisUrl}` : 'per api process (no Redis answered: set REDIS_URL to share them)'],
      ...metricsPorts.map((port, i) => [`Worker ${i + 1} metrics`, `http://127.0.0.1:${port}/metrics`]),
      ['Operator token', adminToken],
      ['Database', db.embedded ? `embedded PostgreSQL, data in ${path.relative(process.cwd(), DATA_DIR) || '.'}/postgres` : 'DATABASE_URL'],
    ],
    ['A crashed api, worker, PostgreSQL or Temporal server is restarted. Ctrl-C drains and stops everything.'],
  );
}

async function answersPing(url: string): Promise<boolean> {
  const redis = new Redis(url, { lazyConnect: true, connectTimeout: 1_000, maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

runLauncher(main, lifecycle, '[cluster]');

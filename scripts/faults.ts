/**
 * `npm run faults`: the local stack under the two faults of issue 16, item 3, with figures.
 *
 * Starts what `npm start` starts, supervised the same way (stack/supervise.ts), in a temporary
 * data directory on free ports: embedded PostgreSQL, an in-memory Temporal dev server, worker and
 * api as child processes. Sends a grant (one new e-mail each) every GRANT_EVERY_MS throughout,
 * SIGKILLs the worker, waits until it has recovered, SIGKILLs the PostgreSQL server, waits again,
 * stops sending and waits for the accepted grants to be applied. Prints: accepted (200), refused
 * (503, connection refused), 5xx other than 503, applied, lost (accepted, never applied), doubled
 * (more than one enrolment or access source for one e-mail), and per fault the seconds from the
 * kill until a grant accepted after it was applied. The last line is `faults {json}`.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrate, openOrm } from '../db/orm.ts';
import { createGrantCourse, grantCounts, throwawayEnvironment, until as untilWithin } from './drill/stack-kit.ts';
import { findFreePort, sleep, type Log } from './stack/lifecycle.ts';
import { ensureDatabase, REPO_ROOT, startEmbeddedPostgres } from './stack/postgres.ts';
import { spawnIncarnation, supervise, type Backoff } from './stack/supervise.ts';
import { startTemporalDevServer } from './stack/temporal.ts';

const GRANT_EVERY_MS = 500;
const SETTLE_MS = 3_000;
const RECOVERY_TIMEOUT_MS = 120_000;
const BACKOFF: Backoff = { initialMs: 500, maxMs: 5_000, stableAfterMs: 30_000 };

const log: Log = (line) => console.error(`[faults] ${new Date().toISOString().slice(11, 23)} ${line}`);
const stops: { name: string; stop: () => Promise<void> }[] = [];
const dir = mkdtempSync(path.join(os.tmpdir(), 'coursehub-faults-'));

interface Grant {
  email: string;
  sentAt: number;
  status: number | 'network';
}

async function main(): Promise<void> {
  const server = await startEmbeddedPostgres({ dataDir: path.join(dir, 'postgres'), port: await findFreePort(), persistent: false, log, restartOnCrash: { backoff: BACKOFF } });
  stops.push({ name: 'PostgreSQL', stop: server.stop });
  const databaseUrl = await ensureDatabase(server.adminUrl, 'coursehub');
  const migrator = await openOrm({ databaseUrl, poolMax: 1 });
  await migrate(migrator).finally(() => migrator.close());
  const temporal = await startTemporalDevServer({ log: () => undefined });
  stops.push({ name: 'Temporal', stop: temporal.stop });

  const port = await findFreePort();
  const apiUrl = `http://127.0.0.1:${port}`;
  const { env: shared, adminToken } = throwawayEnvironment({ databaseUrl, temporalAddress: temporal.address, taskQueuePrefix: 'faults' });
  const env: NodeJS.ProcessEnv = { ...shared, PORT: String(port) };
  const service = async (name: string, entry: string) => {
    const supervised = await supervise(name, () => spawnIncarnation(name, process.execPath, ['--import', 'tsx', entry], { cwd: REPO_ROOT, env }), { log, backoff: BACKOFF });
    stops.push({ name, stop: () => supervised.stop() });
    return supervised;
  };
  const worker = await service('worker', 'worker/main.ts');
  await service('api', 'api/main.ts');
  await until(async () => (await fetch(`${apiUrl}/health`).then((r) => r.status, () => 0)) === 200, 'the api to be healthy');
  log(`stack up: api ${apiUrl}, PostgreSQL ${new URL(databaseUrl).port}, Temporal ${temporal.address}, data in ${dir}`);

  const { apiKey, courseId } = await createGrantCourse(apiUrl, adminToken, 'faults');

  // Grants, sent on a clock whatever happens to the stack.
  const grants: Grant[] = [];
  const inFlight = new Set<Promise<void>>();
  let sending = true;
  const sender = (async () => {
    for (let i = 0; sending; i++) {
      const grant: Grant = { email: `learner-${i}-${randomBytes(3).toString('hex')}@faults.example.com`, sentAt: Date.now(), status: 'network' };
      grants.push(grant);
      const request = fetch(`${apiUrl}/api/courses/subscribe`, {
        method: 'POST',
        headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ subscriptions: { course_id: courseId, email: grant.email } }),
        signal: AbortSignal.timeout(30_000),
      }).then(
        async (res) => {
          grant.status = res.status;
          await res.arrayBuffer();
        },
        () => undefined,
      );
      const tracked = request.finally(() => inFlight.delete(tracked));
      inFlight.add(tracked);
      await sleep(GRANT_EVERY_MS);
    }
  })();

  const applied = async (): Promise<Map<string, number>> => new Map([...(await grantCounts(databaseUrl, courseId))].filter(([, n]) => n.enrolments > 0).map(([email, n]) => [email, n.enrolments]));
  /** When each e-mail's enrolment was first seen, polled every 250 ms throughout. */
  const firstSeen = new Map<string, number>();
  let polling = true;
  const poller = (async () => {
    while (polling) {
      const seen = await applied();
      for (const email of seen.keys()) if (!firstSeen.has(email)) firstSeen.set(email, Date.now());
      await sleep(250);
    }
  })();
  /**
   * Seconds from `killedAt` until the stack works again: the api accepted a grant sent after the
   * kill, and the worker applied a grant it had not applied before (seen from 1 s after the kill on).
   */
  const recovery = async (what: string, killedAt: number): Promise<number> => {
    let seconds = Number.NaN;
    let reportedAt = Date.now();
    await until(async () => {
      const accepted = grants.find((g) => g.sentAt > killedAt && g.status === 200);
      const appliedAt = [...firstSeen.values()].filter((t) => t > killedAt + 1_000).sort((x, y) => x - y)[0];
      if (Date.now() - reportedAt >= 10_000) {
        reportedAt = Date.now();
        const counts = new Map<string, number>();
        for (const g of grants.filter((g) => g.sentAt > killedAt)) counts.set(String(g.status), (counts.get(String(g.status)) ?? 0) + 1);
        log(`waiting for ${what}: ${Math.round((Date.now() - killedAt) / 1000)} s after the kill; grants since: ${[...counts].map(([k, n]) => `${k}: ${n}`).join(', ')}; applied in all: ${firstSeen.size}`);
      }
      if (!accepted || appliedAt === undefined) return false;
      seconds = (Math.max(accepted.sentAt, appliedAt) - killedAt) / 1000;
      return true;
    }, `${what} to recover`);
    log(`${what} recovered ${seconds.toFixed(1)} s after the kill`);
    return seconds;
  };

  await sleep(SETTLE_MS);
  const workerPid = worker.current()?.pid;
  if (!workerPid) throw new Error('no worker pid');
  const workerKilledAt = Date.now();
  process.kill(workerPid, 'SIGKILL');
  log(`SIGKILLed the worker (pid ${workerPid})`);
  const workerRecovery = await recovery('the worker', workerKilledAt);

  await sleep(SETTLE_MS);
  const postgresPid = server.pid?.();
  if (!postgresPid) throw new Error('no PostgreSQL pid');
  const postgresKilledAt = Date.now();
  process.kill(postgresPid, 'SIGKILL');
  log(`SIGKILLed PostgreSQL (pid ${postgresPid})`);
  const postgresRecovery = await recovery('PostgreSQL', postgresKilledAt);

  await sleep(SETTLE_MS);
  sending = false;
  await sender;
  await Promise.all(inFlight);
  polling = false;
  await poller;
  const accepted = grants.filter((g) => g.status === 200);
  let seen = new Map<string, number>();
  await until(async () => {
    seen = await applied();
    return accepted.every((g) => seen.has(g.email));
  }, 'every accepted grant to be applied').catch((error: unknown) => log(String(error)));
  const sources = new Map([...(await grantCounts(databaseUrl, courseId))].map(([email, n]) => [email, n.sources]));

  const figures = {
    sent: grants.length,
    accepted: accepted.length,
    refused_503: grants.filter((g) => g.status === 503).length,
    refused_connection: grants.filter((g) => g.status === 'network').length,
    other_5xx: grants.filter((g) => typeof g.status === 'number' && g.status >= 500 && g.status !== 503).length,
    other_4xx: grants.filter((g) => typeof g.status === 'number' && g.status >= 400 && g.status < 500).length,
    applied: accepted.filter((g) => seen.has(g.email)).length,
    applied_though_refused: grants.filter((g) => g.status !== 200 && seen.has(g.email)).length,
    lost: accepted.filter((g) => !seen.has(g.email)).length,
    doubled: grants.filter((g) => (seen.get(g.email) ?? 0) > 1 || (sources.get(g.email) ?? 0) > 1).length,
    worker_recovery_s: Number(workerRecovery.toFixed(1)),
    postgres_recovery_s: Number(postgresRecovery.toFixed(1)),
  };
  console.log(
    [
      `grants sent          ${figures.sent}`,
      `accepted (200)       ${figures.accepted}`,
      `refused (503)        ${figures.refused_503}`,
      `refused (no answer)  ${figures.refused_connection}`,
      `other 5xx            ${figures.other_5xx}`,
      `applied              ${figures.applied} of the accepted (+${figures.applied_though_refused} of the refused)`,
      `lost                 ${figures.lost}`,
      `doubled              ${figures.doubled}`,
      `worker SIGKILL       recovered in ${figures.worker_recovery_s} s`,
      `PostgreSQL SIGKILL   recovered in ${figures.postgres_recovery_s} s`,
    ].join('\n'),
  );
  console.log(`faults ${JSON.stringify(figures)}`);
}

function until(check: () => Promise<boolean>, what: string): Promise<void> {
  return untilWithin(check, what, RECOVERY_TIMEOUT_MS);
}

async function stopAll(): Promise<void> {
  for (const entry of stops.reverse()) await entry.stop().catch((error: unknown) => log(`stopping ${entry.name}: ${String(error)}`));
  rmSync(dir, { recursive: true, force: true });
}

process.on('SIGINT', () => void stopAll().then(() => process.exit(130)));
main().then(
  async () => {
    await stopAll();
    process.exit(0);
  },
  async (error: unknown) => {
    log(error instanceof Error ? (error.stack ?? error.message) : String(error));
    await stopAll();
    process.exit(1); // the grant sender may still be running
  },
);

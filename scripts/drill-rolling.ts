/**
 * `npm run drill:rolling`: a rolling deploy under load, with figures (issue 43, item 3).
 *
 * Starts the cluster topology on loopback in a temporary folder: embedded PostgreSQL, the Temporal
 * server on it (stack/temporal-server.ts), two workers and two apis. Under a steady load spread
 * over both apis (a grant, a clearing and a storefront checkout in turn, one every LOAD_EVERY_MS)
 * it replaces each worker and then each api one at a time (SIGTERM, its exit = drain, the new one
 * started; an api's /health awaited), then restarts the Temporal server once. The client moves a
 * refused or cut request to the other api and repeats a 503 with the same Idempotency-Key
 * (drill/client.ts). Then it waits (bounded) until every accepted operation is applied and counts,
 * from the database and Temporal (drill/checks.ts): lost, doubled, stuck, and the 5xx other than
 * a 503 during the Temporal restart. The last line is `drill {json}`; the exit code is 1 when a
 * target (all zero, every 503 repeated safely with its key, under DRILL_BUDGET_MS) is missed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import pg from 'pg';
import { migrate, openOrm } from '../db/orm.ts';
import { createBenchShop, createEbook } from './bench/shop-fixtures.ts';
import { waitForHealth } from './stack/app-processes.ts';
import { findFreePort, sleep, type Log } from './stack/lifecycle.ts';
import { ensureDatabase, REPO_ROOT, startEmbeddedPostgres } from './stack/postgres.ts';
import { spawnIncarnation, type Incarnation } from './stack/supervise.ts';
import { startTemporalCluster } from './stack/temporal-server.ts';
import { countFindings, type Findings } from './drill/checks.ts';
import { DrillClient, type OperationKind } from './drill/client.ts';
import { runOperation, type DrillFixtures, type Operation } from './drill/operations.ts';
import { createGrantCourse, throwawayEnvironment, until } from './drill/stack-kit.ts';

const LOAD_EVERY_MS = 400;
const SETTLE_MS = 4_000;
/** A worker's drain: the SDK waits for its running activities (none is longer than a few seconds here). */
const DRAIN_MS = 60_000;
/** After the Temporal restart, how long a 503 still counts as the restart's (the apis' client reconnects). */
const RESTART_GRACE_MS = 10_000;
const QUIESCENCE_MS = 120_000;
const DRILL_BUDGET_MS = 300_000;
const KINDS: OperationKind[] = ['grant', 'clearing', 'checkout'];

const startedAt = Date.now();
const log: Log = (line) => console.error(`[drill] ${((Date.now() - startedAt) / 1000).toFixed(1).padStart(6)} s ${line}`);
const stops: { name: string; stop: () => Promise<void> }[] = [];
const dir = mkdtempSync(path.join(os.tmpdir(), 'coursehub-drill-'));

/** The report's lines (the last one `drill {json}`) and whether every target was met. */
async function main(): Promise<{ report: string[]; met: boolean }> {
  const postgres = await startEmbeddedPostgres({ dataDir: path.join(dir, 'postgres'), port: await findFreePort(), persistent: false, log });
  stops.push({ name: 'PostgreSQL', stop: postgres.stop });
  const databaseUrl = await ensureDatabase(postgres.adminUrl, 'coursehub');
  const migrator = await openOrm({ databaseUrl, poolMax: 1 });
  await migrate(migrator).finally(() => migrator.close());
  const cluster = await startTemporalCluster({ postgresUrl: postgres.adminUrl, stateDir: path.join(dir, 'temporal'), port: 0, uiPort: 0, log });
  stops.push({ name: 'Temporal server', stop: cluster.stop });
  log(`PostgreSQL and the Temporal server (${cluster.address}) are up`);

  const { env, adminToken } = throwawayEnvironment({ databaseUrl, temporalAddress: cluster.address, taskQueuePrefix: 'drill' });
  const apiPorts = [await findFreePort()];
  apiPorts.push(await findFreePort(apiPorts[0]! + 1));
  const apiUrls = apiPorts.map((port) => `http://127.0.0.1:${port}`);
  const start = (name: string, entry: string, extra: NodeJS.ProcessEnv) => spawnIncarnation(name, process.execPath, ['--import', 'tsx', entry], { cwd: REPO_ROOT, env: { ...env, ...extra }, graceMs: DRAIN_MS });
  const startWorker = (i: number, generation: number) => start(`worker-${i + 1}.${generation}`, 'worker/main.ts', { WORKER_METRICS_PORT: '0' });
  const startApi = (i: number, generation: number) => start(`api-${i + 1}.${generation}`, 'api/main.ts', { PORT: String(apiPorts[i]) });
  const workers: Incarnation[] = await Promise.all([0, 1].map((i) => startWorker(i, 1)));
  const apis: Incarnation[] = await Promise.all([0, 1].map((i) => startApi(i, 1)));
  stops.push({ name: 'apis and workers', stop: async () => void (await Promise.all([...apis, ...workers].map((p) => p.stop()))) });
  await Promise.all(apiUrls.map((url) => waitForHealth(`${url}/health`, () => false)));
  log(`apis ${apiUrls.join(', ')} healthy; two workers on ${env.TEMPORAL_TASK_QUEUE}`);

  const db = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  stops.push({ name: 'drill pool', stop: () => db.end() });
  const platform = await createGrantCourse(apiUrls[0]!, adminToken, 'drill');
  const shop = await createBenchShop(apiUrls[0]!, adminToken, 'drill');
  const productId = await createEbook(shop, 'Drill e-book', '19.90');
  const fixtures: DrillFixtures = {
    adminToken,
    platform,
    shop: { id: shop.id, subdomain: shop.subdomain, key: shop.key, productId },
    orderOf: async (email) => (await db.query<{ id: number }>('select id from shop_orders where shop_id = $1 and email = $2', [shop.id, email])).rows[0]?.id ?? null,
  };

  // The load: one operation every LOAD_EVERY_MS, kinds in turn, whatever happens to the stack.
  const client = new DrillClient(apiUrls);
  const operations: Operation[] = [];
  const inFlight = new Set<Promise<void>>();
  let loading = true;
  const load = (async () => {
    for (let n = 0; loading; n++) {
      const kind = KINDS[n % KINDS.length]!;
      const running = runOperation(kind, n, client, fixtures).then(
        (op) => void operations.push(op),
        (error: unknown) => log(`${kind} ${n} failed in the drill itself: ${String(error)}`),
      );
      const tracked = running.finally(() => inFlight.delete(tracked));
      inFlight.add(tracked);
      await sleep(LOAD_EVERY_MS);
    }
  })();
  await sleep(SETTLE_MS);

  const drains: Record<string, number> = {};
  const replace = async (what: 'worker' | 'api', i: number) => {
    const slots = what === 'worker' ? workers : apis;
    const old = slots[i]!;
    const stoppedAt = Date.now();
    await old.stop();
    const reason = await old.exited;
    drains[`${what}-${i + 1}`] = Number(((Date.now() - stoppedAt) / 1000).toFixed(1));
    if (reason !== 'code 0' && reason !== 'SIGTERM') log(`${what} ${i + 1} ended by ${reason}: it did not drain in ${DRAIN_MS / 1000} s`);
    slots[i] = await (what === 'worker' ? startWorker(i, 2) : startApi(i, 2));
    if (what === 'api') await waitForHealth(`${apiUrls[i]}/health`, () => false);
    log(`${what} ${i + 1} replaced (drained in ${drains[`${what}-${i + 1}`]} s, ${reason})`);
    await sleep(SETTLE_MS);
  };
  for (const i of [0, 1]) await replace('worker', i);
  for (const i of [0, 1]) await replace('api', i);

  const restartFrom = Date.now();
  await cluster.restart();
  await Promise.all(apiUrls.map((url) => waitForHealth(`${url}/health`, () => false)));
  const restartUntil = Date.now() + RESTART_GRACE_MS;
  log(`Temporal server restarted in ${((Date.now() - restartFrom) / 1000).toFixed(1)} s (apis healthy again)`);
  await sleep(SETTLE_MS + RESTART_GRACE_MS);
  loading = false;
  await load;
  await Promise.all(inFlight);
  log(`load stopped: ${operations.length} operations; waiting for them to settle`);

  const connection = await Connection.connect({ address: cluster.address });
  const temporal = new Client({ connection, namespace: 'default' });
  let findings: Findings | undefined;
  await until(
    async () => {
      findings = await countFindings({ databaseUrl, courseId: platform.courseId, shopId: shop.id, temporal, operations });
      return findings.settled;
    },
    'every accepted operation to be applied',
    QUIESCENCE_MS,
  ).catch((error: unknown) => log(String(error)));
  await connection.close();
  const found = findings!;

  const replies = client.replies;
  const inRestart = (at: number) => at >= restartFrom && at <= restartUntil;
  const unavailable = replies.filter((r) => r.status === 503 && !r.draining);
  // A closing api's own 503 (no handler ran) is the drain's expected answer: the client sends it to the other api.
  const unexpected = replies.filter((r) => typeof r.status === 'number' && r.status >= 500 && !r.draining && !(r.status === 503 && inRestart(r.at)));
  const unsafe = operations.filter((op) => op.unavailable > 0 && (!op.accepted || (op.kind !== 'grant' && !op.keyedThrough503)));
  const byKind = (kind: OperationKind) => ({
    ...found[kind],
    refused: operations.filter((op) => op.kind === kind && !op.accepted).length,
    replies_503: unavailable.filter((r) => r.kind === kind).length,
    network_errors: replies.filter((r) => r.kind === kind && r.status === 'network').length,
  });
  const seconds = Number(((Date.now() - startedAt) / 1000).toFixed(1));
  const figures = {
    lost: KINDS.reduce((n, k) => n + found[k].lost, 0),
    doubled: KINDS.reduce((n, k) => n + found[k].doubled, 0),
    stuck: KINDS.reduce((n, k) => n + found[k].stuck, 0),
    unexpected_5xx: unexpected.length,
    replies_503_in_temporal_restart: unavailable.filter((r) => inRestart(r.at)).length,
    replies_503_elsewhere: unavailable.filter((r) => !inRestart(r.at)).length,
    replies_503_draining_api: replies.filter((r) => r.draining).length,
    every_503_retried_safely: unsafe.length === 0,
    grant: byKind('grant'),
    clearing: { ...byKind('clearing'), cleared_on_repeat: operations.filter((op) => op.clearedOnRepeat).length },
    checkout: byKind('checkout'),
    drain_s: drains,
    temporal_restart_s: Number(((restartUntil - RESTART_GRACE_MS - restartFrom) / 1000).toFixed(1)),
    seconds,
  };

  const statusCounts = new Map<string, number>();
  for (const r of replies) statusCounts.set(`${r.status} ${r.request}: ${r.reason}`, (statusCounts.get(`${r.status} ${r.request}: ${r.reason}`) ?? 0) + 1);
  const report = [
      `operations           ${operations.length} (${KINDS.map((k) => `${k} ${found[k].accepted}/${found[k].sent} accepted`).join(', ')})`,
      `lost                 ${figures.lost}`,
      `doubled              ${figures.doubled}`,
      `stuck                ${figures.stuck}`,
      `unexpected 5xx       ${figures.unexpected_5xx}`,
      `503 (Temporal restart / elsewhere) ${figures.replies_503_in_temporal_restart} / ${figures.replies_503_elsewhere}; every one repeated safely: ${figures.every_503_retried_safely}`,
      `drains (s)           ${Object.entries(drains).map(([k, v]) => `${k} ${v}`).join(', ')}`,
      `whole drill          ${seconds} s`,
      ...(statusCounts.size ? ['replies other than 2xx:', ...[...statusCounts].map(([what, n]) => `  ${n} x ${what}`)] : []),
      ...found.details.map((line) => `  ${line}`),
      ...unsafe.map((op) => `  503 not repeated safely: ${op.kind} ${op.email} ended ${op.status}${op.keyedThrough503 ? '' : ' (no Idempotency-Key)'}`),
      ...unexpected.map((r) => `  unexpected ${r.status}: ${r.request} on api ${r.api + 1} at ${((r.at - startedAt) / 1000).toFixed(1)} s: ${r.reason}`),
      `drill ${JSON.stringify(figures)}`,
  ];
  const met = figures.lost + figures.doubled + figures.stuck + figures.unexpected_5xx === 0 && figures.every_503_retried_safely && Date.now() - startedAt <= DRILL_BUDGET_MS;
  return { report, met };
}

async function stopAll(): Promise<void> {
  for (const entry of stops.reverse()) await entry.stop().catch((error: unknown) => log(`stopping ${entry.name}: ${String(error)}`));
  rmSync(dir, { recursive: true, force: true });
}

process.on('SIGINT', () => void stopAll().then(() => process.exit(130)));
main().then(
  async ({ report, met }) => {
    await stopAll(); // first: what the stopped processes print comes before the figures
    if (!met) log('a target was missed (see below)');
    console.log(report.join('\n'));
    process.exit(met ? 0 : 1);
  },
  async (error: unknown) => {
    log(error instanceof Error ? (error.stack ?? error.message) : String(error));
    await stopAll();
    process.exit(1); // the load may still be running
  },
);

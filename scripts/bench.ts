/**
 * `npm run bench`: one run on the local stack, started as `npm start` starts it (see
 * scripts/bench/stack.ts): the api and the worker each in a child process of its own. Measures
 *   (a) GET /api/courses against the same two SQL statements through raw `pg`, and a bare Fastify
 *       route, at the same concurrency (scripts/bench/courses.ts);
 *   (b) no-op workflows run by our worker's settings against the server's ceiling (a bare SDK
 *       worker with generous settings), each in a process of its own (scripts/bench/temporal-noop.ts);
 *   (b') grants end to end, POST -> enrolment visible: bursts of 200 at 32 concurrent, 3 rounds,
 *       with the one worker process and again with two (scripts/bench/grants.ts); a steady
 *       open-loop load of 10/s for 60 s and a ladder of rising rates for the highest one whose p99
 *       stays under 1 s (scripts/bench/grants-steady.ts);
 *   (c) the shop's sales report by month over 1 000 000 orders against its one SQL statement
 *       (scripts/bench/shop-reports.ts).
 *   (d) issue 26's shop parts (scripts/bench/shop-parts.ts): `shop-clearing`, `shop-checkout`,
 *       `shop-webhooks`, `shop-orders-1m`, `shop-subscriptions`, each beside a baseline of the run.
 * `npm run bench -- shop-reports` runs (c) alone, `-- courses` (a) alone, `-- noop` (b) alone,
 * `-- grants` (b) and (b') (the grants beside the no-op rate of the same run); naming one or more
 * shop parts runs those (and the no-op baseline when one of them needs it); with `noop` or `grants`
 * beside them, those and the named shop parts on one no-op baseline (`-- grants shop-clearing`).
 * (e) `--temporal=dev|cluster|both` (scripts/bench/topologies.ts): `noop`, `grants`, `shop-clearing`
 *     and `shop-checkout` (those named, else all four) on a stack with a Temporal dev server of the
 *     run, on one with the cluster topology (the server built from go.temporal.io/server on fresh
 *     PostgreSQL databases), or on both one after the other, in one table.
 * BENCH_QUICK=1 shortens every part (fewer and smaller rounds, 10 s of steady load, 5 s ladder
 * steps) to check that the bench works; its figures are not the issue's.
 * DATABASE_URL and TEMPORAL_ADDRESS: running servers to use instead of embedded ones.
 * Progress goes to stderr; the report to stdout, its last line `bench {json}`.
 * Everything started is stopped at the end, on an error and on SIGINT/SIGTERM/SIGHUP.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { measureCourses } from './bench/courses.ts';
import { createFixtures, type BenchFixtures } from './bench/fixtures.ts';
import { measureGrantBursts } from './bench/grants.ts';
import { measureLadder, measureSteady } from './bench/grants-steady.ts';
import { formatShopReports, measureShopReports, shopReportsSummary } from './bench/shop-reports.ts';
import { startHttpLoadThread, type HttpLoad } from './bench/http-load.ts';
import { formatReport, summary, TARGETS, type GrantsResults } from './bench/report.ts';
import { startBenchStack, StopList, type BenchStack } from './bench/stack.ts';
import { round } from './bench/stats.ts';
import { measureTemporalNoop } from './bench/temporal-noop.ts';
import { measureShopParts, SHOP_PARTS } from './bench/shop-parts.ts';
import { formatTopologies, measureTopology, topologiesOf, topologiesSummary, topologyPartsOf, type TopologyFigures } from './bench/topologies.ts';
import type { TemporalTopology } from './bench/stack.ts';

const QUICK = process.env.BENCH_QUICK === '1';
const CONCURRENCY = 32;
const COURSES = QUICK ? { warmupMs: 1_000, rounds: 3, roundMs: 1_000 } : { warmupMs: 3_000, rounds: 7, roundMs: 2_000 };
const GRANTS = QUICK ? { n: 50, warmupN: 8, rounds: 1 } : { n: 200, warmupN: 16, rounds: 3 };
const STEADY = QUICK ? { rate: 10, durationS: 10 } : { rate: 10, durationS: 60 };
const LADDER = { rates: [10, 15, 20, 25, 30, 40], lower: [5, 2], stepS: QUICK ? 5 : 15 };
const NOOP = QUICK ? { n: 50, warmupN: 8, rounds: 1 } : { n: 200, warmupN: 16, rounds: 3 };
const SHOP_REPORTS = QUICK ? { orders: 100_000, warmups: 1, runs: 3 } : { orders: 1_000_000, warmups: 2, runs: 7 };
const ARGS = process.argv.slice(2);
const TOPOLOGIES = topologiesOf(ARGS);
const ONLY_SHOP_REPORTS = ARGS.includes('shop-reports');
const ONLY = (['courses', 'noop', 'grants'] as const).find((part) => ARGS.includes(part));
/** Issue 26's parts, named on the command line (scripts/bench/shop-parts.ts); all of them in a full run. */
const SHOP_ONLY = SHOP_PARTS.filter((part) => ARGS.includes(part));

const started = performance.now();
const loadAtStart = os.loadavg()[0] ?? 0;
const seconds = () => ((performance.now() - started) / 1000).toFixed(1);
const log = (line: string) => console.error(`[bench ${seconds()} s] ${line}`);
const stops = new StopList(log);

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    log(`${signal}: stopping`);
    void stops.run().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  });
}

async function main(): Promise<void> {
  if (TOPOLOGIES) return measureTopologies(TOPOLOGIES);
  const stack = await startBenchStack(log, stops);
  const measureReports = () => measureShopReports({ apiUrl: stack.apiUrl, adminToken: stack.adminToken, databaseUrl: stack.databaseUrl, log, ...SHOP_REPORTS });
  if (SHOP_ONLY.length > 0 && !ONLY) {
    const shop = await measureShopParts({ stack, parts: SHOP_ONLY, quick: QUICK, concurrency: CONCURRENCY, noop: NOOP, log, stops });
    log('stopping the stack');
    await stops.run();
    console.log(shop.text);
    const machine = { cores: os.availableParallelism(), loadavg_1m_start: round(loadAtStart, 2), loadavg_1m_end: round(os.loadavg()[0] ?? 0, 2) };
    console.log(`bench ${JSON.stringify({ ...shop.summary, machine, duration_s: round((performance.now() - started) / 1000, 1) })}`);
    return;
  }
  if (ONLY_SHOP_REPORTS) {
    const reports = await measureReports();
    log('stopping the stack');
    await stops.run();
    console.log(formatShopReports(reports));
    console.log(`bench ${JSON.stringify({ shop_reports: shopReportsSummary(reports), duration_s: Math.round((performance.now() - started) / 100) / 10 })}`);
    return;
  }
  const http = startHttpLoadThread();
  stops.add('HTTP load thread', () => http.close());
  const fixtures = await createFixtures(stack.apiUrl, stack.adminToken);
  log(`platform ${fixtures.platformId} with ${fixtures.courseIds.length} active courses`);

  const courses =
    ONLY === 'noop' || ONLY === 'grants' ? undefined : await measureCourses({ http, apiUrl: stack.apiUrl, apiKey: fixtures.apiKey, databaseUrl: stack.databaseUrl, concurrency: CONCURRENCY, log, ...COURSES });
  // No-op workflows first: grants leave work behind (each starts a course-mails child workflow
  // that outlives it), which must not run during the baseline.
  const noop = ONLY === 'courses' ? undefined : await measureTemporalNoop({ stack, concurrency: CONCURRENCY, log, ...NOOP });
  const grants = ONLY === 'courses' || ONLY === 'noop' ? undefined : await measureAllGrants(stack, http, fixtures);
  // Last: its million rows (and their vacuum) must not weigh on the other parts.
  const reports = ONLY ? undefined : await measureReports();
  // With a part named (`grants shop-clearing`): the shop parts named beside it, on the same no-op baseline.
  const shopParts = ONLY ? SHOP_ONLY : [...SHOP_PARTS];
  const shop = shopParts.length === 0 ? undefined : await measureShopParts({ stack, parts: shopParts, quick: QUICK, concurrency: CONCURRENCY, noop: NOOP, log, stops, http, noopFigures: noop });

  log('stopping the stack');
  await stops.run();
  const machine = { cores: os.availableParallelism(), loadavg_1m_start: loadAtStart, loadavg_1m_end: os.loadavg()[0] ?? 0 };
  const results = { courses, grants, noop, machine, durationS: (performance.now() - started) / 1000 };
  console.log(formatReport(results));
  if (reports) console.log(formatShopReports(reports));
  if (shop) console.log(shop.text);
  console.log(`bench ${JSON.stringify({ ...summary(results), ...(reports && { shop_reports: shopReportsSummary(reports) }), ...shop?.summary })}`);
}

/** (e): each topology's stack in turn, then one table. */
async function measureTopologies(topologies: TemporalTopology[]): Promise<void> {
  const parts = topologyPartsOf(ARGS);
  const http = startHttpLoadThread();
  stops.add('HTTP load thread', () => http.close());
  const results: Partial<Record<TemporalTopology, TopologyFigures>> = {};
  for (const topology of topologies) {
    log(`Temporal topology ${topology}: ${parts.join(', ')}`);
    results[topology] = await measureTopology({ topology, parts, quick: QUICK, concurrency: CONCURRENCY, http, log, stops });
  }
  await stops.run();
  console.log(formatTopologies(results, parts));
  const machine = { cores: os.availableParallelism(), loadavg_1m_start: round(loadAtStart, 2), loadavg_1m_end: round(os.loadavg()[0] ?? 0, 2) };
  console.log(`machine: ${machine.cores} cores, load average (1 min) ${machine.loadavg_1m_start} at the start, ${machine.loadavg_1m_end} at the end`);
  console.log(`bench ${JSON.stringify({ topologies: topologiesSummary(results), machine, duration_s: round((performance.now() - started) / 1000, 1) })}`);
}

/** Bursts with one worker process, then two; then the steady load and the ladder with one. */
async function measureAllGrants(stack: BenchStack, http: HttpLoad, fixtures: BenchFixtures): Promise<GrantsResults> {
  const target = { http, stack, apiKey: fixtures.apiKey, platformId: fixtures.platformId, log };
  const bursts = { ...target, ...GRANTS, concurrency: CONCURRENCY };
  const burst = await measureGrantBursts({ ...bursts, label: '1w' });
  log('starting a second worker process');
  const second = await stack.startExtraWorker();
  const burst2Workers = await measureGrantBursts({ ...bursts, label: '2w' }).finally(() => second.stop());
  log('second worker process stopped');
  const steadyTarget = { ...target, p99LimitMs: TARGETS.steadyP99Ms };
  const steady = await measureSteady(steadyTarget, STEADY.rate, STEADY.durationS);
  const ladder = await measureLadder(steadyTarget, LADDER);
  return { burst, burst2Workers, steady, ladder };
}

main().then(
  () => process.exit(0),
  async (error: unknown) => {
    if (stops.started) return; // a signal is stopping us: its handler exits
    console.error(`[bench] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    await stops.run();
    process.exit(1);
  },
);

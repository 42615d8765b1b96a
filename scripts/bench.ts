/**
 * `npm run bench`: one run on the local stack (started here like `npm start` starts it; see
 * scripts/bench/stack.ts), measuring
 *   (a) GET /api/courses against the same two SQL statements through raw `pg`, and a bare Fastify
 *       route, at the same concurrency (scripts/bench/courses.ts);
 *   (b) no-op workflows run by our worker's settings against the server's ceiling (a bare SDK
 *       worker with generous settings), each in a process of its own (scripts/bench/temporal-noop.ts);
 *   (b') grants end to end, POST -> enrolment visible (scripts/bench/grants.ts);
 *   (c) the shop's sales report by month over 1 000 000 orders against its one SQL statement
 *       (scripts/bench/shop-reports.ts).
 * `npm run bench -- shop-reports` runs (c) alone, `-- courses` (a) alone, `-- noop` (b) alone,
 * `-- grants` (b) and (b') (the grants beside the no-op rate of the same run).
 * Progress goes to stderr; the report to stdout, its last line `bench {json}`.
 * Everything started is stopped at the end, on an error and on SIGINT/SIGTERM/SIGHUP.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { measureCourses } from './bench/courses.ts';
import { createFixtures } from './bench/fixtures.ts';
import { measureGrants } from './bench/grants.ts';
import { formatShopReports, measureShopReports, shopReportsSummary } from './bench/shop-reports.ts';
import { startHttpLoadThread } from './bench/http-load.ts';
import { formatReport, summary } from './bench/report.ts';
import { startBenchStack, StopList } from './bench/stack.ts';
import { measureTemporalNoop } from './bench/temporal-noop.ts';

const CONCURRENCY = 32;
const COURSES = { warmupMs: 3_000, rounds: 7, roundMs: 2_000 };
const GRANTS = { n: 200, warmupN: 16 };
const NOOP = { n: 200, warmupN: 16, rounds: 3 };
const SHOP_REPORTS = { orders: 1_000_000, warmups: 2, runs: 7 };
const ARGS = process.argv.slice(2);
const ONLY_SHOP_REPORTS = ARGS.includes('shop-reports');
const ONLY = (['courses', 'noop', 'grants'] as const).find((part) => ARGS.includes(part));

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
  const stack = await startBenchStack(log, stops);
  const measureReports = () => measureShopReports({ apiUrl: stack.apiUrl, adminToken: stack.adminToken, databaseUrl: stack.databaseUrl, log, ...SHOP_REPORTS });
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
  const grants =
    ONLY === 'courses' || ONLY === 'noop'
      ? undefined
      : await measureGrants({ http, stack, apiKey: fixtures.apiKey, grantCourseId: fixtures.grantCourseId, warmupCourseId: fixtures.warmupCourseId, concurrency: CONCURRENCY, log, ...GRANTS });
  // Last: its million rows (and their vacuum) must not weigh on the other parts.
  const reports = ONLY ? undefined : await measureReports();

  log('stopping the stack');
  await stops.run();
  const machine = { cores: os.availableParallelism(), loadavg_1m_start: loadAtStart, loadavg_1m_end: os.loadavg()[0] ?? 0 };
  const results = { courses, grants, noop, machine, durationS: (performance.now() - started) / 1000 };
  console.log(formatReport(results));
  if (reports) console.log(formatShopReports(reports));
  console.log(`bench ${JSON.stringify({ ...summary(results), ...(reports && { shop_reports: shopReportsSummary(reports) }) })}`);
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

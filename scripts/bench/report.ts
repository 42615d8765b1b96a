/** The bench's report: readable tables, and the one-line JSON summary `bench {...}`. */
import type { CoursesFigures, TargetFigures } from './courses.ts';
import type { GrantsFigures } from './grants.ts';
import type { NoopFigures } from './temporal-noop.ts';
import { round } from './stats.ts';

export interface BenchResults {
  courses: CoursesFigures;
  grants: GrantsFigures;
  noop: NoopFigures;
  /** Context for the figures: the machine is shared, and its load moves them. */
  machine: { cores: number; loadavg_1m_start: number; loadavg_1m_end: number };
  durationS: number;
}

/** All figures, rounded, in the shape of the `bench` line. */
export function summary({ courses, grants, noop, machine, durationS }: BenchResults) {
  const target = (t: TargetFigures) => ({
    rps: round(t.rps, 0),
    p50_ms: round(t.p50_ms, 2),
    p99_ms: round(t.p99_ms, 2),
    errors: t.errors,
    rounds_rps: t.rounds_rps.map((rps) => round(rps, 0)),
  });
  const roundAll = (parts: Record<string, number>) => Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, round(v, 1)]));
  return {
    courses: {
      concurrency: courses.concurrency,
      rounds: courses.rounds,
      round_s: courses.round_s,
      api: target(courses.api),
      raw_sql: target(courses.raw_sql),
      bare_fastify: target(courses.bare_fastify),
      ratio_rps: round(courses.api.rps / courses.raw_sql.rps, 3),
      ratio_p50: round(courses.api.p50_ms / courses.raw_sql.p50_ms, 3),
      ratio_rps_vs_bare: round(courses.api.rps / courses.bare_fastify.rps, 3),
    },
    grants: {
      n: grants.n,
      concurrency: grants.concurrency,
      visible: grants.visible,
      per_second: round(grants.per_second, 1),
      p50_ms: round(grants.p50_ms, 1),
      p99_ms: round(grants.p99_ms, 1),
      all_visible_ms: round(grants.all_visible_ms, 0),
      post_p50_ms: round(grants.post_p50_ms, 1),
      post_p99_ms: round(grants.post_p99_ms, 1),
      post_errors: grants.post_errors,
      breakdown_ms: roundAll(grants.breakdown_ms),
    },
    temporal_noop: {
      n: noop.n,
      concurrency: noop.concurrency,
      completed: noop.completed,
      per_second: round(noop.per_second, 1),
      p50_ms: round(noop.p50_ms, 1),
      p99_ms: round(noop.p99_ms, 1),
      start_p50_ms: round(noop.start_p50_ms, 1),
      start_p99_ms: round(noop.start_p99_ms, 1),
      breakdown_ms: roundAll(noop.breakdown_ms),
    },
    grants_vs_noop_ratio: round(grants.per_second / noop.per_second, 3),
    machine: { cores: machine.cores, loadavg_1m_start: round(machine.loadavg_1m_start, 2), loadavg_1m_end: round(machine.loadavg_1m_end, 2) },
    duration_s: round(durationS, 1),
  };
}

type Cell = string | number | null;

function table(header: Cell[], rows: Cell[][]): string {
  const text = (cell: Cell) => (cell === null ? '-' : String(cell));
  const widths = header.map((_, col) => Math.max(...[header, ...rows].map((row) => text(row[col] ?? null).length)));
  const line = (row: Cell[]) =>
    row.map((cell, col) => (col === 0 ? text(cell).padEnd(widths[col]!) : text(cell).padStart(widths[col]!))).join('   ').trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

export function formatReport(results: BenchResults): string {
  const s = summary(results);
  const c = s.courses;
  const target = (label: string, t: typeof c.api): Cell[] => [label, t.rps, t.p50_ms, t.p99_ms, t.errors, t.rounds_rps.join(' ')];
  const breakdown = (parts: Record<string, number | null>) => table(['step (median ms)', ''], Object.entries(parts).map(([step, ms]) => [`  ${step}`, ms]));
  return [
    '',
    `GET /api/courses: ${c.concurrency} concurrent, over loopback; ${c.rounds} rounds of ${c.round_s} s per target after a warm-up; medians of the rounds`,
    table(
      ['target', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'req/s per round'],
      [
        target('API GET /api/courses', c.api),
        target('raw SQL (same 2 statements, pg)', c.raw_sql),
        target('bare Fastify GET /ping', c.bare_fastify),
      ],
    ),
    `API / raw SQL: ${c.ratio_rps} x the throughput, ${c.ratio_p50} x the p50 latency; API / bare Fastify: ${c.ratio_rps_vs_bare} x the throughput`,
    '',
    `Grants end to end: ${s.grants.n} grants (one new e-mail each), ${s.grants.concurrency} concurrent POSTs; Temporal baseline: ${s.temporal_noop.n} no-op workflows at the same concurrency`,
    table(
      ['', 'per s', 'p50 ms', 'p99 ms', 'done', 'call p50 ms', 'call p99 ms'],
      [
        ['grants (POST sent -> enrolment visible)', s.grants.per_second, s.grants.p50_ms, s.grants.p99_ms, `${s.grants.visible}/${s.grants.n}`, s.grants.post_p50_ms, s.grants.post_p99_ms],
        ['no-op workflows (start -> result)', s.temporal_noop.per_second, s.temporal_noop.p50_ms, s.temporal_noop.p99_ms, `${s.temporal_noop.completed}/${s.temporal_noop.n}`, s.temporal_noop.start_p50_ms, s.temporal_noop.start_p99_ms],
      ],
    ),
    `grants / no-op workflows: ${s.grants_vs_noop_ratio} x the throughput; all ${s.grants.n} enrolments visible ${s.grants.all_visible_ms} ms after the first POST`,
    '',
    'Where a grant spends its time (medians over a sample of workflow histories)',
    breakdown(s.grants.breakdown_ms),
    '',
    'Where a no-op workflow spends its time',
    breakdown(s.temporal_noop.breakdown_ms),
    '',
    `bench run took ${s.duration_s} s on ${s.machine.cores} cores; 1-minute load average ${s.machine.loadavg_1m_start} at the start, ${s.machine.loadavg_1m_end} at the end`,
  ].join('\n');
}

export function benchLine(results: BenchResults): string {
  return `bench ${JSON.stringify(summary(results))}`;
}

/** The bench's report: readable tables, and the one-line JSON summary `bench {...}`. */
import type { CoursesFigures, TargetFigures } from './courses.ts';
import type { GrantsFigures } from './grants.ts';
import type { NoopComparison, NoopFigures } from './temporal-noop.ts';
import { median, round } from './stats.ts';

/** Issue 17's targets: the course list at >= 0.8x raw SQL's req/s with a p99 within 2x; our worker at >= 0.8x the no-op ceiling. */
export const TARGETS = { coursesRatioRps: 0.8, coursesRatioP99: 2, noopRatio: 0.8 };

export interface BenchResults {
  /** Each part is absent when the run left it out (`npm run bench -- courses`, `-- noop`). */
  courses?: CoursesFigures;
  grants?: GrantsFigures;
  noop?: NoopComparison;
  /** Context for the figures: the machine is shared, and its load moves them. */
  machine: { cores: number; loadavg_1m_start: number; loadavg_1m_end: number };
  durationS: number;
}

const roundAll = (parts: Record<string, number>) => Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, round(v, 1)]));

function coursesSummary(courses: CoursesFigures) {
  const target = (t: TargetFigures) => ({
    rps: round(t.rps, 0),
    p50_ms: round(t.p50_ms, 2),
    p99_ms: round(t.p99_ms, 2),
    errors: t.errors,
    rounds_rps: t.rounds_rps.map((rps) => round(rps, 0)),
    rounds_p99_ms: t.rounds_p99_ms.map((ms) => round(ms, 1)),
  });
  // Paired: each round runs the targets back to back, so a round's ratio sees one machine state;
  // on a busy machine the median of those is steadier than the ratio of the medians.
  const paired = (api: number[], raw: number[]) => median(api.map((value, i) => value / (raw[i] ?? Number.NaN)));
  const ratioRps = paired(courses.api.rounds_rps, courses.raw_sql.rounds_rps);
  const ratioP99 = paired(courses.api.rounds_p99_ms, courses.raw_sql.rounds_p99_ms);
  return {
    concurrency: courses.concurrency,
    rounds: courses.rounds,
    round_s: courses.round_s,
    api: target(courses.api),
    raw_sql: target(courses.raw_sql),
    bare_fastify: target(courses.bare_fastify),
    /** Ratios of the medians. */
    ratio_rps: round(courses.api.rps / courses.raw_sql.rps, 3),
    ratio_p50: round(courses.api.p50_ms / courses.raw_sql.p50_ms, 3),
    ratio_p99: round(courses.api.p99_ms / courses.raw_sql.p99_ms, 3),
    ratio_rps_vs_bare: round(courses.api.rps / courses.bare_fastify.rps, 3),
    /** Medians of the per-round ratios (what target_met reads), and the rounds' throughput ratios. */
    paired_ratio_rps: round(ratioRps, 3),
    paired_ratio_p99: round(ratioP99, 3),
    ratio_rps_rounds: courses.api.rounds_rps.map((rps, i) => round(rps / (courses.raw_sql.rounds_rps[i] ?? Number.NaN), 3)),
    target_met: ratioRps >= TARGETS.coursesRatioRps && ratioP99 <= TARGETS.coursesRatioP99,
  };
}

function noopSummary(noop: NoopFigures) {
  return {
    n: noop.n,
    concurrency: noop.concurrency,
    completed: noop.completed,
    per_second: round(noop.per_second, 1),
    rounds_per_second: noop.rounds_per_second.map((r) => round(r, 1)),
    p50_ms: round(noop.p50_ms, 1),
    p99_ms: round(noop.p99_ms, 1),
    start_p50_ms: round(noop.start_p50_ms, 1),
    start_p99_ms: round(noop.start_p99_ms, 1),
    breakdown_ms: roundAll(noop.breakdown_ms),
  };
}

/** All figures, rounded, in the shape of the `bench` line. */
export function summary({ courses, grants, noop, machine, durationS }: BenchResults) {
  const ratio = noop ? noop.ours.per_second / noop.ceiling.per_second : Number.NaN;
  return {
    ...(courses && { courses: coursesSummary(courses) }),
    ...(grants && {
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
    }),
    ...(noop && {
      /** Our worker's settings (worker/create-worker.ts), in a process of its own. */
      temporal_noop: noopSummary(noop.ours),
      /** A bare SDK worker with generous settings, in a process of its own: what the server does here. */
      temporal_noop_ceiling: { settings: noop.ceiling.settings, ...noopSummary(noop.ceiling), candidates_per_second: Object.fromEntries(Object.entries(noop.candidates).map(([k, v]) => [k, round(v, 1)])) },
      noop_vs_ceiling_ratio: round(ratio, 3),
      noop_target_met: ratio >= TARGETS.noopRatio,
    }),
    ...(grants && noop && { grants_vs_noop_ratio: round(grants.per_second / noop.ours.per_second, 3) }),
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
  const lines: string[] = [];
  const breakdown = (parts: Record<string, number | null>) => table(['step (median ms)', ''], Object.entries(parts).map(([step, ms]) => [`  ${step}`, ms]));
  const c = s.courses;
  if (c) {
    const target = (label: string, t: typeof c.api): Cell[] => [label, t.rps, t.p50_ms, t.p99_ms, t.errors, t.rounds_rps.join(' ')];
    lines.push(
      '',
      `GET /api/courses: ${c.concurrency} concurrent, over loopback; ${c.rounds} rounds of ${c.round_s} s per target after a warm-up; medians of the rounds`,
      table(
        ['target', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'req/s per round'],
        [target('API GET /api/courses', c.api), target('raw SQL (same 2 statements, pg)', c.raw_sql), target('bare Fastify GET /ping', c.bare_fastify)],
      ),
      `API / raw SQL: ${c.ratio_rps} x the throughput (per round: ${c.ratio_rps_rounds.join(' ')}), ${c.ratio_p50} x the p50, ${c.ratio_p99} x the p99 latency; API / bare Fastify: ${c.ratio_rps_vs_bare} x the throughput`,
      `paired (median of the rounds' own ratios): ${c.paired_ratio_rps} x the throughput, ${c.paired_ratio_p99} x the p99; target (>= ${TARGETS.coursesRatioRps} x, p99 <= ${TARGETS.coursesRatioP99} x): ${c.target_met ? 'met' : 'NOT met'}`,
    );
  }
  const noopRow = (label: string, n: NonNullable<typeof s.temporal_noop>): Cell[] => [label, n.per_second, n.p50_ms, n.p99_ms, `${n.completed}/${n.n}`, n.start_p50_ms, n.start_p99_ms];
  const header = ['', 'per s', 'p50 ms', 'p99 ms', 'done', 'call p50 ms', 'call p99 ms'];
  if (s.temporal_noop && s.temporal_noop_ceiling) {
    lines.push(
      '',
      `No-op workflows: ${s.temporal_noop.n} per round at ${s.temporal_noop.concurrency} concurrent starts, each worker in its own process; medians of the rounds`,
      table(header, [
        [`ceiling: bare SDK worker (${s.temporal_noop_ceiling.settings})`, ...noopRow('', s.temporal_noop_ceiling).slice(1)],
        ['our worker (worker/create-worker.ts settings)', ...noopRow('', s.temporal_noop).slice(1)],
      ]),
      `ceiling candidates (median per s): ${Object.entries(s.temporal_noop_ceiling.candidates_per_second).map(([k, v]) => `${k} ${v}`).join(', ')}`,
      `our worker / ceiling: ${s.noop_vs_ceiling_ratio} x the rate (rounds: ceiling ${s.temporal_noop_ceiling.rounds_per_second.join(' ')}, ours ${s.temporal_noop.rounds_per_second.join(' ')}); target >= ${TARGETS.noopRatio}: ${s.noop_target_met ? 'met' : 'NOT met'}`,
      '',
      'Where a no-op workflow of our worker spends its time',
      breakdown(s.temporal_noop.breakdown_ms),
    );
  }
  if (s.grants) {
    lines.push(
      '',
      `Grants end to end: ${s.grants.n} grants (one new e-mail each), ${s.grants.concurrency} concurrent POSTs`,
      table(header, [
        ['grants (POST sent -> enrolment visible)', s.grants.per_second, s.grants.p50_ms, s.grants.p99_ms, `${s.grants.visible}/${s.grants.n}`, s.grants.post_p50_ms, s.grants.post_p99_ms],
      ]),
      `grants / our no-op workflows: ${s.grants_vs_noop_ratio ?? '-'} x the throughput; all ${s.grants.n} enrolments visible ${s.grants.all_visible_ms} ms after the first POST`,
      '',
      'Where a grant spends its time (medians over a sample of workflow histories)',
      breakdown(s.grants.breakdown_ms),
    );
  }
  lines.push('', `bench run took ${s.duration_s} s on ${s.machine.cores} cores; 1-minute load average ${s.machine.loadavg_1m_start} at the start, ${s.machine.loadavg_1m_end} at the end`);
  return lines.join('\n');
}

export function benchLine(results: BenchResults): string {
  return `bench ${JSON.stringify(summary(results))}`;
}

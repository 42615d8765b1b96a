/** The bench's report: readable tables, and the one-line JSON summary `bench {...}`. */
import type { CoursesFigures, TargetFigures } from './courses.ts';
import type { BurstFigures } from './grants.ts';
import type { LadderFigures, SteadyFigures } from './grants-steady.ts';
import type { NoopComparison, NoopFigures } from './temporal-noop.ts';
import type { CpuFigures } from './cpu-usage.ts';
import { median, round, type BatchFigures } from './stats.ts';

/**
 * Issue 17's targets: the course list at >= 0.8x raw SQL's req/s with a p99 within 2x; our worker
 * at >= 0.8x the no-op ceiling; grants (item 4) at >= 22/s in the burst and >= 0.5x our no-op
 * rate, and a p99 <= 1 s under a steady 10/s for 60 s.
 */
export const TARGETS = { coursesRatioRps: 0.8, coursesRatioP99: 2, noopRatio: 0.8, grantsPerSecond: 22, grantsVsNoop: 0.5, steadyP99Ms: 1_000 };

/** Issue 26 item 6: grants raised to >= 0.65x the no-op rate in the bursts, and a steady rate of >= 30/s with p99 under 1 s. */
export const RAISED_GRANT_TARGETS = { vsNoop: 0.65, steadyRate: 30 };

/** The grant parts (`npm run bench -- grants`). */
export interface GrantsResults {
  /** 200 at 32 concurrent with the stack's one worker process, medians of the rounds. */
  burst: BurstFigures;
  /** The same with a second worker process on the task queue. */
  burst2Workers: BurstFigures;
  /** 10/s for 60 s, open loop. */
  steady: SteadyFigures;
  ladder: LadderFigures;
}

export interface BenchResults {
  /** Each part is absent when the run left it out (`npm run bench -- courses`, `-- noop`). */
  courses?: CoursesFigures;
  grants?: GrantsResults;
  noop?: NoopComparison;
  /** Context for the figures: the machine is shared, and its load moves them. */
  machine: { cores: number; loadavg_1m_start: number; loadavg_1m_end: number };
  durationS: number;
}

const roundAll = (parts: Record<string, number>, digits = 1) => Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, round(v, digits)]));

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

/** CPU ms per operation by process and the cores busy meanwhile (cpu-usage.ts), rounded. */
function cpuSummary(cpu: CpuFigures) {
  return { cpu_ms_per_op: roundAll(cpu.ms_per_op, 2), cpu_cores_busy: roundAll(cpu.cores_busy, 2) };
}

/** What a no-op batch and a grant burst share: size, rate and latencies (medians of the rounds), where the time and the CPU go. */
function batchSummary(batch: BatchFigures & { rounds_per_second: number[]; cpu: CpuFigures }) {
  return {
    n: batch.n,
    concurrency: batch.concurrency,
    per_second: round(batch.per_second, 1),
    rounds_per_second: batch.rounds_per_second.map((r) => round(r, 1)),
    p50_ms: round(batch.p50_ms, 1),
    p99_ms: round(batch.p99_ms, 1),
    breakdown_ms: roundAll(batch.breakdown_ms),
    ...cpuSummary(batch.cpu),
  };
}

function noopSummary(noop: NoopFigures) {
  return { ...batchSummary(noop), completed: noop.completed, start_p50_ms: round(noop.start_p50_ms, 1), start_p99_ms: round(noop.start_p99_ms, 1) };
}

function burstSummary(burst: BurstFigures) {
  return {
    ...batchSummary(burst),
    rounds: burst.rounds,
    visible: burst.visible,
    rounds_p50_ms: burst.rounds_p50_ms.map((ms) => round(ms, 0)),
    rounds_p99_ms: burst.rounds_p99_ms.map((ms) => round(ms, 0)),
    all_visible_ms: round(burst.all_visible_ms, 0),
    post_p50_ms: round(burst.post_p50_ms, 1),
    post_p99_ms: round(burst.post_p99_ms, 1),
    post_errors: burst.post_errors,
  };
}

function steadySummary(steady: SteadyFigures) {
  return {
    rate: steady.rate,
    duration_s: steady.duration_s,
    sent: steady.sent,
    accepted: steady.accepted,
    visible: steady.visible,
    p50_ms: round(steady.p50_ms, 0),
    p99_ms: round(steady.p99_ms, 0),
    post_p99_ms: round(steady.post_p99_ms, 1),
    start_lag_p99_ms: round(steady.start_lag_p99_ms, 1),
    target_met: steady.met,
  };
}

function grantsSummary(grants: GrantsResults, noop: NoopComparison | undefined) {
  const vsNoop = noop ? grants.burst.per_second / noop.ours.per_second : Number.NaN;
  const burstMet = grants.burst.per_second >= TARGETS.grantsPerSecond;
  const vsNoopMet = vsNoop >= TARGETS.grantsVsNoop;
  const raisedVsNoopMet = vsNoop >= RAISED_GRANT_TARGETS.vsNoop;
  const raisedSteadyMet = (grants.ladder.highest_rate ?? 0) >= RAISED_GRANT_TARGETS.steadyRate;
  return {
    grants: burstSummary(grants.burst),
    grants_vs_noop_ratio: round(vsNoop, 3),
    /** The no-op's CPU per workflow over a grant's (all processes of ours): the rate ratio the CPU alone allows. */
    grants_vs_noop_cpu_ratio: noop ? round(noop.ours.cpu.ms_per_op.total! / grants.burst.cpu.ms_per_op.total!, 3) : null,
    /** CPU per operation (all processes of ours) as a multiple of a no-op's: a grant's, and the floor of its shape (one empty local step). */
    cpu_vs_noop: noop?.localStep
      ? { grant: round(grants.burst.cpu.ms_per_op.total! / noop.ours.cpu.ms_per_op.total!, 3), local_step: round(noop.localStep.cpu.ms_per_op.total! / noop.ours.cpu.ms_per_op.total!, 3) }
      : null,
    burst_2_workers: { ...burstSummary(grants.burst2Workers), vs_1_worker: round(grants.burst2Workers.per_second / grants.burst.per_second, 3) },
    steady: steadySummary(grants.steady),
    highest_steady_rate_under_1s: grants.ladder.highest_rate,
    steady_ladder: grants.ladder.steps.map((step) => {
      const { target_met: met, ...figures } = steadySummary(step);
      return { ...figures, met };
    }),
    grant_targets: {
      burst_per_second: { min: TARGETS.grantsPerSecond, met: burstMet },
      vs_noop: { min: TARGETS.grantsVsNoop, met: vsNoopMet },
      steady_p99_ms: { max: TARGETS.steadyP99Ms, met: grants.steady.met },
      all_met: burstMet && vsNoopMet && grants.steady.met,
      raised_vs_noop: { min: RAISED_GRANT_TARGETS.vsNoop, met: raisedVsNoopMet },
      raised_steady_rate: { min: RAISED_GRANT_TARGETS.steadyRate, met: raisedSteadyMet },
    },
  };
}

/** All figures, rounded, in the shape of the `bench` line. */
export function summary({ courses, grants, noop, machine, durationS }: BenchResults) {
  const ratio = noop ? noop.ours.per_second / noop.ceiling.per_second : Number.NaN;
  return {
    ...(courses && { courses: coursesSummary(courses) }),
    ...(noop && {
      /** Our worker's settings (worker/create-worker.ts), in a process of its own. */
      temporal_noop: noopSummary(noop.ours),
      /** Our worker's settings running one empty local activity per workflow (a grant's shape without its work). */
      ...(noop.localStep && { temporal_noop_local_step: noopSummary(noop.localStep) }),
      /** A bare SDK worker with generous settings, in a process of its own: what the server does here. */
      temporal_noop_ceiling: { settings: noop.ceiling.settings, ...noopSummary(noop.ceiling), candidates_per_second: Object.fromEntries(Object.entries(noop.candidates).map(([k, v]) => [k, round(v, 1)])) },
      noop_vs_ceiling_ratio: round(ratio, 3),
      noop_target_met: ratio >= TARGETS.noopRatio,
    }),
    ...(grants && grantsSummary(grants, noop)),
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
        ...(s.temporal_noop_local_step ? [['our worker, one empty local step', ...noopRow('', s.temporal_noop_local_step).slice(1)]] : []),
      ]),
      `ceiling candidates (median per s): ${Object.entries(s.temporal_noop_ceiling.candidates_per_second).map(([k, v]) => `${k} ${v}`).join(', ')}`,
      `our worker / ceiling: ${s.noop_vs_ceiling_ratio} x the rate (rounds: ceiling ${s.temporal_noop_ceiling.rounds_per_second.join(' ')}, ours ${s.temporal_noop.rounds_per_second.join(' ')}); target >= ${TARGETS.noopRatio}: ${s.noop_target_met ? 'met' : 'NOT met'}`,
      '',
      'Where a no-op workflow of our worker spends its time',
      breakdown(s.temporal_noop.breakdown_ms),
    );
  }
  if (s.grants && s.burst_2_workers && s.steady && s.steady_ladder && s.grant_targets) {
    const burstRow = (label: string, b: typeof s.grants): Cell[] => [label, b.per_second, b.p50_ms, b.p99_ms, `${b.visible}/${b.n}`, b.post_p50_ms, b.post_p99_ms, b.rounds_per_second.join(' ')];
    const steadyRow = (label: string, t: Omit<typeof s.steady, 'target_met'>): Cell[] => [`${label} ${t.rate}/s for ${t.duration_s} s`, t.p50_ms, t.p99_ms, `${t.visible}/${t.sent}`, t.post_p99_ms, t.start_lag_p99_ms];
    const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
    const t = s.grant_targets;
    lines.push(
      '',
      `Grants end to end, bursts: ${s.grants.n} grants per round (one new e-mail each, a fresh course per round) at ${s.grants.concurrency} concurrent POSTs, POST sent -> enrolment visible; medians of ${s.grants.rounds} rounds`,
      table(
        ['', 'per s', 'p50 ms', 'p99 ms', 'seen', 'POST p50 ms', 'POST p99 ms', 'per s per round'],
        [burstRow('1 worker process', s.grants), burstRow('2 worker processes', s.burst_2_workers)],
      ),
      `grants / our no-op workflows: ${s.grants_vs_noop_ratio ?? '-'} x the throughput; 2 workers / 1: ${s.burst_2_workers.vs_1_worker} x`,
      '',
      `Grants under a steady open-loop load (POST due -> enrolment visible; a grant never seen counts until the wait ended)`,
      table(['', 'p50 ms', 'p99 ms', 'seen', 'POST p99 ms', 'send lag p99 ms'], [steadyRow('steady', s.steady), ...s.steady_ladder.map((step) => steadyRow('ladder', step))]),
      `highest steady rate with p99 <= ${TARGETS.steadyP99Ms} ms (ladder, stopping at the first that failed): ${s.highest_steady_rate_under_1s ?? 'none'}${s.highest_steady_rate_under_1s === null ? '' : '/s'}`,
      '',
      `Issue 17 item 4: burst >= ${TARGETS.grantsPerSecond}/s ${met(t.burst_per_second.met)}; >= ${TARGETS.grantsVsNoop} x the no-op rate ${met(t.vs_noop.met)}; steady ${s.steady.rate}/s p99 <= ${TARGETS.steadyP99Ms} ms ${met(t.steady_p99_ms.met)}`,
      `Issue 26 item 6: >= ${RAISED_GRANT_TARGETS.vsNoop} x the no-op rate ${met(t.raised_vs_noop.met)}; highest steady rate with p99 under 1 s >= ${RAISED_GRANT_TARGETS.steadyRate}/s ${met(t.raised_steady_rate.met)}`,
      '',
      'Where a grant of the last 1-worker round spends its time (medians over a sample of workflow histories)',
      breakdown(s.grants.breakdown_ms),
    );
  }
  const cpuRows: [string, { cpu_ms_per_op: Record<string, number | null>; cpu_cores_busy: Record<string, number | null> } | undefined][] = [
    ['no-op workflow (our worker)', s.temporal_noop],
    ['no-op with one empty local step', s.temporal_noop_local_step],
    ['grant, 1 worker process', s.grants],
    ['grant, 2 worker processes', s.burst_2_workers],
  ];
  const shown = cpuRows.filter((row): row is [string, NonNullable<(typeof row)[1]>] => row[1] !== undefined);
  if (shown.length > 0) {
    const groups = [...new Set(shown.flatMap(([, f]) => Object.keys(f.cpu_ms_per_op)))];
    lines.push(
      '',
      'CPU ms per operation by process (utime + stime from /proc; a batch from its first start or POST until every workflow of it closed; medians of the rounds).',
      '`worker`: the process that ran the workflows; `bench`: the load generator, pollers and client; `other`: the rest of the machine meanwhile',
      table(
        ['', ...groups, 'cores busy ours/machine'],
        shown.map(([label, f]) => [label, ...groups.map((g) => f.cpu_ms_per_op[g] ?? null), `${f.cpu_cores_busy.ours ?? '-'}/${f.cpu_cores_busy.machine ?? '-'}`]),
      ),
      ...(s.grants_vs_noop_cpu_ratio == null ? [] : [`no-op CPU per workflow / grant CPU per grant (all our processes): ${s.grants_vs_noop_cpu_ratio} x`]),
      ...(s.cpu_vs_noop ? [`CPU per operation as a multiple of a no-op's (all our processes): a grant ${s.cpu_vs_noop.grant} x; one empty local step, the floor of a grant's shape, ${s.cpu_vs_noop.local_step} x`] : []),
    );
  }
  lines.push('', `bench run took ${s.duration_s} s on ${s.machine.cores} cores; 1-minute load average ${s.machine.loadavg_1m_start} at the start, ${s.machine.loadavg_1m_end} at the end`);
  return lines.join('\n');
}

export function benchLine(results: BenchResults): string {
  return `bench ${JSON.stringify(summary(results))}`;
}

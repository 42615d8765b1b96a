/**
 * `npm run bench -- --temporal=dev|cluster|both [noop] [grants] [shop-clearing] [shop-checkout]`
 * (issue 43 item 4): the same figures on the Temporal dev server and on the cluster topology (the
 * server built from go.temporal.io/server on PostgreSQL, stack.ts), each on a stack of its own
 * started one after the other in the same run. Every figure is set beside the no-op workflow rate
 * of its own topology (measured first on each), with its CPU ms per operation by process.
 * No part named: all four.
 */
import { createFixtures } from './fixtures.ts';
import { measureGrantBursts } from './grants.ts';
import type { HttpLoad } from './http-load.ts';
import { startReceiver } from './receiver.ts';
import { measureCheckout } from './shop-checkout.ts';
import { measureClearing } from './shop-clearing.ts';
import { startBenchStack, StopList, type TemporalTopology } from './stack.ts';
import { rounded } from './stats.ts';
import { measureTemporalNoop } from './temporal-noop.ts';

export const TOPOLOGY_PARTS = ['noop', 'grants', 'shop-clearing', 'shop-checkout'] as const;
export type TopologyPart = (typeof TOPOLOGY_PARTS)[number];

/** `--temporal=dev|cluster|both` among the arguments: the topologies to run, in order; undefined without the flag. */
export function topologiesOf(args: readonly string[]): TemporalTopology[] | undefined {
  const flag = args.find((arg) => arg.startsWith('--temporal='));
  if (flag === undefined) return undefined;
  const value = flag.slice('--temporal='.length);
  if (value === 'both') return ['dev', 'cluster'];
  if (value === 'dev' || value === 'cluster') return [value];
  throw new Error(`--temporal must be dev, cluster or both, got ${JSON.stringify(value)}`);
}

/** The figures named among the arguments; all of them when none is. */
export function topologyPartsOf(args: readonly string[]): TopologyPart[] {
  const named = TOPOLOGY_PARTS.filter((part) => args.includes(part));
  return named.length > 0 ? named : [...TOPOLOGY_PARTS];
}

/** One figure on one topology: operations a second, and CPU ms per operation by process. */
export interface TopologyFigure {
  per_second: number;
  cpu_ms_per_op: Record<string, number>;
  /** checkout: its rate over the same order by raw SQL in one transaction. */
  vs_raw_sql?: number;
}

export type TopologyFigures = Partial<Record<TopologyPart, TopologyFigure>>;

export interface TopologyOptions {
  topology: TemporalTopology;
  parts: TopologyPart[];
  quick: boolean;
  concurrency: number;
  http: HttpLoad;
  log: (line: string) => void;
  /** The run's stop list: this topology's stack is stopped on it too when the run is cut short. */
  stops: StopList;
}

/** Starts a stack on the topology, measures the parts (the no-op baseline always, first), stops it. */
export async function measureTopology(o: TopologyOptions): Promise<TopologyFigures> {
  const log = (line: string) => o.log(`[${o.topology}] ${line}`);
  const stops = new StopList(log);
  o.stops.add(`${o.topology} stack`, () => stops.run());
  try {
    const stack = await startBenchStack(log, stops, o.topology);
    const figures: TopologyFigures = {};
    const noop = await measureTemporalNoop({ stack, concurrency: o.concurrency, log, oursOnly: true, ...(o.quick ? { n: 50, warmupN: 8, rounds: 1 } : { n: 200, warmupN: 16, rounds: 3 }) });
    figures.noop = { per_second: noop.ours.per_second, cpu_ms_per_op: noop.ours.cpu.ms_per_op };
    if (o.parts.includes('grants')) {
      const fixtures = await createFixtures(stack.apiUrl, stack.adminToken);
      const burst = await measureGrantBursts({
        http: o.http,
        stack,
        apiKey: fixtures.apiKey,
        platformId: fixtures.platformId,
        log,
        concurrency: o.concurrency,
        label: o.topology,
        ...(o.quick ? { n: 50, warmupN: 8, rounds: 1 } : { n: 200, warmupN: 16, rounds: 3 }),
      });
      figures.grants = { per_second: burst.per_second, cpu_ms_per_op: burst.cpu.ms_per_op };
    }
    if (o.parts.includes('shop-clearing')) {
      const receiver = await startReceiver();
      stops.add('webhook receiver', () => receiver.close());
      // The steady load is kept short: the side by side compares the bursts.
      const sizes = o.quick ? { n: 20, warmupN: 4, rounds: 3 } : { n: 200, warmupN: 16, rounds: 3 };
      const f = await measureClearing({ stack, http: o.http, receiver, concurrency: o.concurrency, log, ...sizes, steady: { rate: 5, durationS: 10 }, overloadS: 10 });
      figures['shop-clearing'] = { per_second: f.per_second, cpu_ms_per_op: f.cpu_ms_per_op };
    }
    if (o.parts.includes('shop-checkout')) {
      const sizes = o.quick ? { n: 40, warmupN: 8, rounds: 3 } : { n: 600, warmupN: 1_000, rounds: 5 };
      const f = await measureCheckout({ stack, http: o.http, concurrency: o.concurrency, log, racers: 12, ...sizes });
      figures['shop-checkout'] = { per_second: f.storefront.per_second, cpu_ms_per_op: f.cpu_ms_per_order?.storefront ?? {}, vs_raw_sql: f.ratio_rate };
    }
    return figures;
  } finally {
    log('stopping the stack');
    await stops.run();
  }
}

const LABELS: Record<TopologyPart, string> = {
  noop: 'no-op workflow (our worker)',
  grants: 'grant burst (POST -> enrolment visible)',
  'shop-clearing': 'clearing burst (PATCH -> last effect)',
  'shop-checkout': 'checkout (cart -> order)',
};
const CPU_GROUPS = ['api', 'worker', 'temporal', 'postgres', 'temporal_db', 'bench', 'total'];

/** One table of the figures by topology, each with its ratio to its own topology's no-op rate; then CPU ms per operation. */
export function formatTopologies(results: Partial<Record<TemporalTopology, TopologyFigures>>, parts: readonly TopologyPart[]): string {
  const topologies = Object.keys(results) as TemporalTopology[];
  const shown = TOPOLOGY_PARTS.filter((part) => part === 'noop' || parts.includes(part));
  const cell = (topology: TemporalTopology, part: TopologyPart) => {
    const f = results[topology]?.[part];
    const noop = results[topology]?.noop?.per_second ?? Number.NaN;
    if (!f) return '-';
    const ratio = part === 'noop' ? '' : ` (${(f.per_second / noop).toFixed(2)} x no-op${f.vs_raw_sql === undefined ? '' : `, ${f.vs_raw_sql.toFixed(2)} x raw SQL`})`;
    return `${f.per_second.toFixed(1)}/s${ratio}`;
  };
  const lines = ['', `Temporal topologies side by side (${topologies.join(', ')}; each figure against its own topology's no-op rate):`];
  for (const part of shown) lines.push(`  ${LABELS[part]}: ${topologies.map((t) => `${t} ${cell(t, part)}`).join('; ')}`);
  lines.push('  CPU ms per operation by process:');
  for (const part of shown) {
    for (const topology of topologies) {
      const cpu = results[topology]?.[part]?.cpu_ms_per_op;
      if (!cpu) continue;
      lines.push(`    ${part} on ${topology}: ${CPU_GROUPS.filter((g) => cpu[g] !== undefined).map((g) => `${g} ${cpu[g]!.toFixed(2)}`).join(', ')}`);
    }
  }
  return lines.join('\n');
}

/** The figures for the `bench {json}` line. */
export function topologiesSummary(results: Partial<Record<TemporalTopology, TopologyFigures>>): unknown {
  return rounded(
    Object.fromEntries(
      Object.entries(results).map(([topology, figures]) => {
        const noop = figures.noop?.per_second ?? Number.NaN;
        return [topology, Object.fromEntries(Object.entries(figures).map(([part, f]) => [part, { ...f, vs_noop_ratio: f.per_second / noop }]))];
      }),
    ),
  );
}

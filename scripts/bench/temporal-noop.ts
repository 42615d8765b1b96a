/**
 * The Temporal baseline (issue 17, item 3): N no-op workflows (noop-workflow.ts) started at the
 * grants' concurrency on the same server, run by a worker in its own process, as production runs
 * it (noop-worker-process.ts), on its own task queue:
 * - ours: worker/create-worker.ts's settings (the figure the grants are compared with);
 * - ceiling: bare SDK workers with the settings of CEILING_CANDIDATES (the SDK's defaults and a
 *   few more generous ones); the best median is what the server does here.
 * - local step: our worker's settings again, running `benchNoopLocalStep` (one empty local
 *   activity): the floor of a workflow of a grant's shape, beside which a grant's own work shows.
 * Rounds run every worker once (order rotating), so all see the same machine; figures are the
 * medians of the rounds. Per workflow: start call sent -> result received.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { REPO_ROOT } from '../stack/postgres.ts';
import { withParentDeathSignal } from '../stack/lifecycle.ts';
import { cpuFigures, cpuStretch, medianCpuFigures, treesOf, type CpuFigures } from './cpu-usage.ts';
import type { BatchOptions } from './stack.ts';
import { HISTORY_SAMPLE, medianParts, spread, timelineOf } from './history.ts';
import { closedLoop, epochMs } from './load.ts';
import type { benchNoop } from './noop-workflow.ts';
import type { benchNoopLocalStep } from './noop-local-step-workflow.ts';
import { median, percentile, type BatchFigures } from './stats.ts';

const START_PHASE_MAX_MS = 20_000;
const COMPLETION_TIMEOUT_MS = 30_000;
const READY_TIMEOUT_MS = 120_000;

/** per_second and the percentiles: start call sent -> result received (medians of the rounds). */
export interface NoopFigures extends BatchFigures {
  completed: number;
  /** The start call alone (durable start on the server). */
  start_p50_ms: number;
  start_p99_ms: number;
  rounds_per_second: number[];
  /** CPU per workflow by process (`worker`: this worker's process), from the first start to the last result (medians of the rounds). */
  cpu: CpuFigures;
}

export interface NoopComparison {
  ours: NoopFigures;
  /** Our worker running one empty local activity per workflow (not with `oursOnly`). */
  localStep?: NoopFigures;
  /** The best candidate's figures, and its name. */
  ceiling: NoopFigures & { settings: string };
  /** Each candidate's median rate. */
  candidates: Record<string, number>;
  rounds: number;
}

/** Bare SDK worker settings tried for the ceiling (on 2 busy cores more slots are not always faster). */
export const CEILING_CANDIDATES: Record<string, object> = {
  sdk_defaults: {},
  wide: { maxConcurrentWorkflowTaskExecutions: 200, maxCachedWorkflows: 2_000, workflowTaskPollerBehavior: { type: 'autoscaling', minimum: 2, maximum: 50, initial: 10 } },
  narrow: { maxConcurrentWorkflowTaskExecutions: 20, maxCachedWorkflows: 2_000, workflowTaskPollerBehavior: { type: 'simple-maximum', maximum: 4 } },
};

type Mode = string; // 'ours', LOCAL_STEP or a key of CEILING_CANDIDATES
const LOCAL_STEP: Mode = 'ours_local_step';
const workflowOf = (mode: Mode) => (mode === LOCAL_STEP ? ('benchNoopLocalStep' as const) : ('benchNoop' as const));

/** Starts noop-worker-process.ts and waits for its `ready`; stop() ends it (SIGTERM, then SIGKILL). */
async function startNoopWorker(mode: Mode, taskQueue: string, temporalAddress: string, namespace: string) {
  const args = mode === 'ours' ? ['ours', taskQueue] : mode === LOCAL_STEP ? ['ours-local-step', taskQueue] : ['bare', taskQueue, JSON.stringify(CEILING_CANDIDATES[mode])];
  const env: NodeJS.ProcessEnv = { ...process.env, TEMPORAL_ADDRESS: temporalAddress, TEMPORAL_NAMESPACE: namespace };
  delete env.NODE_OPTIONS;
  const command = withParentDeathSignal(process.execPath, ['--import', 'tsx', 'scripts/bench/noop-worker-process.ts', ...args], 'SIGKILL');
  const child = spawn(command.command, command.args, { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no-op worker (${mode}) not ready in time`)), READY_TIMEOUT_MS);
    child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && (clearTimeout(timer), resolve()));
    child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`no-op worker (${mode}) exited (${code})`))));
  });
  return {
    pid: child.pid,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

interface Batch {
  latencies: number[];
  startLatencies: number[];
  perSecond: number;
  completedIds: string[];
  cpu: CpuFigures;
}

/** `oursOnly`: our worker alone (the shop parts' baseline; one process to start on a busy machine), its figures standing in for the ceiling. */
export async function measureTemporalNoop(o: BatchOptions & { rounds: number; oursOnly?: boolean }): Promise<NoopComparison> {
  const { stack } = o;
  const modes: Mode[] = o.oursOnly ? ['ours'] : ['ours', LOCAL_STEP, ...Object.keys(CEILING_CANDIDATES)];
  const queues: Record<Mode, string> = Object.fromEntries(modes.map((mode) => [mode, `${stack.taskQueue}-noop-${mode}`]));
  const workers = await Promise.all(modes.map((mode) => startNoopWorker(mode, queues[mode]!, stack.temporalAddress, stack.namespace)));
  try {
    const cpuGroups = Object.fromEntries(modes.map((mode, i) => [mode, stack.cpuGroups(treesOf([workers[i]!.pid]))]));
    const runBatch = async (mode: Mode, label: string, count: number): Promise<Batch> => {
      const taskQueue = queues[mode]!;
      const cpu = cpuStretch(cpuGroups[mode]!);
      const prefix = `${taskQueue}-${label}-${randomUUID().slice(0, 4)}`;
      const startsAt: number[] = [];
      const doneAt: number[] = [];
      const results: Promise<unknown>[] = [];
      const starts = await closedLoop({
        concurrency: o.concurrency,
        durationMs: START_PHASE_MAX_MS,
        maxOps: count,
        op: async (i) => {
          startsAt[i] = epochMs();
          const handle = await stack.temporal.workflow.start<typeof benchNoop | typeof benchNoopLocalStep>(workflowOf(mode), { taskQueue, workflowId: `${prefix}-${i}` });
          results.push(handle.result().then(() => (doneAt[i] = epochMs())));
        },
      });
      await withTimeout(Promise.allSettled(results), COMPLETION_TIMEOUT_MS);
      const span = cpu.stop();
      const latencies: number[] = [];
      const completedIds: string[] = [];
      doneAt.forEach((done, i) => {
        const start = startsAt[i];
        if (done === undefined || start === undefined) return;
        latencies.push(done - start);
        completedIds.push(`${prefix}-${i}`);
      });
      const spanMs = Math.max(...doneAt.filter((t) => t !== undefined)) - Math.min(...startsAt.filter((t) => t !== undefined));
      return { latencies, startLatencies: starts.latenciesMs, perSecond: latencies.length / (spanMs / 1000), completedIds, cpu: cpuFigures(span, completedIds.length) };
    };

    for (const mode of modes) await runBatch(mode, 'warmup', o.warmupN);
    const batches: Record<Mode, Batch[]> = Object.fromEntries(modes.map((mode) => [mode, []]));
    for (let round = 0; round < o.rounds; round++) {
      const order = modes.map((_, i) => modes[(i + round) % modes.length]!);
      for (const mode of order) batches[mode]!.push(await runBatch(mode, `run${round}`, o.n));
      o.log(`no-op round ${round + 1}/${o.rounds}: ${modes.map((mode) => `${mode} ${batches[mode]!.at(-1)!.perSecond.toFixed(1)}/s`).join(', ')}`);
    }
    const rates = Object.fromEntries(modes.map((mode) => [mode, median(batches[mode]!.map((b) => b.perSecond))]));
    const best = o.oursOnly ? 'ours' : Object.keys(CEILING_CANDIDATES).reduce((a, b) => (rates[b]! > rates[a]! ? b : a));
    const figures = async (mode: Mode): Promise<NoopFigures> => {
      const all = batches[mode]!;
      const last = all.at(-1)!;
      const timelines = await Promise.all(spread(last.completedIds, HISTORY_SAMPLE).map((id) => timelineOf(stack.temporal, id)));
      return {
        n: o.n,
        concurrency: o.concurrency,
        completed: median(all.map((b) => b.latencies.length)),
        per_second: median(all.map((b) => b.perSecond)),
        p50_ms: median(all.map((b) => percentile(b.latencies, 50))),
        p99_ms: median(all.map((b) => percentile(b.latencies, 99))),
        start_p50_ms: median(all.map((b) => percentile(b.startLatencies, 50))),
        start_p99_ms: median(all.map((b) => percentile(b.startLatencies, 99))),
        breakdown_ms: medianParts(timelines),
        rounds_per_second: all.map((b) => b.perSecond),
        cpu: medianCpuFigures(all.map((b) => b.cpu)),
      };
    };
    const candidates = Object.fromEntries(Object.keys(CEILING_CANDIDATES).filter((mode) => mode in rates).map((mode) => [mode, rates[mode]!]));
    return {
      ours: await figures('ours'),
      ...(modes.includes(LOCAL_STEP) && { localStep: await figures(LOCAL_STEP) }),
      ceiling: { ...(await figures(best)), settings: best },
      candidates,
      rounds: o.rounds,
    };
  } finally {
    await Promise.all(workers.map((w) => w.stop()));
  }
}

/** The promise's value, or undefined once `ms` passed first. */
export async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

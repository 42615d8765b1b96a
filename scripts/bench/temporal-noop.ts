/**
 * The Temporal baseline: N no-op workflows (noop-workflow.ts) started at the grants' concurrency
 * on the same server, run by their own worker on their own task queue (same worker settings as
 * the real one). Per workflow: start call sent -> result received.
 */
import { fileURLToPath } from 'node:url';
import { DefaultLogger, bundleWorkflowCode } from '@temporalio/worker';
import { createWorker } from '../../worker/create-worker.ts';
import type { BatchOptions } from './stack.ts';
import { HISTORY_SAMPLE, medianParts, spread, timelineOf } from './history.ts';
import { closedLoop, epochMs } from './load.ts';
import type { benchNoop } from './noop-workflow.ts';
import { percentile, type BatchFigures } from './stats.ts';

const START_PHASE_MAX_MS = 20_000;
const COMPLETION_TIMEOUT_MS = 30_000;

/** per_second and the percentiles: start call sent -> result received. */
export interface NoopFigures extends BatchFigures {
  completed: number;
  /** The start call alone (durable start on the server). */
  start_p50_ms: number;
  start_p99_ms: number;
}

export async function measureTemporalNoop(o: BatchOptions): Promise<NoopFigures> {
  const { stack } = o;
  const taskQueue = `${stack.taskQueue}-noop`;
  const workflowBundle = await bundleWorkflowCode({
    workflowsPath: fileURLToPath(new URL('./noop-workflow.ts', import.meta.url)),
    logger: new DefaultLogger('WARN', (entry) => console.error(`[bundler] ${entry.message}`)),
  });
  const worker = await createWorker({ connection: stack.workerConnection, namespace: stack.namespace, taskQueue, activities: {}, workflowBundle });
  const running = worker.run();
  try {
    const runBatch = async (label: string, count: number) => {
      const startsAt: number[] = [];
      const doneAt: number[] = [];
      const results: Promise<unknown>[] = [];
      const starts = await closedLoop({
        concurrency: o.concurrency,
        durationMs: START_PHASE_MAX_MS,
        maxOps: count,
        op: async (i) => {
          startsAt[i] = epochMs();
          const handle = await stack.temporal.workflow.start<typeof benchNoop>('benchNoop', { taskQueue, workflowId: `${taskQueue}-${label}-${i}` });
          results.push(handle.result().then(() => (doneAt[i] = epochMs())));
        },
      });
      await withTimeout(Promise.allSettled(results), COMPLETION_TIMEOUT_MS);
      return { starts, startsAt, doneAt, ids: startsAt.map((_, i) => `${taskQueue}-${label}-${i}`) };
    };

    await runBatch('warmup', o.warmupN);
    o.log(`no-op warm-up: ${o.warmupN} workflows`);
    const batch = await runBatch('run', o.n);
    const latencies: number[] = [];
    batch.doneAt.forEach((done, i) => {
      const start = batch.startsAt[i];
      if (done !== undefined && start !== undefined) latencies.push(done - start);
    });
    const done = batch.doneAt.filter((t) => t !== undefined);
    const spanMs = Math.max(...done) - Math.min(...batch.startsAt.filter((t) => t !== undefined));
    o.log(`no-op workflows: ${latencies.length}/${o.n} completed in ${Math.round(spanMs)} ms`);

    const timelines = await Promise.all(spread(batch.ids.filter((_, i) => batch.doneAt[i] !== undefined), HISTORY_SAMPLE).map((id) => timelineOf(stack.temporal, id)));
    return {
      n: o.n,
      concurrency: o.concurrency,
      completed: latencies.length,
      per_second: latencies.length / (spanMs / 1000),
      p50_ms: percentile(latencies, 50),
      p99_ms: percentile(latencies, 99),
      start_p50_ms: percentile(batch.starts.latenciesMs, 50),
      start_p99_ms: percentile(batch.starts.latenciesMs, 99),
      breakdown_ms: medianParts(timelines),
    };
  } finally {
    worker.shutdown();
    await running.catch(() => undefined);
  }
}

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

import { Worker, bundleWorkflowCode, type NativeConnection, type WorkflowBundle } from '@temporalio/worker';
import { fileURLToPath } from 'node:url';
import type { Activities } from '../activities/index.ts';
import type { Tracing } from '../adapters/tracing.ts';
import { DEFAULT_POOL_MAX } from '../db/config.ts';
import { TRACING_WORKFLOW_MODULES, workerTracingOptions } from './tracing.ts';

export const workflowsPath = fileURLToPath(new URL('../workflows/index.ts', import.meta.url));

/**
 * Bundles the workflow code once; a process (or a test file) reuses the bundle for every worker.
 * `tracing`: with the OpenTelemetry workflow interceptors (a worker given `tracing` needs this bundle).
 */
export function bundleWorkflows({ tracing = false }: { tracing?: boolean } = {}): Promise<WorkflowBundle> {
  return bundleWorkflowCode({
    workflowsPath,
    // Evaluated once per reused V8 context instead of once per workflow run (issue 26): every
    // workflow module's scope is constants and functions only (the `workflow-module-state` lint rule).
    preloadModules: [workflowsPath],
    logger: quietBundlerLogger,
    ...(tracing && { workflowInterceptorModules: TRACING_WORKFLOW_MODULES }),
  });
}

/**
 * Slots, pollers and cache (issue 17, item 3; `npm run bench -- noop` compares them with bare SDK
 * workers on the same server). Pollers scale with the backlog instead of a fixed ten, so a burst
 * is taken in quickly and an idle worker keeps few long polls open (on the busy shared server up
 * to 50 workflow polls in flight doubled the no-op rate against the SDK's fixed 10); workflow
 * task slots by the pool (`workflowTaskSlots`, below); one reused V8 context (the SDK's default,
 * said here because it is what makes a workflow task cheap) with a cache well above the slots, so sticky execution never evicts a
 * running workflow. Activities get 250 slots: most of an activity's time is a wait (a webhook's
 * or a mail's answer, a turn at the database pool, DATABASE_POOL_MAX), and a slot is only the
 * wait's promise. With 50, 200 deliveries to a receiver answering in 5 s held every slot and the
 * other receivers' attempts queued behind them (issue 26 item 3: a fast receiver's p99 1.65 x
 * its p99 beside another fast one; with 250, 0.91 x).
 * Local activities (a grant's step, its mail's first attempt) get as many slots as the pool has
 * connections: a step holds a connection for its transaction, and a step waiting for one waits
 * inside its workflow task, whose timeout runs (measured: with the SDK's 100 slots a burst of 200
 * grants ran at 14-31/s with tasks timing out, with the pool's 10 at 33-37/s). The regular
 * activities share the pool, so this bounds the queue rather than guaranteeing a connection.
 */
export const WORKER_TUNING = {
  maxConcurrentActivityTaskExecutions: 250,
  maxCachedWorkflows: 2_000,
  reuseV8Context: true,
  workflowTaskPollerBehavior: { type: 'autoscaling', minimum: 2, initial: 10, maximum: 50 },
  activityTaskPollerBehavior: { type: 'autoscaling', minimum: 2, initial: 5, maximum: 20 },
} as const satisfies Partial<Parameters<typeof Worker.create>[0]>;

/**
 * Workflow task slots: twice the local activity slots. A workflow task that runs a local step (a
 * clearing's, a grant's) holds its slot until the step is done, and a step waits for a slot of its
 * own inside that task; with 200 task slots a burst took 200 tasks in and queued them on 10 steps,
 * so on a loaded machine tasks waited past their 10 s timeout and were redone (issue 38 item 5;
 * docs/performance-history.md). The rest wait in Temporal's queue, where waiting costs nothing.
 */
const workflowTaskSlots = (localActivitySlots: number): number => 2 * localActivitySlots;

export interface WorkerOptions {
  connection: NativeConnection;
  /** The size of the activities' database pool (DATABASE_POOL_MAX): the local activity slots. */
  databasePoolMax?: number;
  namespace: string;
  taskQueue: string;
  activities: Partial<Activities>;
  workflowBundle: WorkflowBundle;
  /** Tracing on (adapters/tracing.ts): activity spans and the workflows' span sink; the bundle must be `bundleWorkflows({ tracing: true })`. */
  tracing?: Tracing | null;
}

export function createWorker({ connection, namespace, taskQueue, activities, workflowBundle, databasePoolMax = DEFAULT_POOL_MAX, tracing }: WorkerOptions): Promise<Worker> {
  return Worker.create({
    connection,
    namespace,
    taskQueue,
    activities,
    workflowBundle,
    ...WORKER_TUNING,
    maxConcurrentLocalActivityExecutions: databasePoolMax,
    maxConcurrentWorkflowTaskExecutions: workflowTaskSlots(databasePoolMax),
    ...(tracing && workerTracingOptions(tracing)),
  });
}

const noop = () => undefined;
const quietBundlerLogger = {
  log: noop,
  trace: noop,
  debug: noop,
  info: noop,
  warn: (message: string) => console.warn(message),
  error: (message: string) => console.error(message),
};

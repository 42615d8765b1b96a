import { Worker, bundleWorkflowCode, type NativeConnection, type WorkflowBundle } from '@temporalio/worker';
import { fileURLToPath } from 'node:url';
import type { Activities } from '../activities/index.ts';

export const workflowsPath = fileURLToPath(new URL('../workflows/index.ts', import.meta.url));

/** Bundles the workflow code once; a process (or a test file) reuses the bundle for every worker. */
export function bundleWorkflows(): Promise<WorkflowBundle> {
  return bundleWorkflowCode({ workflowsPath, logger: quietBundlerLogger });
}

export interface WorkerOptions {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  activities: Partial<Activities>;
  workflowBundle: WorkflowBundle;
}

export function createWorker({ connection, namespace, taskQueue, activities, workflowBundle }: WorkerOptions): Promise<Worker> {
  return Worker.create({
    connection,
    namespace,
    taskQueue,
    activities,
    workflowBundle,
    // Two cores: keep enough slots to keep the database busy without starving the API.
    maxConcurrentActivityTaskExecutions: 50,
    maxConcurrentWorkflowTaskExecutions: 50,
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

/**
 * A worker process for a baseline's workflow, as the bench runs it next to the API (issue 17, item
 * 3): `tsx scripts/bench/noop-worker-process.ts <ours|ours-local-step|bare> <taskQueue> [settings]`
 * with TEMPORAL_ADDRESS and TEMPORAL_NAMESPACE.
 * - ours: worker/create-worker.ts's settings, as `npm run worker` runs them, running the no-op
 *   (noop-workflow.ts) with no activities;
 * - ours-local-step: the same settings running noop-local-step-workflow.ts and its empty activity;
 * - bare: the SDK's Worker with the given settings (JSON WorkerOptions), a candidate for the
 *   ceiling of the server here.
 * Prints `ready` once polling; stops on SIGTERM.
 */
import { fileURLToPath } from 'node:url';
import { DefaultLogger, NativeConnection, Runtime, Worker, bundleWorkflowCode } from '@temporalio/worker';
import { createWorker, type WorkerOptions } from '../../worker/create-worker.ts';
import { benchNoopActivities } from './noop-activities.ts';

const [mode, taskQueue, settings = '{}'] = process.argv.slice(2);
if ((mode !== 'ours' && mode !== 'ours-local-step' && mode !== 'bare') || !taskQueue) throw new Error('usage: noop-worker-process.ts <ours|ours-local-step|bare> <taskQueue>');
const address = process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233';
const namespace = process.env.TEMPORAL_NAMESPACE ?? 'default';

// A no-op worker has no activities on purpose: the SDK's warning about it is noise.
const expected = (message: string) => message.startsWith('No activities registered');
Runtime.install({ logger: new DefaultLogger('WARN', (entry) => expected(entry.message) || console.error(`[noop worker ${mode}] ${entry.level} ${entry.message}`)) });
const workflowBundle = await bundleWorkflowCode({
  workflowsPath: fileURLToPath(new URL(mode === 'ours-local-step' ? './noop-local-step-workflow.ts' : './noop-workflow.ts', import.meta.url)),
  logger: new DefaultLogger('WARN', (entry) => console.error(`[bundler] ${entry.message}`)),
});
const connection = await NativeConnection.connect({ address });
const worker =
  mode !== 'bare'
    ? // The worker takes our activities' names; the baseline's one activity is none of them.
      await createWorker({ connection, namespace, taskQueue, activities: mode === 'ours' ? {} : (benchNoopActivities as WorkerOptions['activities']), workflowBundle })
    : await Worker.create({ connection, namespace, taskQueue, workflowBundle, ...(JSON.parse(settings) as object) });
const running = worker.run();
console.log('ready');
try {
  await running;
} finally {
  await connection.close();
}

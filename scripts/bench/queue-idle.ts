/**
 * Waits until the run's task queue has no backlog (workflow and activity tasks, the server's
 * approximate counts), so that a grant round or steady step does not start behind the work the
 * previous one left (mail deliveries, webhooks, the grants a failed step could not keep up with).
 */
import { sleep } from '../stack/lifecycle.ts';
import type { BenchStack } from './stack.ts';

const CHECK_EVERY_MS = 500;
/** Backlog counts converge with a delay: a queue counts as idle once they read 0 this many times in a row. */
const IDLE_READINGS = 2;

/** temporal.api.enums.v1.TaskQueueType: WORKFLOW, ACTIVITY (@temporalio/proto is not a dependency of ours). */
const TASK_QUEUE_TYPES = [1, 2];

async function backlog(stack: BenchStack): Promise<number> {
  const counts = await Promise.all(
    TASK_QUEUE_TYPES.map(async (taskQueueType) => {
      const reply = await stack.temporal.workflowService.describeTaskQueue({ namespace: stack.namespace, taskQueue: { name: stack.taskQueue }, taskQueueType, reportStats: true });
      return Number(reply.stats?.approximateBacklogCount ?? 0);
    }),
  );
  return counts[0]! + counts[1]!;
}

/** Resolves once the backlog read 0 IDLE_READINGS times in a row, or after timeoutMs (logged). */
export async function untilQueueIdle(stack: BenchStack, log: (line: string) => void, timeoutMs = 60_000): Promise<void> {
  const started = Date.now();
  let idleReadings = 0;
  let last = 0;
  while (Date.now() - started < timeoutMs) {
    last = await backlog(stack);
    idleReadings = last === 0 ? idleReadings + 1 : 0;
    if (idleReadings >= IDLE_READINGS) {
      const waited = Date.now() - started;
      if (waited > CHECK_EVERY_MS * IDLE_READINGS * 2) log(`task queue idle after ${(waited / 1000).toFixed(1)} s`);
      return;
    }
    await sleep(CHECK_EVERY_MS);
  }
  log(`task queue still has a backlog of about ${last} tasks after ${timeoutMs / 1000} s: going on`);
}

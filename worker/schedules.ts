/**
 * Temporal schedules the worker makes sure of when it starts: today the daily cleanup of the
 * storefront's unused carts. Creating one that exists is a no-op, so every worker (and every
 * restart) may call this; the schedule itself lives in Temporal and survives the workers.
 */
import { Client, Connection, ScheduleAlreadyRunning, ScheduleOverlapPolicy } from '@temporalio/client';

/** One schedule per task queue: deployments (and test runs) sharing a namespace each clean up through their own workers. */
export const cartCleanupScheduleId = (taskQueue: string) => `shop-cart-cleanup/${taskQueue}`;

/** Makes sure the daily cart cleanup (workflow `cartCleanup`, 03:17 UTC) is scheduled on `taskQueue`. */
export async function ensureCartCleanupSchedule(client: Client, taskQueue: string): Promise<void> {
  try {
    await client.schedule.create({
      scheduleId: cartCleanupScheduleId(taskQueue),
      spec: { calendars: [{ hour: 3, minute: 17 }] },
      action: { type: 'startWorkflow', workflowType: 'cartCleanup', taskQueue, workflowId: cartCleanupScheduleId(taskQueue), args: [] },
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 day' },
    });
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
  }
}

/** Connects a client to `address`, makes sure of every schedule, and disconnects. */
export async function ensureSchedules(address: string, namespace: string, taskQueue: string): Promise<void> {
  const connection = await Connection.connect({ address });
  try {
    await ensureCartCleanupSchedule(new Client({ connection, namespace }), taskQueue);
  } finally {
    await connection.close();
  }
}

/**
 * Temporal schedules the worker makes sure of when it starts: the daily cleanup of the storefront's
 * unused carts and the hourly cleanup of expired Idempotency-Key replies. Creating one that exists
 * is a no-op, so every worker (and every restart) may call this; the schedules live in Temporal and
 * survive the workers.
 */
import { Client, ScheduleAlreadyRunning, ScheduleOverlapPolicy, type CalendarSpec, type ConnectionLike } from '@temporalio/client';

interface Housekeeping {
  /** The schedule's id stem; the id is `<stem>/<task queue>`. */
  stem: string;
  workflowType: string;
  calendar: CalendarSpec;
}

/** One schedule each per task queue: deployments (and test runs) sharing a namespace each clean up through their own workers. */
export const CART_CLEANUP: Housekeeping = { stem: 'shop-cart-cleanup', workflowType: 'cartCleanup', calendar: { hour: 3, minute: 17 } };
export const IDEMPOTENCY_KEY_CLEANUP: Housekeeping = { stem: 'idempotency-key-cleanup', workflowType: 'idempotencyKeyCleanup', calendar: { hour: '*', minute: 41 } };

export const scheduleId = (schedule: Housekeeping, taskQueue: string) => `${schedule.stem}/${taskQueue}`;
export const cartCleanupScheduleId = (taskQueue: string) => scheduleId(CART_CLEANUP, taskQueue);

/** Makes sure `schedule` runs its workflow on `taskQueue` (a no-op when it is scheduled already). */
export async function ensureSchedule(client: Client, schedule: Housekeeping, taskQueue: string): Promise<void> {
  const id = scheduleId(schedule, taskQueue);
  try {
    await client.schedule.create({
      scheduleId: id,
      spec: { calendars: [schedule.calendar] },
      action: { type: 'startWorkflow', workflowType: schedule.workflowType, taskQueue, workflowId: id, args: [] },
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 day' },
    });
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
  }
}

/** Makes sure the daily cart cleanup (workflow `cartCleanup`, 03:17 UTC) is scheduled on `taskQueue`. */
export const ensureCartCleanupSchedule = (client: Client, taskQueue: string) => ensureSchedule(client, CART_CLEANUP, taskQueue);

/** Makes sure of every schedule, on the worker's own connection. */
export async function ensureSchedules(connection: ConnectionLike, namespace: string, taskQueue: string): Promise<void> {
  const client = new Client({ connection, namespace });
  for (const schedule of [CART_CLEANUP, IDEMPOTENCY_KEY_CLEANUP]) await ensureSchedule(client, schedule, taskQueue);
}

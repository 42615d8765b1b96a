/** The commands a workflow run issued, read from its history in order (the order the replay test relies on). */
import type { Client, WorkflowHandle, WorkflowHandleWithFirstExecutionRunId } from '@temporalio/client';
import type { Workflow } from '@temporalio/common';
import { randomUUID } from 'node:crypto';

/** Milliseconds of a protobuf duration. */
export const millis = (d: { seconds?: unknown; nanos?: number | null } | null | undefined) => Number(d?.seconds ?? 0) * 1000 + Math.floor((d?.nanos ?? 0) / 1e6);

/**
 * `activity <type>`, `local activity` (a marker: its type is in the fake's own log), `child <type> <id>`,
 * `signal <name> <workflow id>` (to another workflow) and `timer <ms>`, in the order the history holds them.
 */
export async function commandsOf(handle: WorkflowHandle): Promise<string[]> {
  const commands: string[] = [];
  for (const event of (await handle.fetchHistory()).events ?? []) {
    const activity = event.activityTaskScheduledEventAttributes?.activityType?.name;
    if (activity) commands.push(`activity ${activity}`);
    if (event.markerRecordedEventAttributes?.markerName === 'core_local_activity') commands.push('local activity');
    const child = event.startChildWorkflowExecutionInitiatedEventAttributes;
    if (child) commands.push(`child ${child.workflowType?.name} ${child.workflowId}`);
    const signal = event.signalExternalWorkflowExecutionInitiatedEventAttributes;
    if (signal) commands.push(`signal ${signal.signalName} ${signal.workflowExecution?.workflowId}`);
    const timer = event.timerStartedEventAttributes;
    if (timer) commands.push(`timer ${millis(timer.startToFireTimeout)}`);
  }
  return commands;
}

/** `run<typeof wf>('wf', args)`: starts a workflow under a fresh test id on the file's queue. */
export function starter(client: () => Client, taskQueue: string) {
  return async <W extends Workflow>(type: string, args: Parameters<W>): Promise<WorkflowHandleWithFirstExecutionRunId<W>> =>
    (await client().workflow.start<Workflow>(type, { taskQueue, workflowId: `test/${randomUUID()}`, args: args as unknown[] })) as WorkflowHandleWithFirstExecutionRunId<W>;
}

/**
 * Waits for the point after which background work can add nothing more: every workflow a visibility
 * query finds (`underPrefix('platform/<id>/')`, `onTaskQueue(<a test file's queue>)`) has closed, or waits only on timers a minute or more away
 * (a course mail due in days). An absence is checked after this, never after a fixed sleep.
 */
import type { Client } from '@temporalio/client';
import { eventually } from './stack.ts';
import { millis } from './workflow-commands.ts';

const LONG_TIMER_MS = 60_000;

/** The workflows whose id starts so (a tenant's: `platform/<id>/`, `shop/<id>/`). */
export const underPrefix = (prefix: string) => `WorkflowId STARTS_WITH "${prefix}"`;
/** The workflows of one task queue (a test file's own). */
export const onTaskQueue = (taskQueue: string) => `TaskQueue = "${taskQueue}"`;

export interface SettledOptions {
  /** At least this many of the workflows found started at or after `since` (the action's own): visibility lags a little. */
  started?: number;
  since?: Date;
  timeoutMs?: number;
}


/** Why a workflow is not idle yet (null when it is), and the children it started. */
async function idleness(client: Client, workflowId: string, runId?: string): Promise<{ busy: string | null; children: string[] }> {
  const handle = client.workflow.getHandle(workflowId, runId);
  const described = await handle.describe();
  const history = await handle.fetchHistory();
  const children: string[] = [];
  const openTimers = new Map<string, number>();
  for (const event of history.events ?? []) {
    const childId = event.childWorkflowExecutionStartedEventAttributes?.workflowExecution?.workflowId;
    if (childId) children.push(childId);
    const started = event.timerStartedEventAttributes;
    if (started?.timerId) openTimers.set(started.timerId, millis(started.startToFireTimeout));
    const closedTimer = event.timerFiredEventAttributes?.timerId ?? event.timerCanceledEventAttributes?.timerId;
    if (closedTimer) openTimers.delete(closedTimer);
  }
  if (described.status.name !== 'RUNNING') return { busy: null, children };
  const raw = described.raw;
  if (raw.pendingActivities?.length) return { busy: `${workflowId}: activity ${raw.pendingActivities[0]!.activityType?.name} pending`, children };
  if (raw.pendingChildren?.length) return { busy: `${workflowId}: child ${raw.pendingChildren[0]!.workflowId} starting`, children };
  if (raw.pendingWorkflowTask) return { busy: `${workflowId}: workflow task pending`, children };
  const shortTimer = [...openTimers.values()].find((ms) => ms < LONG_TIMER_MS);
  if (shortTimer !== undefined) return { busy: `${workflowId}: a ${shortTimer} ms timer is open`, children };
  return { busy: null, children };
}

/** Resolves once every workflow the query finds (and every child they started) is closed or idle; fails with the first busy one. */
export async function workflowsSettled(client: Client, query: string, { started = 0, since = new Date(0), timeoutMs = 60_000 }: SettledOptions = {}): Promise<void> {
  await eventually(
    async () => {
      const listed: { workflowId: string; runId: string; startTime: Date; status: { name: string } }[] = [];
      for await (const execution of client.workflow.list({ query })) listed.push(execution);
      const recent = listed.filter((e) => e.startTime >= since);
      if (recent.length < started) throw new Error(`${recent.length} of ${started} workflows of ${query} started since ${since.toISOString()} are visible yet`);
      const seen = new Set<string>();
      // A run listed as closed that started before `since` can start nothing more (its children are listed themselves).
      const queue = listed.filter((e) => e.status.name === 'RUNNING' || e.startTime >= since).map((e) => ({ workflowId: e.workflowId, runId: e.runId as string | undefined }));
      while (queue.length > 0) {
        const next = queue.shift()!;
        const key = `${next.workflowId}/${next.runId ?? ''}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const { busy, children } = await idleness(client, next.workflowId, next.runId);
        if (busy) throw new Error(`not settled: ${busy}`);
        queue.push(...children.map((workflowId) => ({ workflowId, runId: undefined })));
      }
    },
    { timeoutMs, intervalMs: 200 },
  );
}

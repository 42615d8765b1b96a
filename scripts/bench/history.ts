/**
 * Where the time of a workflow goes, read from its Temporal history: for each workflow task and
 * activity, the wait in the task queue (scheduled -> started) and the run (started -> completed);
 * for a child workflow, initiated -> started.
 */
import type { Client } from '@temporalio/client';
import { median } from './stats.ts';

export interface Timeline {
  /** Epoch ms of WorkflowExecutionStarted and of the closing event. */
  startedMs: number;
  closedMs: number;
  /** Milliseconds per step, summed when a step repeats (e.g. every workflow task). */
  parts: Record<string, number>;
}

/** How many workflow histories of a batch are read for its breakdown. */
export const HISTORY_SAMPLE = 25;

type LongLike = number | { toNumber(): number } | null | undefined;
const num = (value: LongLike): number => (typeof value === 'number' ? value : value ? value.toNumber() : 0);
const timeMs = (ts: { seconds?: LongLike; nanos?: number | null } | null | undefined): number =>
  ts ? num(ts.seconds) * 1000 + (ts.nanos ?? 0) / 1e6 : Number.NaN;

export async function timelineOf(client: Client, workflowId: string): Promise<Timeline> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const events = history.events ?? [];
  const at = new Map<number, number>();
  const activityName = new Map<number, string>();
  const parts: Record<string, number> = {};
  const add = (step: string, ms: number) => (parts[step] = (parts[step] ?? 0) + ms);
  let startedMs = Number.NaN;
  let closedMs = Number.NaN;

  for (const event of events) {
    const id = num(event.eventId);
    const time = timeMs(event.eventTime);
    at.set(id, time);
    if (event.workflowExecutionStartedEventAttributes) startedMs = time;
    if (event.workflowExecutionCompletedEventAttributes || event.workflowExecutionFailedEventAttributes) closedMs = time;
    const wftStarted = event.workflowTaskStartedEventAttributes;
    if (wftStarted) add('workflow task: queue wait', time - (at.get(num(wftStarted.scheduledEventId)) ?? time));
    const wftCompleted = event.workflowTaskCompletedEventAttributes;
    if (wftCompleted) add('workflow task: run', time - (at.get(num(wftCompleted.startedEventId)) ?? time));
    const scheduled = event.activityTaskScheduledEventAttributes;
    if (scheduled) activityName.set(id, scheduled.activityType?.name ?? 'activity');
    const started = event.activityTaskStartedEventAttributes;
    if (started) {
      const scheduledId = num(started.scheduledEventId);
      add(`${activityName.get(scheduledId)}: queue wait`, time - (at.get(scheduledId) ?? time));
    }
    const completed = event.activityTaskCompletedEventAttributes;
    if (completed) add(`${activityName.get(num(completed.scheduledEventId))}: run`, time - (at.get(num(completed.startedEventId)) ?? time));
    const childStarted = event.childWorkflowExecutionStartedEventAttributes;
    if (childStarted) add(`child ${childStarted.workflowType?.name ?? 'workflow'}: start`, time - (at.get(num(childStarted.initiatedEventId)) ?? time));
  }
  return { startedMs, closedMs, parts };
}

/** Up to `count` items spread evenly over `items`. */
export function spread<T>(items: readonly T[], count: number): T[] {
  if (items.length <= count) return [...items];
  return Array.from({ length: count }, (_, i) => items[Math.floor((i * items.length) / count)]!);
}

/** The median of each step over the timelines that have it (steps in the order they first appear). */
export function medianParts(timelines: readonly Timeline[]): Record<string, number> {
  const steps = [...new Set(timelines.flatMap((t) => Object.keys(t.parts)))];
  return Object.fromEntries(steps.map((step) => [step, median(timelines.flatMap((t) => (step in t.parts ? [t.parts[step]!] : [])))]));
}

/** What one business operation costs Temporal: its workflow and every child it started, counted from their histories. */
export interface TaskCounts {
  workflows: number;
  workflow_tasks: number;
  activities: number;
  local_activities: number;
  events: number;
  /** Workflow tasks that timed out or failed and were run again (issue 38 item 5: none under overload). */
  workflow_tasks_redone: number;
}

/**
 * The tasks of `workflowId` and, depth first, of the children it started: a child counts from its
 * ChildWorkflowExecutionStarted event, read by its run id (a start refused as already started, a
 * shared renewal or sequence run, is not this operation's).
 */
export async function taskCountsOf(client: Client, workflowId: string): Promise<TaskCounts> {
  const counts: TaskCounts = { workflows: 0, workflow_tasks: 0, activities: 0, local_activities: 0, events: 0, workflow_tasks_redone: 0 };
  const pending: { workflowId: string; runId?: string }[] = [{ workflowId }];
  while (pending.length > 0) {
    const run = pending.pop()!;
    const events = (await client.workflow.getHandle(run.workflowId, run.runId).fetchHistory()).events ?? [];
    counts.workflows++;
    counts.events += events.length;
    for (const event of events) {
      if (event.workflowTaskCompletedEventAttributes) counts.workflow_tasks++;
      if (event.activityTaskScheduledEventAttributes) counts.activities++;
      if (event.markerRecordedEventAttributes?.markerName === 'core_local_activity') counts.local_activities++;
      if (event.workflowTaskTimedOutEventAttributes || event.workflowTaskFailedEventAttributes) counts.workflow_tasks_redone++;
      const child = event.childWorkflowExecutionStartedEventAttributes?.workflowExecution;
      if (child?.workflowId) pending.push({ workflowId: child.workflowId, runId: child.runId ?? undefined });
    }
  }
  return counts;
}

/** The median of each count over a sample. */
export function medianTaskCounts(samples: readonly TaskCounts[]): TaskCounts {
  const of = (key: keyof TaskCounts) => median(samples.map((s) => s[key]));
  return { workflows: of('workflows'), workflow_tasks: of('workflow_tasks'), activities: of('activities'), local_activities: of('local_activities'), events: of('events'), workflow_tasks_redone: of('workflow_tasks_redone') };
}

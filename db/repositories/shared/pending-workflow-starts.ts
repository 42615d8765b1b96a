import type { EntityManager } from '@mikro-orm/postgresql';
import { arrayLiteral } from './array-literal.ts';

/**
 * The workflow-start outbox (db/entities/shared/pending-workflow-start.ts). A write records its
 * starts with `recordWorkflowStart` on its transaction's entity manager, so a start exists exactly
 * when the write committed; the dispatcher (api/shared/workflow-starts/outbox.ts) claims, starts
 * and forgets them.
 */

export interface WorkflowStartRecord {
  taskQueue: string;
  workflowType: string;
  workflowId: string;
  /** What the start sends (its kind, arguments, signal): opaque here. */
  request: Record<string, unknown>;
}

export interface PendingWorkflowStartRow extends WorkflowStartRecord {
  id: number;
  attempts: number;
}

/** Records a start in `em`'s transaction; its id (for the dispatch right after the commit). */
export async function recordWorkflowStart(em: EntityManager, start: WorkflowStartRecord): Promise<number> {
  const [row] = await em.execute<{ id: string }[]>(
    `insert into pending_workflow_starts (task_queue, workflow_type, workflow_id, request, recorded_at, next_attempt_at)
     values (?, ?, ?, ?::jsonb, clock_timestamp(), clock_timestamp()) returning id`,
    [start.taskQueue, start.workflowType, start.workflowId, JSON.stringify(start.request)],
  );
  return Number(row!.id);
}

/** Records several starts in `em`'s transaction with one statement (a batch whose starts Temporal refused). */
export async function recordWorkflowStarts(em: EntityManager, starts: readonly WorkflowStartRecord[]): Promise<void> {
  if (starts.length === 0) return;
  await em.execute(
    `insert into pending_workflow_starts (task_queue, workflow_type, workflow_id, request, recorded_at, next_attempt_at)
     select s.task_queue, s.workflow_type, s.workflow_id, s.request, clock_timestamp(), clock_timestamp()
       from jsonb_to_recordset(?::jsonb) as s(task_queue text, workflow_type text, workflow_id text, request jsonb)`,
    [JSON.stringify(starts.map((s) => ({ task_queue: s.taskQueue, workflow_type: s.workflowType, workflow_id: s.workflowId, request: s.request })))],
  );
}

/**
 * Claims up to `limit` committed starts of `taskQueue` that are due (only those of `ids` when
 * given): each is put off by `retryAfterSeconds`, so another dispatcher (another api instance)
 * skips it while this one tries, and it is tried again then if this one fails or dies. A
 * deployment dispatches its own task queue's starts only (two deployments may share a database).
 */
export async function claimDueWorkflowStarts(em: EntityManager, opts: { taskQueue: string; ids?: readonly number[]; limit: number; retryAfterSeconds: number }): Promise<PendingWorkflowStartRow[]> {
  const only = opts.ids ? 'and id = any(?::bigint[])' : '';
  const rows = await em.execute<{ id: string; task_queue: string; workflow_type: string; workflow_id: string; request: Record<string, unknown>; attempts: number }[]>(
    `update pending_workflow_starts s set attempts = s.attempts + 1, next_attempt_at = clock_timestamp() + make_interval(secs => ?)
      where s.id in (select id from pending_workflow_starts where task_queue = ? and next_attempt_at <= clock_timestamp() ${only} order by id limit ? for update skip locked)
      returning s.id, s.task_queue, s.workflow_type, s.workflow_id, s.request, s.attempts`,
    [opts.retryAfterSeconds, opts.taskQueue, ...(opts.ids ? [arrayLiteral(opts.ids)] : []), opts.limit],
  );
  return rows
    .map((r) => ({ id: Number(r.id), taskQueue: r.task_queue, workflowType: r.workflow_type, workflowId: r.workflow_id, request: r.request, attempts: r.attempts }))
    .sort((a, b) => a.id - b.id);
}

/** Temporal accepted the start: it is no longer pending. */
export async function forgetWorkflowStart(em: EntityManager, id: number): Promise<void> {
  await em.execute('delete from pending_workflow_starts where id = ?', [id]);
}

/** Why the last attempt failed (for the operator); the start stays due at its next attempt. */
export async function noteWorkflowStartFailure(em: EntityManager, id: number, error: string): Promise<void> {
  await em.execute('update pending_workflow_starts set last_error = ? where id = ?', [error.slice(0, 2000), id]);
}

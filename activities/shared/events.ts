import { Context } from '@temporalio/activity';
import type { EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import type { NewDomainEvent, RecordedDomainEvent } from '../../domain/shared/events.ts';

/**
 * The operation an activity attempt belongs to: the workflow run and the activity's id within it.
 * Every retry of one activity shares it; a new run of the workflow does not.
 */
export function currentOperationKey(): string {
  try {
    const { workflowExecution, activityId } = Context.current().info;
    if (workflowExecution) return `${workflowExecution.workflowId}/${workflowExecution.runId}/${activityId}`;
  } catch {
    // Called outside an activity (a script or a test): every call is its own operation.
  }
  return `adhoc/${randomUUID()}`;
}


interface EventRow {
  id: string;
  type: NewDomainEvent['type'];
  payload: Record<string, unknown>;
  occurred_at: Date;
}

/**
 * Inside the transaction of the change they report: returns the events this operation already
 * recorded (a retry after a commit whose reply was lost), or records the new ones. Either way a
 * change yields its events exactly once.
 */
export async function recordEvents(tx: EntityManager, platformId: string, events: NewDomainEvent[], operationKey = currentOperationKey()): Promise<RecordedDomainEvent[]> {
  const existing: EventRow[] = await tx.execute(
    'select id, type, payload, occurred_at from domain_events where operation_key = ? order by occurred_at, id',
    [operationKey],
  );
  const rows: EventRow[] = existing.length > 0 || events.length === 0
    ? existing
    : await tx.execute(
        `insert into domain_events (id, platform_id, type, payload, operation_key, occurred_at)
         select gen_random_uuid(), ?, e.type, e.payload, ?, clock_timestamp()
           from jsonb_to_recordset(?::jsonb) as e(type text, payload jsonb)
         returning id, type, payload, occurred_at`,
        [platformId, operationKey, JSON.stringify(events)],
      );
  return rows.map((r) => ({ id: r.id, type: r.type, payload: r.payload, occurredAt: new Date(r.occurred_at).toISOString() }));
}

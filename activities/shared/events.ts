import type { Sql } from '../../db/repositories/shared/pooled-transaction.ts';
import { randomUUID } from 'node:crypto';
import { activityContext } from './activity-context.ts';
import { eventsOfOperation, recordEventsOnce } from '../../db/repositories/shared/domain-events.ts';
import type { NewDomainEvent, RecordedDomainEvent } from '../../domain/shared/events.ts';

/**
 * The operation an activity attempt belongs to: the workflow run and the activity's id within it.
 * Every retry of one activity shares it; a new run of the workflow does not.
 */
export function currentOperationKey(): string {
  const info = activityContext()?.info;
  if (info?.workflowExecution) return `${info.workflowExecution.workflowId}/${info.workflowExecution.runId}/${info.activityId}`;
  // Called outside an activity (a script or a test): every call is its own operation.
  return `adhoc/${randomUUID()}`;
}

/**
 * Inside the transaction of the change they report: returns the events this operation already
 * recorded (a retry after a commit whose reply was lost), or records the new ones. Either way a
 * change yields its events exactly once.
 */
export async function recordEvents(tx: Sql, platformId: string, events: NewDomainEvent[], operationKey = currentOperationKey()): Promise<RecordedDomainEvent[]> {
  const rows = events.length === 0 ? await eventsOfOperation(tx, operationKey) : await recordEventsOnce(tx, platformId, operationKey, events);
  return rows.map((r) => ({ id: r.id, type: r.type, payload: r.payload, occurredAt: new Date(r.occurred_at).toISOString() }));
}

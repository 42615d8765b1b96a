import type { Sql } from '../../db/repositories/shared/pooled-transaction.ts';
import { randomUUID } from 'node:crypto';
import { activityContext } from './activity-context.ts';
import { eventsOfOperation, recordEventsOnce, type DomainEventRow } from '../../db/repositories/shared/domain-events.ts';
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
  return (await recordEventRows(tx, platformId, events, operationKey)).map(eventRef);
}

/** `recordEvents` with the stored rows, payload included, for an activity that reads them (never returned to a workflow). */
export function recordEventRows(tx: Sql, platformId: string, events: NewDomainEvent[], operationKey: string): Promise<DomainEventRow[]> {
  return events.length === 0 ? eventsOfOperation(tx, operationKey) : recordEventsOnce(tx, platformId, operationKey, events);
}

/** What a workflow may learn of a recorded event: its id, type and time, not the payload that names the person. */
export const eventRef = (row: DomainEventRow): RecordedDomainEvent => ({ id: row.id, type: row.type, occurredAt: new Date(row.occurred_at).toISOString() });

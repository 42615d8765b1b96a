import type { Sql } from './pooled-transaction.ts';
import type { NewDomainEvent } from '../../../domain/shared/events.ts';

/** The domain event outbox (`domain_events`), keyed by the operation that recorded each event. */

export interface DomainEventRow {
  id: string;
  type: NewDomainEvent['type'];
  payload: Record<string, unknown>;
  occurred_at: Date;
}

/** The events this operation already recorded, in the order it recorded them. */
export function eventsOfOperation(tx: Sql, operationKey: string): Promise<DomainEventRow[]> {
  return tx.execute('select id, type, payload, occurred_at from domain_events where operation_key = ? order by occurred_at, id', [operationKey]);
}

/**
 * The events of the operation, recorded under its key, in one statement: the events this operation already
 * recorded (a retry after a commit whose reply was lost), or the new ones recorded now.
 */
export function recordEventsOnce(tx: Sql, platformId: string, operationKey: string, events: NewDomainEvent[]): Promise<DomainEventRow[]> {
  return tx.execute(
    `with existing as (
       select id, type, payload, occurred_at from domain_events where operation_key = ?
     ), inserted as (
       insert into domain_events (id, platform_id, type, payload, operation_key, occurred_at)
       select gen_random_uuid(), ?, e.type, e.payload, ?, clock_timestamp()
         from jsonb_to_recordset(?::jsonb) as e(type text, payload jsonb)
        where not exists (select 1 from existing)
       returning id, type, payload, occurred_at
     )
     (select * from existing order by occurred_at, id) union all (select * from inserted)`,
    [operationKey, platformId, operationKey, JSON.stringify(events)],
  );
}

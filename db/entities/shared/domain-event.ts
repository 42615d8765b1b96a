import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { platformOwned } from '../access/platform-owned.ts';
import type { DomainEventType } from '../../../domain/shared/events.ts';

/**
 * The outbox of domain events. An event is written in the same transaction as the change it
 * reports, keyed by the operation (workflow run and activity) that made it, so a retried
 * activity finds its events instead of writing them again. `id` is the event's stable id.
 */
export const DomainEvent = defineEntity({
  name: 'DomainEvent',
  tableName: 'domain_events',
  indexes: [{ properties: ['operationKey'] }, { properties: ['platform', 'occurredAt'] }],
  ...platformOwned({
    type: p.string().$type<DomainEventType>(),
    payload: p.json<Record<string, unknown>>(),
    operationKey: p.string(),
    occurredAt: p.datetime().onCreate(() => new Date()),
  }),
});
export type IDomainEvent = InferEntity<typeof DomainEvent>;

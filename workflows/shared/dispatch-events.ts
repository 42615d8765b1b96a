import type { RecordedDomainEvent } from '../../domain/shared/events.ts';
import { webhookDeliveryWorkflowId } from '../../domain/shared/workflow-ids.ts';
import { db } from './activity-proxies.ts';
import { startChildOnce } from './start-child-once.ts';
import { deliverWebhook } from './webhook-delivery.ts';

/**
 * The last step of every workflow that records domain events: one delivery workflow per (event,
 * subscribed active webhook). Events are recorded once per occurrence (operation-keyed outbox)
 * and each delivery's id is the pair, so a repeated dispatch starts nothing twice. Deliveries
 * outlive the workflow that dispatched them (they may retry for days).
 */
export async function dispatchEvents(platformId: string, events: readonly RecordedDomainEvent[]): Promise<void> {
  if (events.length === 0) return;
  const targets = await db.webhookTargets({ platformId, types: [...new Set(events.map((e) => e.type))] });
  const starts = events.flatMap((event) =>
    targets
      .filter((target) => target.events.includes(event.type))
      .map(({ webhookId }) =>
        startChildOnce(deliverWebhook, {
          workflowId: webhookDeliveryWorkflowId({ platformId, webhookId, eventId: event.id }),
          args: [{ platformId, webhookId, eventId: event.id }],
          workflowIdReusePolicy: 'REJECT_DUPLICATE',
        }),
      ),
  );
  await Promise.all(starts);
}

/** `return withEventsDispatched(platformId, result)`: dispatches `result.events`, then gives `result` back. */
export async function withEventsDispatched<T extends { events: readonly RecordedDomainEvent[] }>(platformId: string, result: T): Promise<T> {
  await dispatchEvents(platformId, result.events);
  return result;
}

import type { RecordedDomainEvent } from '../../../domain/shared/events.ts';
import { webhookDeliveriesFor, type WebhookDeliveryStart } from '../../../domain/shared/webhooks.ts';
import { webhookDeliveryWorkflowId } from '../../../domain/shared/workflow-ids.ts';
import { startChildOnce } from '../start-child-once.ts';
import type { WebhookActivities } from '../../../activities/webhooks/delivery.ts';
import { activitiesOf } from '../activities-of.ts';
import { DB_STEP } from '../activity-profiles.ts';

const webhooks = activitiesOf<WebhookActivities>(DB_STEP);

/**
 * The last step of every workflow that records domain events: one delivery workflow per (event,
 * subscribed active webhook). Events are recorded once per occurrence (operation-keyed outbox)
 * and each delivery's id is the pair, so a repeated dispatch starts nothing twice. Deliveries
 * outlive the workflow that dispatched them (they may retry for days).
 */
export async function dispatchEvents(platformId: string, events: readonly RecordedDomainEvent[]): Promise<void> {
  if (events.length === 0) return;
  const targets = await webhooks.webhookTargets({ platformId, types: [...new Set(events.map((e) => e.type))] });
  await startWebhookDeliveries(platformId, webhookDeliveriesFor(events, targets));
}

/** Starts the delivery workflow of each (event, webhook) pair, once per pair. */
export async function startWebhookDeliveries(platformId: string, deliveries: readonly WebhookDeliveryStart[]): Promise<void> {
  await Promise.all(
    deliveries.map(({ webhookId, eventId }) =>
      startChildOnce('deliverWebhook', {
        workflowId: webhookDeliveryWorkflowId({ platformId, webhookId, eventId }),
        args: [{ platformId, webhookId, eventId }],
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
      }),
    ),
  );
}

/** `return withEventsDispatched(platformId, result)`: dispatches `result.events`, then gives `result` back. */
export async function withEventsDispatched<T extends { events: readonly RecordedDomainEvent[] }>(platformId: string, result: T): Promise<T> {
  await dispatchEvents(platformId, result.events);
  return result;
}

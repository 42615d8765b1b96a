import { patched } from '@temporalio/workflow';
import type { RecordedDomainEvent } from '../../../domain/shared/events.ts';
import { webhookDeliveriesFor, type WebhookDeliveryStart } from '../../../domain/shared/webhooks.ts';
import { webhookDeliveryWorkflowId } from '../../../domain/shared/workflow-ids.ts';
import { db, webhook } from '../activity-proxies.ts';
import type { DeliverWebhookInput } from '../contracts.ts';
import { startChildOnce } from '../start-child-once.ts';

/**
 * The last step of every workflow that records domain events: one delivery per (event,
 * subscribed active webhook). Events are recorded once per occurrence (operation-keyed outbox)
 * and each delivery is the pair's, so a repeated dispatch delivers nothing twice. A delivery to
 * retry outlives the workflow that dispatched it (it may retry for days).
 */
export async function dispatchEvents(platformId: string, events: readonly RecordedDomainEvent[]): Promise<void> {
  if (events.length === 0) return;
  const targets = await db.webhookTargets({ platformId, types: [...new Set(events.map((e) => e.type))] });
  await startWebhookDeliveries(platformId, webhookDeliveriesFor(events, targets));
}

/**
 * Delivers each (event, webhook) pair (DESIGN.md section 4, "Deliveries"): its first attempt is an
 * activity of this workflow, and only a delivery that needs a retry starts its delivery workflow,
 * once per pair. Runs begun before `webhook-inline-first` start the workflow for every pair.
 */
export async function startWebhookDeliveries(platformId: string, deliveries: readonly WebhookDeliveryStart[]): Promise<void> {
  if (deliveries.length === 0) return;
  const inlineFirst = patched('webhook-inline-first');
  await Promise.all(
    deliveries.map(async ({ webhookId, eventId }) => {
      if (!inlineFirst) return startDeliveryWorkflow({ platformId, webhookId, eventId });
      const first = await webhook.openAndAttemptWebhookDelivery({ platformId, webhookId, eventId });
      if (first.nextAttemptInMs !== null) await startDeliveryWorkflow({ platformId, webhookId, eventId, deliveryId: first.deliveryId, nextAttemptInMs: first.nextAttemptInMs });
    }),
  );
}

/** The delivery workflow of a pair, once (REJECT_DUPLICATE): operators find every delivery that needed a retry under its id. */
function startDeliveryWorkflow(input: DeliverWebhookInput): Promise<void> {
  return startChildOnce('deliverWebhook', {
    workflowId: webhookDeliveryWorkflowId(input),
    args: [input],
    workflowIdReusePolicy: 'REJECT_DUPLICATE',
  });
}

/** `return withEventsDispatched(platformId, result)`: dispatches `result.events`, then gives `result` back. */
export async function withEventsDispatched<T extends { events: readonly RecordedDomainEvent[] }>(platformId: string, result: T): Promise<T> {
  await dispatchEvents(platformId, result.events);
  return result;
}

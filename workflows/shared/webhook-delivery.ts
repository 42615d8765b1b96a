import { proxyActivities, sleep } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.ts';
import type { WebhookDeliveryStatus } from '../../domain/shared/webhooks.ts';

/**
 * One HTTP attempt per activity. It records its own outcome and never throws for an HTTP failure,
 * so Temporal retries it only when the attempt could not be recorded (database, worker crash).
 * The heartbeat (every second from the start of the attempt) lets a killed worker's attempt be
 * retried within seconds; the retried attempt carries the same `webhook-id` (the event id). An
 * attempt claims the delivery before sending, so a retry that overlaps a still-running attempt
 * sends nothing and asks to be called again once the claim runs out.
 */
const webhook = proxyActivities<Activities>({
  startToCloseTimeout: '3 minutes',
  heartbeatTimeout: '5 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

export interface DeliverWebhookInput {
  platformId: string;
  webhookId: string;
  eventId: string;
  /** A manual redelivery: one attempt, no retries (`POST .../deliveries/:id/redeliver`). */
  manual?: boolean;
}

/**
 * Webhook delivery: pending -> succeeded | failed | disabled (spec: States and transitions).
 * The attempt activity decides the wait before the next attempt (the retry schedule with its
 * jitter, or the receiver's `Retry-After`), so the jitter is recorded in history and replays
 * deterministically.
 */
export async function deliverWebhook({ platformId, webhookId, eventId, manual = false }: DeliverWebhookInput): Promise<{ deliveryId: string; status: WebhookDeliveryStatus }> {
  const { deliveryId } = await webhook.openWebhookDelivery({ platformId, webhookId, eventId });
  for (;;) {
    const attempt = await webhook.attemptWebhookDelivery({ platformId, deliveryId, manual });
    if (attempt.nextAttemptInMs === null) return { deliveryId, status: attempt.status };
    await sleep(attempt.nextAttemptInMs);
  }
}

import { sleep } from '@temporalio/workflow';
import type { WebhookDeliveryStatus } from '../../domain/shared/webhooks.ts';
import { webhook } from './activity-proxies.ts';

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

import { sleep } from '@temporalio/workflow';
import type { WebhookDeliveryStatus } from '../../domain/shared/webhooks.ts';
import { webhook } from './activity-proxies.ts';
import type { DeliverWebhookInput } from './contracts.ts';

export type { DeliverWebhookInput };

/**
 * Webhook delivery: pending -> succeeded | failed | disabled (spec: States and transitions).
 * The attempt activity decides the wait before the next attempt (the retry schedule with its
 * jitter, or the receiver's `Retry-After`), so the jitter is recorded in history and replays
 * deterministically.
 */
export async function deliverWebhook({ platformId, webhookId, eventId, manual = false }: DeliverWebhookInput): Promise<{ deliveryId: string; status: WebhookDeliveryStatus }> {
  const { deliveryId } = await webhook.openWebhookDelivery({ platformId, webhookId, eventId });
  return { deliveryId, status: await attemptUntilSettled(() => webhook.attemptWebhookDelivery({ platformId, deliveryId, manual })) };
}

/**
 * The attempt loop of every webhook delivery (the platform's and a shop's): attempt, wait as long
 * as the attempt says, attempt again, until the delivery is over.
 */
export async function attemptUntilSettled(attempt: () => Promise<{ status: WebhookDeliveryStatus; nextAttemptInMs: number | null }>): Promise<WebhookDeliveryStatus> {
  for (;;) {
    const result = await attempt();
    if (result.nextAttemptInMs === null) return result.status;
    await sleep(result.nextAttemptInMs);
  }
}

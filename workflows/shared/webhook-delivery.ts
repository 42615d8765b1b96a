import type { WebhookDeliveryStatus } from '../../domain/shared/webhooks.ts';
import { webhook } from './activity-proxies.ts';
import type { DeliverWebhookInput } from './contracts.ts';
import { attemptUntilSettled } from './steps/attempt-until-settled.ts';

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

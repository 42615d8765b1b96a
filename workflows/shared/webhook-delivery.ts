import type { WebhookDeliveryStatus } from '../../domain/shared/webhooks.ts';
import type { DeliverWebhookInput } from './contracts.ts';
import { attemptUntilSettled } from './steps/attempt-until-settled.ts';
import type { WebhookActivities } from '../../activities/webhooks/delivery.ts';
import { activitiesOf } from './activities-of.ts';
import { WEBHOOK_ATTEMPT } from './activity-profiles.ts';

const webhooks = activitiesOf<WebhookActivities>(WEBHOOK_ATTEMPT);

export type { DeliverWebhookInput };

/**
 * Webhook delivery: pending -> succeeded | failed | disabled (spec: States and transitions).
 * The attempt activity decides the wait before the next attempt (the retry schedule with its
 * jitter, or the receiver's `Retry-After`), so the jitter is recorded in history and replays
 * deterministically.
 */
export async function deliverWebhook({ platformId, webhookId, eventId, manual = false }: DeliverWebhookInput): Promise<{ deliveryId: string; status: WebhookDeliveryStatus }> {
  const { deliveryId } = await webhooks.openWebhookDelivery({ platformId, webhookId, eventId });
  return { deliveryId, status: await attemptUntilSettled(() => webhooks.attemptWebhookDelivery({ platformId, deliveryId, manual })) };
}

import type { WebhookDeliveryStatus } from '../../domain/shared/webhooks.ts';
import { db, webhook } from '../shared/activity-proxies.ts';
import { attemptUntilSettled } from '../shared/steps/attempt-until-settled.ts';

export interface RedeliverShopWebhookInput {
  shopId: string;
  deliveryId: string;
}

/**
 * The operator's redelivery of a shop webhook's delivery (`POST .../deliveries/:id/redeliver`): one
 * attempt, marked manual, no retries; then the order's `webhook` effect says what happened.
 */
export async function redeliverShopWebhook({ shopId, deliveryId }: RedeliverShopWebhookInput): Promise<{ deliveryId: string; status: WebhookDeliveryStatus }> {
  const status = await attemptUntilSettled(() => webhook.attemptShopWebhookDelivery({ shopId, deliveryId, manual: true }));
  await db.recordShopWebhookOutcome({ shopId, deliveryId });
  return { deliveryId, status };
}

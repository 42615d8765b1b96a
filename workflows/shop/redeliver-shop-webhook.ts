import type { WebhookDeliveryStatus } from '../../domain/shared/webhooks.ts';
import { attemptUntilSettled } from '../shared/steps/attempt-until-settled.ts';
import type { ShopWebhookActivities } from '../../activities/webhooks/shop.ts';
import { activitiesOf } from '../shared/activities-of.ts';
import { DB_STEP, WEBHOOK_ATTEMPT } from '../shared/activity-profiles.ts';

const shopWebhookAttempts = activitiesOf<ShopWebhookActivities>(WEBHOOK_ATTEMPT);
const shopWebhooks = activitiesOf<ShopWebhookActivities>(DB_STEP);

export interface RedeliverShopWebhookInput {
  shopId: string;
  deliveryId: string;
}

/**
 * The operator's redelivery of a shop webhook's delivery (`POST .../deliveries/:id/redeliver`): one
 * attempt, marked manual, no retries; then the order's `webhook` effect says what happened.
 */
export async function redeliverShopWebhook({ shopId, deliveryId }: RedeliverShopWebhookInput): Promise<{ deliveryId: string; status: WebhookDeliveryStatus }> {
  const status = await attemptUntilSettled(() => shopWebhookAttempts.attemptShopWebhookDelivery({ shopId, deliveryId, manual: true }));
  await shopWebhooks.recordShopWebhookOutcome({ shopId, deliveryId });
  return { deliveryId, status };
}

import { patched } from '@temporalio/workflow';
import type { WebhookDeliveryStatus } from '../../domain/shared/webhooks.ts';
import { db, webhook } from '../shared/activity-proxies.ts';
import { attemptUntilSettled } from '../shared/steps/attempt-until-settled.ts';
import type { DeliverShopWebhookInput } from './contracts.ts';

export type { DeliverShopWebhookInput };

/**
 * A shop webhook's delivery: the platform's delivery (workflows/shared/webhook-delivery.ts) on the
 * shop's tables. The first activity stores the event (the order as it is now) with the delivery;
 * the attempts are the platform's, with its signing, SSRF rules, retry schedule and history. Once
 * it is over, the order's `webhook` effect for this webhook says what happened (delivered, failed
 * with the reason).
 */
export async function deliverShopWebhook(input: DeliverShopWebhookInput): Promise<{ deliveryId: string; status: WebhookDeliveryStatus }> {
  const { deliveryId } = await webhook.openShopWebhookDelivery(input);
  const status = await attemptUntilSettled(() => webhook.attemptShopWebhookDelivery({ shopId: input.shopId, deliveryId }));
  // Deliveries started before the effect said what happened end without recording it.
  if (patched('shop-webhook-effect-outcome')) await db.recordShopWebhookOutcome({ shopId: input.shopId, deliveryId });
  return { deliveryId, status };
}

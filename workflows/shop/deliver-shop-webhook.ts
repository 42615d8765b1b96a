import { patched } from '@temporalio/workflow';
import type { WebhookDeliveryStatus } from '../../domain/shared/webhooks.ts';
import { db, localDb, webhook } from '../shared/activity-proxies.ts';
import { attemptUntilSettled } from '../shared/steps/attempt-until-settled.ts';
import type { DeliverShopWebhookInput } from './contracts.ts';

export type { DeliverShopWebhookInput };

/**
 * A shop webhook's delivery: the platform's delivery (workflows/shared/webhook-delivery.ts) on the
 * shop's tables. The first step stores the event (the order as it is now) with the delivery;
 * the attempts are the platform's, with its signing, SSRF rules, retry schedule and history. Once
 * it is over, the order's `webhook` effect for this webhook says what happened (delivered, failed
 * with the reason). Opening and recording only touch our database: local activities inside the
 * workflow's tasks (issue 26 item 1, `shop-webhook-local-steps`); the attempts stay activities.
 */
export async function deliverShopWebhook(input: DeliverShopWebhookInput): Promise<{ deliveryId: string; status: WebhookDeliveryStatus }> {
  // Deliveries started before the steps became local open and record by activities, as recorded.
  const local = patched('shop-webhook-local-steps');
  // A delivery the clearing's one step opened comes with its id (those runs began after the patch).
  const deliveryId = input.deliveryId ?? (await (local ? localDb : webhook).openShopWebhookDelivery(input)).deliveryId;
  const status = await attemptUntilSettled(() => webhook.attemptShopWebhookDelivery({ shopId: input.shopId, deliveryId }));
  // Deliveries started before the effect said what happened end without recording it.
  if (local || patched('shop-webhook-effect-outcome')) await (local ? localDb : db).recordShopWebhookOutcome({ shopId: input.shopId, deliveryId });
  return { deliveryId, status };
}

import { patched, sleep } from '@temporalio/workflow';
import type { WebhookDeliveryStatus } from '../../domain/shared/webhooks.ts';
import { attemptUntilSettled } from '../shared/steps/attempt-until-settled.ts';
import type { DeliverShopWebhookInput } from './contracts.ts';
import type { ShopWebhookActivities } from '../../activities/webhooks/shop.ts';
import { activitiesOf } from '../shared/activities-of.ts';
import { DB_STEP, LOCAL_DB_STEP, WEBHOOK_ATTEMPT } from '../shared/activity-profiles.ts';

const shopWebhookAttempts = activitiesOf<ShopWebhookActivities>(WEBHOOK_ATTEMPT);
const shopWebhooks = activitiesOf<ShopWebhookActivities>(DB_STEP);
const localShopWebhooks = activitiesOf<ShopWebhookActivities>(LOCAL_DB_STEP);

export type { DeliverShopWebhookInput };

/**
 * A shop webhook's delivery: the platform's delivery (workflows/shared/webhook-delivery.ts) on the
 * shop's tables. The event (the order as it is now) is stored with the delivery before the first
 * attempt; the attempts are the platform's, with its signing, SSRF rules, retry schedule and
 * history. Once it is over, the order's `webhook` effect for this webhook says what happened
 * (delivered, failed with the reason). The first activity opens the delivery and makes the first
 * attempt, and the attempt that ends the delivery records that effect (issue 26 item 3,
 * `shop-webhook-one-activity`): a delivery answered at once is one activity between two workflow
 * tasks. Since deliveries are attempted first by the workflow that raised the event
 * (`shop-webhook-inline-first`), this workflow runs only for a delivery that needs a retry.
 */
export async function deliverShopWebhook(input: DeliverShopWebhookInput): Promise<{ deliveryId: string; status: WebhookDeliveryStatus }> {
  if (patched('shop-webhook-one-activity')) {
    const { shopId } = input;
    // Its first attempt was the raising workflow's (steps/notify-shop-webhooks.ts `deliverInlineFirst`): the retries only.
    // Marked: a run of this input that an older worker began attempted at once, as its history holds.
    if (input.deliveryId && input.nextAttemptInMs !== undefined && patched('delivery-after-first-attempt')) {
      const { deliveryId } = input;
      await sleep(input.nextAttemptInMs);
      return { deliveryId, status: await attemptUntilSettled(() => shopWebhookAttempts.attemptShopWebhookDelivery({ shopId, deliveryId, recordOutcome: true })) };
    }
    // A delivery the clearing's one step opened comes with its id: its first activity only attempts.
    const { deliveryId, ...first } = input.deliveryId
      ? { deliveryId: input.deliveryId, ...(await shopWebhookAttempts.attemptShopWebhookDelivery({ shopId, deliveryId: input.deliveryId, recordOutcome: true })) }
      : await shopWebhookAttempts.openAndAttemptShopWebhookDelivery(input);
    if (first.nextAttemptInMs === null) return { deliveryId, status: first.status };
    await sleep(first.nextAttemptInMs);
    return { deliveryId, status: await attemptUntilSettled(() => shopWebhookAttempts.attemptShopWebhookDelivery({ shopId, deliveryId, recordOutcome: true })) };
  }
  // Deliveries started before: open and record by local activities (`shop-webhook-local-steps`), or
  // by activities before that, as recorded.
  const local = patched('shop-webhook-local-steps');
  const { deliveryId } = await (local ? localShopWebhooks : shopWebhookAttempts).openShopWebhookDelivery(input);
  const status = await attemptUntilSettled(() => shopWebhookAttempts.attemptShopWebhookDelivery({ shopId: input.shopId, deliveryId }));
  // Deliveries started before the effect said what happened end without recording it.
  if (local || patched('shop-webhook-effect-outcome')) await (local ? localShopWebhooks : shopWebhooks).recordShopWebhookOutcome({ shopId: input.shopId, deliveryId });
  return { deliveryId, status };
}

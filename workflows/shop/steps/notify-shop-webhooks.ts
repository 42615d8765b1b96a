import { uuid4 } from '@temporalio/workflow';
import { shopWebhookDeliveryWorkflowId } from '../../../domain/shop/workflow-ids.ts';
import type { ShopWebhookEvent } from '../../../domain/shop/webhooks.ts';
import { startChildOnce } from '../../shared/start-child-once.ts';
import { noShopWebhookSubscribed, shopDeliveryUnderWay } from '../../../domain/shop/effect-outcomes.ts';
import type { DeliverShopWebhookInput } from '../contracts.ts';
import { activitySteps, type EffectSteps, type OrderRef } from './run-effect.ts';
import type { OrderEffectActivities } from '../../../activities/shop/order-effects.ts';
import type { ShopWebhookActivities } from '../../../activities/webhooks/shop.ts';
import { activitiesOf } from '../../shared/activities-of.ts';

/**
 * The `webhook` effect of an order transition: one delivery workflow per active shop webhook
 * subscribed to `type` (id `shop/<s>/webhook/<w>/order/<o>/<source>`, REJECT_DUPLICATE, so a
 * repeat never doubles a delivery), each recorded in the effect log with the webhook as target:
 * `done` "under way" once its workflow is started, then as the delivery ended (`done` delivered,
 * `failed` with the reason); `skipped` when no webhook is subscribed. The deliveries outlive the
 * transition's workflow (they may retry for days).
 */
export async function notifyShopWebhooks(ref: OrderRef, type: ShopWebhookEvent, steps: EffectSteps = activitySteps): Promise<void> {
  const targets = await activitiesOf<ShopWebhookActivities>(steps.dbStep).shopWebhookTargets({ shopId: ref.shopId, type });
  if (targets.length === 0) return activitiesOf<OrderEffectActivities>(steps.dbStep).recordOrderEffect({ ...ref, effect: 'webhook', outcome: noShopWebhookSubscribed(type) });
  // Workflow code: uuid4 and the clock are deterministic (recorded in history), so a replay
  // passes every webhook the same event id and time.
  const eventId = uuid4();
  const occurredAt = new Date().toISOString();
  await Promise.all(
    targets.map(async ({ webhookId, host }) => {
      await startShopDelivery({ ...ref, webhookId, type, eventId, occurredAt });
      // Provisional: the delivery may be over (and its outcome recorded) before this is.
      await activitiesOf<OrderEffectActivities>(steps.dbStep).recordOrderEffect({ ...ref, effect: 'webhook', target: webhookId, outcome: shopDeliveryUnderWay(type, webhookId, host), provisional: true });
    }),
  );
}

/**
 * One webhook's delivery workflow for the event of a transition, once (REJECT_DUPLICATE): with
 * `deliveryId` when the delivery is open already (the clearing's one step opened it).
 */
export function startShopDelivery(input: DeliverShopWebhookInput): Promise<void> {
  return startChildOnce('deliverShopWebhook', {
    workflowId: shopWebhookDeliveryWorkflowId({ shopId: input.shopId, orderId: input.orderId, source: input.source, webhookId: input.webhookId }),
    args: [input],
    workflowIdReusePolicy: 'REJECT_DUPLICATE',
  });
}

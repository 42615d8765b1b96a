import { ActivityFailure, patched, uuid4 } from '@temporalio/workflow';
import { shopWebhookDeliveryWorkflowId } from '../../../domain/shop/workflow-ids.ts';
import type { ShopWebhookEvent } from '../../../domain/shop/webhooks.ts';
import { startChildOnce } from '../../shared/start-child-once.ts';
import { noShopWebhookSubscribed, shopDeliveryUnderWay } from '../../../domain/shop/effect-outcomes.ts';
import type { DeliverShopWebhookInput } from '../contracts.ts';
import { activitySteps, type EffectSteps, type OrderRef } from './run-effect.ts';
import type { OrderEffectActivities } from '../../../activities/shop/order-effects.ts';
import type { ShopWebhookActivities } from '../../../activities/webhooks/shop.ts';
import { activitiesOf } from '../../shared/activities-of.ts';
import { WEBHOOK_ATTEMPT } from '../../shared/activity-profiles.ts';

const shopWebhookAttempts = activitiesOf<ShopWebhookActivities>(WEBHOOK_ATTEMPT);

/**
 * The `webhook` effect of an order transition: one delivery per active shop webhook subscribed to
 * `type`, each recorded in the effect log with the webhook as target, as the delivery ended (`done`
 * delivered, `failed` with the reason); `skipped` when no webhook is subscribed. Its first attempt
 * is an activity of this workflow (`deliverInlineFirst`); a delivery that needs another attempt
 * goes on in its delivery workflow (id `shop/<s>/webhook/<w>/order/<o>/<source>`, REJECT_DUPLICATE,
 * so a repeat never doubles it), recorded `done` "under way" until it ends (it may retry for days).
 * Runs begun before `shop-webhook-inline-first` start the delivery workflow for every delivery.
 */
export async function notifyShopWebhooks(ref: OrderRef, type: ShopWebhookEvent, steps: EffectSteps = activitySteps): Promise<void> {
  const targets = await activitiesOf<ShopWebhookActivities>(steps.dbStep).shopWebhookTargets({ shopId: ref.shopId, type });
  if (targets.length === 0) return activitiesOf<OrderEffectActivities>(steps.dbStep).recordOrderEffect({ ...ref, effect: 'webhook', outcome: noShopWebhookSubscribed(type) });
  // Workflow code: uuid4 and the clock are deterministic (recorded in history), so a replay
  // passes every webhook the same event id and time.
  const eventId = uuid4();
  const occurredAt = new Date().toISOString();
  const inlineFirst = patched('shop-webhook-inline-first');
  await Promise.all(
    targets.map(async ({ webhookId, host }) => {
      const delivery: DeliverShopWebhookInput = { ...ref, webhookId, type, eventId, occurredAt };
      if (!inlineFirst) await startShopDelivery(delivery);
      else if (!(await deliverInlineFirst(delivery))) return;
      // Provisional: the delivery may be over (and its outcome recorded) before this is.
      await activitiesOf<OrderEffectActivities>(steps.dbStep).recordOrderEffect({ ...ref, effect: 'webhook', target: webhookId, outcome: shopDeliveryUnderWay(type, webhookId, host), provisional: true });
    }),
  );
}

/**
 * A delivery's first attempt, made by the workflow that raised the event (DESIGN.md section 4,
 * "Deliveries"): one activity that opens the delivery (unless `deliveryId` says it is open) and
 * attempts it, signed and SSRF-checked like every attempt, and records the outcome when that
 * attempt ends the delivery. Only a delivery that needs another attempt starts its delivery
 * workflow, which waits what the attempt asked for and retries on the schedule. True when handed on.
 */
export async function deliverInlineFirst(input: DeliverShopWebhookInput): Promise<boolean> {
  const { shopId } = input;
  let first;
  try {
    first = input.deliveryId
      ? { deliveryId: input.deliveryId, ...(await shopWebhookAttempts.attemptShopWebhookDelivery({ shopId, deliveryId: input.deliveryId, recordOutcome: true })) }
      : await shopWebhookAttempts.openAndAttemptShopWebhookDelivery(input);
  } catch (error) {
    // A refusal no retry changes (the order or webhook gone) fails the delivery's own workflow, as
    // before inline attempts, never the transition that raised the event.
    if (!(error instanceof ActivityFailure)) throw error;
    await startShopDelivery(input);
    return true;
  }
  if (first.nextAttemptInMs === null) return false;
  await startShopDelivery({ ...input, deliveryId: first.deliveryId, nextAttemptInMs: first.nextAttemptInMs });
  return true;
}

/**
 * One webhook's delivery workflow for the event of a transition, once (REJECT_DUPLICATE): with
 * `deliveryId` when the delivery is open already (the clearing's one step opened it), and
 * `nextAttemptInMs` when its first attempt was made already (`deliverInlineFirst`).
 */
export function startShopDelivery(input: DeliverShopWebhookInput): Promise<void> {
  return startChildOnce('deliverShopWebhook', {
    workflowId: shopWebhookDeliveryWorkflowId({ shopId: input.shopId, orderId: input.orderId, source: input.source, webhookId: input.webhookId }),
    args: [input],
    workflowIdReusePolicy: 'REJECT_DUPLICATE',
  });
}

import { patched, uuid4 } from '@temporalio/workflow';
import type { WebhookDeliveryStatus } from '../../domain/shared/webhooks.ts';
import { shopWebhookDeliveryWorkflowId } from '../../domain/shop/workflow-ids.ts';
import type { ShopWebhookEvent } from '../../domain/shop/webhooks.ts';
import { db, webhook } from '../shared/activity-proxies.ts';
import { startChildOnce } from '../shared/start-child-once.ts';
import { attemptUntilSettled } from '../shared/webhook-delivery.ts';
import { skipEffect, type OrderRef } from './order-effects.ts';

export interface DeliverShopWebhookInput extends OrderRef {
  webhookId: string;
  type: ShopWebhookEvent;
  /** The event's id (`webhook-id`), the same for every webhook the event goes to. */
  eventId: string;
  /** When the event happened (ISO 8601): the body's `timestamp`. */
  occurredAt: string;
}

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

/**
 * The `webhook` effect of an order transition: one delivery workflow per active shop webhook
 * subscribed to `type` (id `shop/<s>/webhook/<w>/order/<o>/<source>`, REJECT_DUPLICATE, so a
 * repeat never doubles a delivery), each recorded in the effect log with the webhook as target:
 * `done` "under way" once its workflow is started, then as the delivery ended (`done` delivered,
 * `failed` with the reason); `skipped` when no webhook is subscribed. The deliveries outlive the
 * transition's workflow (they may retry for days).
 */
export async function notifyShopWebhooks(ref: OrderRef, type: ShopWebhookEvent): Promise<void> {
  const targets = await db.shopWebhookTargets({ shopId: ref.shopId, type });
  if (targets.length === 0) return skipEffect(ref, 'webhook', `no shop webhook subscribed to ${type}`);
  // Workflow code: uuid4 and the clock are deterministic (recorded in history), so a replay
  // passes every webhook the same event id and time.
  const eventId = uuid4();
  const occurredAt = new Date().toISOString();
  await Promise.all(
    targets.map(async ({ webhookId, host }) => {
      await startChildOnce(deliverShopWebhook, {
        workflowId: shopWebhookDeliveryWorkflowId({ ...ref, webhookId }),
        args: [{ ...ref, webhookId, type, eventId, occurredAt }],
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
      });
      // Provisional: the delivery may be over (and its outcome recorded) before this is.
      const outcome = { status: 'done' as const, detail: `${type} delivery to webhook ${webhookId} (${host}) under way` };
      await db.recordOrderEffect({ ...ref, effect: 'webhook', target: webhookId, outcome, provisional: true });
    }),
  );
}

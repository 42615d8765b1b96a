import { ApplicationFailure } from '@temporalio/activity';
import { orderDetail } from '../../domain/shop/order-document.ts';
import type { IOrder, IOrderItem } from '../../db/entities/shop/index.ts';
import { SHOP_WEBHOOK_TABLES } from '../../db/repositories/shared/webhook-deliveries.ts';
import { activeShopWebhooks, openShopDelivery, shopDeliveryOutcome } from '../../db/repositories/shop/webhooks.ts';
import type { EffectOutcome, EffectSource } from '../../domain/shop/effects.ts';
import { orderOfEventKey, shopEventKey, shopWebhookDeliveryEffect, type ShopWebhookEvent } from '../../domain/shop/webhooks.ts';
import { heartbeat } from '../shared/activity-context.ts';
import { unitsOfWork, type ActivityDb, type ActivityDeps } from '../shared/deps.ts';
import type { AttemptResult } from './attempt.ts';
import { attemptDepsFrom, attemptInActivity } from './delivery.ts';

export interface OpenShopDeliveryInput {
  shopId: string;
  webhookId: string;
  orderId: number;
  source: EffectSource;
  type: ShopWebhookEvent;
  eventId: string;
  occurredAt: string;
}

/**
 * The order in a shop webhook's body (`data.order`): the order detail of `GET /api/v1/orders/:id`
 * (one serializer) plus `cleared_at`, without the `uuid` (a cart's access key, secret by the spec).
 */
export function orderWebhookPayload(order: IOrder, items: IOrderItem[]): Record<string, unknown> {
  const { uuid: _secret, ...detail } = orderDetail(order, items);
  return { order: { ...detail, cleared_at: order.clearedAt?.toISOString() ?? null } };
}

/**
 * The activities of a shop webhook's delivery (workflows/shop/deliver-shop-webhook.ts, redeliver-shop-webhook.ts). Only finding the
 * targets and opening a delivery are the shop's own; the attempt is the platform's
 * (activities/webhooks/attempt.ts) on the shop's tables.
 */
export function shopWebhookActivities(activityDeps: ActivityDeps, db: ActivityDb = unitsOfWork(activityDeps.orm)) {
  const { orm } = activityDeps;
  const { reads: { orderFacts, shopSettings }, recordEffect } = db;
  const deps = attemptDepsFrom(activityDeps);

  async function openDelivery(input: OpenShopDeliveryInput): Promise<string> {
    const em = db.shopEm(input.shopId);
    const facts = await orderFacts(em, input.orderId);
    if (!facts) throw ApplicationFailure.nonRetryable(`order ${input.orderId} not found`, 'OrderNotFound');
    const deliveryId = await openShopDelivery(em, input.shopId, input.webhookId, {
      eventId: input.eventId,
      eventKey: shopEventKey(input.orderId, input.source),
      type: input.type,
      occurredAt: new Date(input.occurredAt),
      payload: orderWebhookPayload(facts.order, facts.items),
    });
    if (!deliveryId) throw ApplicationFailure.nonRetryable(`webhook ${input.webhookId} of shop ${input.shopId} not found`, 'WebhookNotFound');
    return deliveryId;
  }

  /**
   * Records in the order's effect log what happened to a shop webhook's delivery once it is over
   * (delivered, or failed with the reason), over the `webhook` entry of its transition and
   * webhook. Null for a delivery of no order transition (a customer's erasure).
   */
  async function recordOutcome({ shopId, deliveryId }: { shopId: string; deliveryId: string }): Promise<EffectOutcome | null> {
    const em = db.shopEm(shopId);
    const row = await shopDeliveryOutcome(em, shopId, deliveryId);
    if (!row) throw ApplicationFailure.nonRetryable(`shop webhook delivery ${deliveryId} not found`, 'DeliveryNotFound');
    const transition = orderOfEventKey(row.event_key);
    if (!transition) return null;
    const host = URL.canParse(row.url) ? new URL(row.url).host : '';
    const outcome = shopWebhookDeliveryEffect({ type: row.event_type, webhookId: row.webhook_id, host, status: row.status, statusCode: row.status_code, error: row.error });
    const key = { shopId, orderId: transition.orderId, source: transition.source as EffectSource, effect: 'webhook' as const, target: row.webhook_id };
    await recordEffect(em, key, outcome, deps.now());
    return outcome;
  }

  async function attemptAndRecord({ shopId, deliveryId, manual, recordOutcome: record }: { shopId: string; deliveryId: string; manual?: boolean; recordOutcome?: boolean }): Promise<AttemptResult> {
    const result = await attemptInActivity(deps, orm, { tables: SHOP_WEBHOOK_TABLES, tenantId: shopId, deliveryId, manual });
    if (record && result.nextAttemptInMs === null) {
      heartbeat();
      await recordOutcome({ shopId, deliveryId });
    }
    return result;
  }

  return {
    /** The shop's active webhooks subscribed to `type`, with the host each goes to (for the effect log). */
    async shopWebhookTargets({ shopId, type }: { shopId: string; type: ShopWebhookEvent }): Promise<{ webhookId: string; host: string }[]> {
      const webhooks = await shopSettings(shopId, 'webhooks', () => activeShopWebhooks(db.shopEm(shopId), shopId));
      return webhooks.filter((w) => w.events.includes(type)).map((w) => ({ webhookId: w.id, host: URL.canParse(w.url) ? new URL(w.url).host : '' }));
    },

    /** The delivery of the event to the webhook, with the order as it is now; made once, a repeat finds it. */
    openShopWebhookDelivery: async (input: OpenShopDeliveryInput): Promise<{ deliveryId: string }> => ({ deliveryId: await openDelivery(input) }),

    /**
     * The delivery opened and its first attempt in one activity (issue 26 item 3: no local step
     * before it, no second task for its result); when that attempt ends the delivery, its outcome
     * is recorded in the order's effect log too. A retry opens nothing new and answers a recorded
     * attempt from the record (attemptDelivery).
     */
    async openAndAttemptShopWebhookDelivery(input: OpenShopDeliveryInput): Promise<AttemptResult & { deliveryId: string }> {
      // The opening's statements count against the `webhook` profile's heartbeat timeout too.
      heartbeat();
      const deliveryId = await openDelivery(input);
      return { deliveryId, ...(await attemptAndRecord({ shopId: input.shopId, deliveryId, recordOutcome: true })) };
    },

    /**
     * One attempt: the platform's, on the shop's tables; a manual redelivery is one attempt, without
     * retries. With `recordOutcome`, an attempt that ends the delivery records its outcome as well.
     */
    attemptShopWebhookDelivery: attemptAndRecord,

    recordShopWebhookOutcome: recordOutcome,
  };
}

/** What a workflow proxies of this file: `activitiesOf<ShopWebhookActivities>(profile)` (workflows/shared/activities-of.ts). */
export type ShopWebhookActivities = ReturnType<typeof shopWebhookActivities>;

import type { EntityManager } from '@mikro-orm/postgresql';
import type { ShopWebhookEvent } from '../../../domain/shop/webhooks.ts';
import {
  ShopWebhook,
  ShopWebhookDelivery,
  ShopWebhookDeliveryAttempt,
  type IShopWebhook,
  type IShopWebhookDelivery,
  type IShopWebhookDeliveryAttempt,
} from '../../entities/shop/index.ts';

/**
 * A shop's own webhooks: what the operator API reads and writes, and the two statements only the
 * shop's deliveries need (the targets of an event, the delivery of an event to a webhook). Every
 * other delivery statement (claim, attempt, record) is the platform's, on the shop's tables
 * (db/repositories/shared/webhook-deliveries.ts, SHOP_WEBHOOK_TABLES).
 */

/** The shop's webhooks, oldest first. */
export function listShopWebhooks(em: EntityManager): Promise<IShopWebhook[]> {
  return em.find(ShopWebhook, { deletedAt: null }, { orderBy: { createdAt: 'asc', id: 'asc' } });
}

/** A page of a webhook's deliveries, newest first, with the total. */
export function shopDeliveryPage(em: EntityManager, webhookId: string, window: { limit: number; offset: number }): Promise<[IShopWebhookDelivery[], number]> {
  return em.findAndCount(ShopWebhookDelivery, { webhook: webhookId }, { orderBy: { createdAt: 'desc', id: 'desc' }, ...window });
}

/** The attempts of the given deliveries, newest first. */
export function shopAttemptsOf(em: EntityManager, deliveryIds: readonly string[]): Promise<IShopWebhookDeliveryAttempt[]> {
  if (deliveryIds.length === 0) return Promise.resolve([]);
  return em.find(ShopWebhookDeliveryAttempt, { delivery: { $in: [...deliveryIds] } }, { orderBy: { attemptedAt: 'desc', id: 'desc' } });
}

/** The shop's active webhooks subscribed to `type`, oldest first. */
export function subscribedShopWebhooks(em: EntityManager, shopId: string, type: ShopWebhookEvent): Promise<{ id: string; url: string }[]> {
  return em.getConnection().execute(
    `select id, url from shop_webhooks
      where shop_id = ? and active and deleted_at is null and ? = any(events)
      order by created_at, id`,
    [shopId, type],
  );
}

export interface ShopEvent {
  eventId: string;
  /** `order/<id>/<source>`: with the webhook, the delivery's unique key. */
  eventKey: string;
  type: ShopWebhookEvent;
  occurredAt: Date;
  payload: Record<string, unknown>;
}

/**
 * The delivery of a shop event to one of the shop's webhooks, made once; a repeated call finds
 * it (with the payload first stored). Undefined when the webhook is not the shop's.
 */
export async function openShopDelivery(em: EntityManager, shopId: string, webhookId: string, event: ShopEvent): Promise<string | undefined> {
  const connection = em.getConnection();
  await connection.execute(
    `insert into shop_webhook_deliveries (id, shop_id, webhook_id, event_id, event_key, event_type, payload, occurred_at, status, attempt_count, created_at, updated_at)
     select gen_random_uuid(), w.shop_id, w.id, ?, ?, ?, ?::jsonb, ?, 'pending', 0, clock_timestamp(), clock_timestamp()
       from shop_webhooks w where w.id = ? and w.shop_id = ?
     on conflict (webhook_id, event_key) do nothing`,
    [event.eventId, event.eventKey, event.type, JSON.stringify(event.payload), event.occurredAt, webhookId, shopId],
  );
  const rows: { id: string }[] = await connection.execute('select id from shop_webhook_deliveries where webhook_id = ? and event_key = ? and shop_id = ?', [
    webhookId,
    event.eventKey,
    shopId,
  ]);
  return rows[0]?.id;
}

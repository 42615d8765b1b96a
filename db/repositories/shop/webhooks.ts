import type { RequiredEntityData } from '@mikro-orm/core';
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
import { insertRow } from '../shared/insert-row.ts';

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

/** The shop's active webhooks and the events each is subscribed to, oldest first. */
export function activeShopWebhooks(em: EntityManager, shopId: string): Promise<{ id: string; url: string; events: ShopWebhookEvent[] }[]> {
  return em.execute(
    `select id, url, events from shop_webhooks
      where shop_id = ? and active and deleted_at is null
      order by created_at, id`,
    [shopId],
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
  // em.execute: inside the caller's transaction when there is one (the clearing's one step opens it there).
  // One statement: the delivery made, else the one a repeat finds (the select sees the snapshot the insert began with).
  const [opened] = await em.execute<{ id: string }[]>(
    `with made as (
       insert into shop_webhook_deliveries (id, shop_id, webhook_id, event_id, event_key, event_type, payload, occurred_at, status, attempt_count, created_at, updated_at)
       select gen_random_uuid(), w.shop_id, w.id, ?, ?, ?, ?::jsonb, ?, 'pending', 0, clock_timestamp(), clock_timestamp()
         from shop_webhooks w where w.id = ? and w.shop_id = ?
       on conflict (webhook_id, event_key) do nothing
       returning id)
     select id from made
     union all
     select id from shop_webhook_deliveries where webhook_id = ? and event_key = ? and shop_id = ?`,
    [event.eventId, event.eventKey, event.type, JSON.stringify(event.payload), event.occurredAt, webhookId, shopId, webhookId, event.eventKey, shopId],
  );
  if (opened) return opened.id;
  // Made by a concurrent call that committed after this statement's snapshot: the conflict saw it, the select did not.
  const rows: { id: string }[] = await em.execute('select id from shop_webhook_deliveries where webhook_id = ? and event_key = ? and shop_id = ?', [webhookId, event.eventKey, shopId]);
  return rows[0]?.id;
}

/** What happened to a shop webhook's delivery: its event, webhook, state and last attempt. */
export interface ShopDeliveryOutcomeRow {
  webhook_id: string;
  url: string;
  event_type: string;
  event_key: string;
  status: string;
  status_code: number | null;
  error: string | null;
}

export async function shopDeliveryOutcome(em: EntityManager, shopId: string, deliveryId: string): Promise<ShopDeliveryOutcomeRow | null> {
  const [row] = await em.execute<ShopDeliveryOutcomeRow[]>(
    `select d.webhook_id, w.url, d.event_type, d.event_key, d.status, a.status_code, a.error
       from shop_webhook_deliveries d join shop_webhooks w on w.id = d.webhook_id and w.shop_id = d.shop_id
       left join lateral (select status_code, error from shop_webhook_delivery_attempts x
                           where x.shop_id = d.shop_id and x.delivery_id = d.id order by x.attempted_at desc, x.id desc limit 1) a on true
      where d.shop_id = ? and d.id = ?`,
    [shopId, deliveryId],
  );
  return row ?? null;
}

/** One of the shop's deliveries of one of its webhooks (the entity manager is scoped to the shop). */
export function findShopDelivery(em: EntityManager, webhookId: string, deliveryId: string): Promise<IShopWebhookDelivery | null> {
  return em.findOne(ShopWebhookDelivery, { id: deliveryId.toLowerCase(), webhook: webhookId });
}

export function createShopWebhook(em: EntityManager, values: RequiredEntityData<IShopWebhook>): Promise<IShopWebhook> {
  return insertRow(em, ShopWebhook, values);
}

/** Deletes the webhook: it is switched off and hidden; its row and history stay. */
export async function deleteShopWebhook(em: EntityManager, webhook: IShopWebhook): Promise<void> {
  webhook.deletedAt = new Date();
  webhook.active = false;
  await em.flush();
}

/** One webhook of the scoped shop by its (lower-case) id, deleted ones too; null for another shop's. */
export function findShopWebhook(em: EntityManager, id: string): Promise<IShopWebhook | null> {
  return em.findOne(ShopWebhook, { id });
}

/** One webhook of the scoped shop that was not deleted, or null. */
export function findLiveShopWebhook(em: EntityManager, id: string): Promise<IShopWebhook | null> {
  return em.findOne(ShopWebhook, { id, deletedAt: null });
}

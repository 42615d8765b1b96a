import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { randomUUID } from 'node:crypto';
import type { WebhookDeliveryStatus } from '../../../domain/shared/webhooks.ts';
import type { ShopWebhookEvent } from '../../../domain/shop/webhooks.ts';
import { shopFilters } from '../../tenant.ts';
import { Shop } from './shop.ts';

/**
 * A shop's own webhook (DESIGN.md section 8), the shop-owned twin of the platform's `webhooks`:
 * the same columns with `shop_id` as the tenant, so the delivery code (activities/webhooks/attempt.ts,
 * db/repositories/shared/webhook-deliveries.ts) runs on either table set. `secretSealed` is the
 * `secret_key` sealed with `SECRETS_KEY`; it is never returned.
 */
export const ShopWebhook = defineEntity({
  name: 'ShopWebhook',
  tableName: 'shop_webhooks',
  filters: shopFilters,
  indexes: [{ properties: ['shop', 'createdAt'] }],
  properties: {
    id: p.uuid().primary().onCreate(() => randomUUID()),
    shop: () => p.manyToOne(Shop).ref(),
    url: p.text(),
    events: p.array().$type<ShopWebhookEvent[]>().columnType('text[]'),
    active: p.boolean().default(true),
    secretSealed: p.text(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
    deletedAt: p.datetime().nullable(),
  },
});
export type IShopWebhook = InferEntity<typeof ShopWebhook>;

/**
 * The event (but its type) and the state of a delivery, as the shared attempt code reads and
 * writes them (db/repositories/shared/webhook-deliveries.ts): a shop webhook's and the club
 * webhook's (db/entities/shop/club.ts).
 */
export const deliveryStateProperties = () => ({
  eventId: p.uuid(),
  payload: p.json<Record<string, unknown>>(),
  occurredAt: p.datetime(),
  status: p.string().length(16).$type<WebhookDeliveryStatus>().default('pending'),
  attemptCount: p.integer().default(0),
  /** Manual redeliveries so far; each has its own workflow id. */
  redeliveries: p.integer().default(0),
  nextAttemptAt: p.datetime().nullable(),
  createdAt: p.datetime().onCreate(() => new Date()),
  updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
});

/** One HTTP attempt of a delivery (or its refusal): a shop webhook's or the club webhook's. */
export const attemptProperties = () => ({
  attemptedAt: p.datetime(),
  statusCode: p.smallint().nullable(),
  durationMs: p.integer(),
  error: p.text().nullable(),
  manual: p.boolean().default(false),
});

/**
 * One shop event sent to one shop webhook (one delivery workflow). The shop has no event outbox:
 * the event (id, type, key, payload, time) is stored with its delivery, the same for every webhook
 * it goes to (the dispatching workflow chooses the id and the time).
 */
export const ShopWebhookDelivery = defineEntity({
  name: 'ShopWebhookDelivery',
  tableName: 'shop_webhook_deliveries',
  filters: shopFilters,
  uniques: [{ properties: ['webhook', 'eventKey'] }],
  indexes: [{ properties: ['webhook', 'createdAt'] }],
  properties: {
    id: p.uuid().primary().onCreate(() => randomUUID()),
    shop: () => p.manyToOne(Shop).ref(),
    webhook: () => p.manyToOne(ShopWebhook).ref(),
    eventKey: p.string().length(128),
    eventType: p.string().length(32).$type<ShopWebhookEvent>(),
    ...deliveryStateProperties(),
  },
});
export type IShopWebhookDelivery = InferEntity<typeof ShopWebhookDelivery>;

/** One HTTP attempt of a shop delivery (or its refusal), as `webhook_delivery_attempts`. */
export const ShopWebhookDeliveryAttempt = defineEntity({
  name: 'ShopWebhookDeliveryAttempt',
  tableName: 'shop_webhook_delivery_attempts',
  filters: shopFilters,
  indexes: [{ properties: ['delivery', 'attemptedAt'] }],
  properties: {
    id: p.uuid().primary().onCreate(() => randomUUID()),
    shop: () => p.manyToOne(Shop).ref(),
    delivery: () => p.manyToOne(ShopWebhookDelivery).ref(),
    ...attemptProperties(),
  },
});
export type IShopWebhookDeliveryAttempt = InferEntity<typeof ShopWebhookDeliveryAttempt>;

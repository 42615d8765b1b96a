import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Order } from './order.ts';
import { OrderStatus } from './order-status.ts';
import { Product } from './product.ts';
import { shopOwned, shopOwnedByUuid } from './shop-owned.ts';
import { attemptProperties, deliveryStateProperties } from './webhook.ts';

/**
 * A shop's club integration (spec: Club integration settings), at most one per shop, made by the
 * first PATCH. The address carries the club's token, so it is sealed with `SECRETS_KEY` like the
 * signing secret (adapters/secrets/secret-box.ts); only its host is kept readable. `urlSealed`, `active`,
 * `secretSealed` and `updatedAt` are what the shared webhook attempt reads and writes
 * (db/repositories/shop/club.ts, CLUB_WEBHOOK_TABLES).
 */
export const ClubIntegration = defineEntity({
  name: 'ClubIntegration',
  tableName: 'shop_club_integrations',
  uniques: [{ properties: ['shop'] }],
  ...shopOwnedByUuid({
    active: p.boolean().default(true),
    urlSealed: p.text(),
    host: p.string(),
    secretSealed: p.text().nullable(),
    orderStatus: () => p.manyToOne(OrderStatus).ref(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  }),
});
export type IClubIntegration = InferEntity<typeof ClubIntegration>;

/** One product of the club list; a product removed from the catalogue leaves the list with it. */
export const ClubProduct = defineEntity({
  name: 'ClubProduct',
  tableName: 'shop_club_products',
  uniques: [{ properties: ['club', 'product'] }],
  ...shopOwned({
    club: () => p.manyToOne(ClubIntegration).ref().deleteRule('cascade'),
    product: () => p.manyToOne(Product).ref().deleteRule('cascade'),
  }),
});
export type IClubProduct = InferEntity<typeof ClubProduct>;

/**
 * The club webhook of one order at one status: unique per (order, status), so an order that
 * reaches the status again (or a repeated transition) never sends twice. `source` is the
 * transition that opened it (`clear` or `status:<change id>`). Same columns as a shop webhook's
 * delivery, so the platform's attempt code runs on it; the event is stored with it.
 */
export const ClubWebhookDelivery = defineEntity({
  name: 'ClubWebhookDelivery',
  tableName: 'shop_club_webhook_deliveries',
  uniques: [{ properties: ['order', 'orderStatusId'] }],
  ...shopOwnedByUuid({
    webhook: () => p.manyToOne(ClubIntegration).ref().deleteRule('cascade'),
    order: () => p.manyToOne(Order).ref().deleteRule('cascade'),
    orderStatusId: p.integer(),
    source: p.string().length(32),
    eventType: p.string().length(32),
    ...deliveryStateProperties(),
  }),
});
export type IClubWebhookDelivery = InferEntity<typeof ClubWebhookDelivery>;

/** One HTTP attempt of a club webhook (or its refusal), as `shop_webhook_delivery_attempts`. */
export const ClubWebhookDeliveryAttempt = defineEntity({
  name: 'ClubWebhookDeliveryAttempt',
  tableName: 'shop_club_webhook_delivery_attempts',
  indexes: [{ properties: ['delivery', 'attemptedAt'] }],
  ...shopOwnedByUuid({
    delivery: () => p.manyToOne(ClubWebhookDelivery).ref().deleteRule('cascade'),
    ...attemptProperties(),
  }),
});
export type IClubWebhookDeliveryAttempt = InferEntity<typeof ClubWebhookDeliveryAttempt>;

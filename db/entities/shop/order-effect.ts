import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { EffectStatus, OrderEffectName } from '../../../domain/shop/effects.ts';
import { Order } from './order.ts';
import { shopOwned } from './shop-owned.ts';

/**
 * One side effect of one order transition (the effect log): unique per order, transition
 * (`source`), effect and target (a webhook id, a sequence id, or empty), so a retried or repeated
 * transition finds it instead of doing it again.
 */
export const OrderEffect = defineEntity({
  name: 'OrderEffect',
  tableName: 'shop_order_effects',
  uniques: [{ properties: ['order', 'source', 'effect', 'target'] }],
  ...shopOwned({
    order: () => p.manyToOne(Order).ref(),
    source: p.string().length(32),
    effect: p.string().length(32).$type<OrderEffectName>(),
    target: p.string().length(64).default(''),
    status: p.string().length(16).$type<EffectStatus>(),
    detail: p.text().default(''),
    at: p.datetime(),
  }),
});
export type IOrderEffect = InferEntity<typeof OrderEffect>;

/** A status change made through the API: the key of its workflow and its effects. */
export const OrderStatusChange = defineEntity({
  name: 'OrderStatusChange',
  tableName: 'shop_order_status_changes',
  indexes: [{ properties: ['order'] }],
  ...shopOwned({
    order: () => p.manyToOne(Order).ref(),
    fromStatusId: p.integer(),
    toStatusId: p.integer(),
    at: p.datetime().onCreate(() => new Date()),
  }),
});
export type IOrderStatusChange = InferEntity<typeof OrderStatusChange>;

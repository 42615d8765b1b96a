import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { OrderStatusKind } from '../../../domain/shop/order-statuses.ts';
import { shopOwned } from './shop-owned.ts';

/**
 * An order status. Built-ins (`kind` other than `UserOrderStatus`) are made with the shop and
 * cannot be renamed; hand-made ones come from the operator API. The mail and automation settings
 * of the configuration interface live here too.
 */
export const OrderStatus = defineEntity({
  name: 'OrderStatus',
  tableName: 'shop_order_statuses',
  indexes: [{ properties: ['shop'] }],
  ...shopOwned({
    name: p.string(),
    kind: p.string().$type<OrderStatusKind>(),
    visible: p.boolean().default(true),
    position: p.integer().default(0),
    sendEmailOnStatusChange: p.boolean().default(false),
    senderId: p.integer().nullable(),
    bccEmailAddress: p.string().nullable(),
    treatOrderAsHandled: p.boolean().default(false),
    automaticallySet: p.json<Record<string, unknown>>().nullable(),
    email: p.json<Record<string, unknown>>().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  }),
});
export type IOrderStatus = InferEntity<typeof OrderStatus>;

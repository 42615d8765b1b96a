import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { CartState } from '../../../domain/shop/cart.ts';
import { shopOwnedByUuid } from './shop-owned.ts';

/**
 * A storefront cart (DESIGN.md section 9): its random uuid is the buyer's only key to it and
 * becomes the order's `uuid` at checkout (`orderId` then set). Forgotten after 30 days unused.
 */
export const Cart = defineEntity({
  name: 'Cart',
  tableName: 'shop_carts',
  indexes: [{ properties: ['updatedAt'] }],
  ...shopOwnedByUuid({
    state: p.json<CartState>(),
    orderId: p.integer().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()),
  }),
});
export type ICart = InferEntity<typeof Cart>;

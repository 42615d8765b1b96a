/**
 * What checkout reads besides checkout-reads.ts (the request's entity manager is scoped to the
 * shop by the shop filter): a product set with its items, as the pricing module sees it; and what
 * the placement's statement (order-placement.ts) throws when an automatic discount was used up
 * meanwhile.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ProductSetSnapshot } from '../../../domain/shop/product-set-pricing.ts';
import { ProductSet } from '../../entities/shop/index.ts';

/** A product set of the shop with its items in order; null for another shop's or an unknown id. */
export async function productSetForCheckout(em: EntityManager, id: number): Promise<ProductSetSnapshot | null> {
  const set = await em.findOne(ProductSet, id, { populate: ['items'] });
  if (!set) return null;
  return {
    id: set.id,
    price: set.price,
    active: set.active,
    linkOnlyDiscount: set.linkOnlyDiscount,
    autoCalculatePrices: set.autoCalculatePrices,
    poolMode: set.poolMode,
    poolPickCount: set.poolPickCount ?? null,
    customPaymentTypes: set.customPaymentTypes,
    paymentTypeIds: set.paymentTypeIds,
    items: set.items.getItems().map((item) => ({ productId: item.product.id, quantity: item.quantity, customPrice: item.customPrice ?? null })),
  };
}

/** Thrown by the placement (order-placement.ts) when an automatic discount was used up meanwhile. */
export class AutomaticDiscountUsedUp extends Error {
  constructor(readonly discountId: number) {
    super(`automatic discount ${discountId} has been used up`);
  }
}

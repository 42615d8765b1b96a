/**
 * A product set as the pricing module sees it (the pure module never sees an entity; the rest of
 * what a placement reads comes as snapshots: db/repositories/shop/checkout-reads.ts).
 */
import type { IProductSet } from '../../../db/entities/shop/index.ts';
import type { ProductSetSnapshot } from '../../../domain/shop/product-set-pricing.ts';

/** The set as checkout sees it; its items must be loaded. */
export function productSetSnapshot(set: IProductSet): ProductSetSnapshot {
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

/**
 * What the order placement reads for the pricing module, turned into its snapshots (the pure
 * module never sees an entity): products and a set (the discount code and the automatic discounts
 * are read as snapshots: db/repositories/shop/discount-codes.ts `codeForCheckout`, checkout.ts `buyerOffers`).
 */
import type { IProduct, IProductSet } from '../../../db/entities/shop/index.ts';
import type { ProductSnapshot } from '../../../domain/shop/pricing.ts';
import type { ProductSetSnapshot } from '../../../domain/shop/product-set-pricing.ts';

export function productSnapshot(product: IProduct): ProductSnapshot {
  return {
    id: product.id,
    name: product.name,
    sku: product.sku,
    price: product.price,
    vatRate: product.vatRate,
    active: product.active,
    allowPriceChange: product.allowPriceChange,
    minimalPrice: product.minimalPrice ?? null,
    allowZeroMinimalPrice: product.allowZeroMinimalPrice,
    electronic: product.electronic,
    deliveryTypeIds: product.deliveryTypeIds,
    paymentTypeIds: product.paymentTypeIds,
    cartQuantityLimit: product.cartQuantityLimit ?? null,
    categoryIds: product.productCategoryIds,
  };
}

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

/**
 * What the order placement reads for the pricing module, turned into its snapshots (the pure
 * module never sees an entity): products, the discount code, the automatic discounts, a set.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { IAutomaticDiscount, IProduct, IProductSet } from '../../../db/entities/shop/index.ts';
import { codeForCheckout } from '../../../db/repositories/shop/discount-codes.ts';
import type { AutomaticDiscountSnapshot } from '../../../domain/shop/automatic-discount-pricing.ts';
import type { CodeSnapshot } from '../../../domain/shop/discount-code-pricing.ts';
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

/** The shop's code matching `typed` (ignoring case) as checkout sees it; null when there is none. */
export async function codeSnapshot(em: EntityManager, shopId: string, typed: string): Promise<CodeSnapshot | null> {
  const found = await codeForCheckout(em, shopId, typed);
  if (!found) return null;
  const { code, pool } = found;
  return {
    id: code.id,
    code: code.code,
    caseSensitive: code.caseSensitive,
    discountType: code.discountType,
    value: code.value ?? null,
    minimumAmount: code.minimumAmount ?? null,
    usages: code.usages,
    usagesLimit: code.usagesLimit ?? null,
    usagesPerCustomerLimit: code.usagesPerCustomerLimit ?? null,
    active: code.active,
    combineWithOtherDiscount: code.combineWithOtherDiscount,
    startDate: code.startDate ?? null,
    endDate: code.endDate ?? null,
    relationWithProducts: code.relationWithProducts,
    productIds: code.productIds,
    productCategoryIds: code.productCategoryIds,
    relationWithDeliveryTypes: code.relationWithDeliveryTypes,
    deliveryTypeIds: code.deliveryTypeIds,
    pool: pool && { activateOnDraw: pool.activateOnDraw },
    drawnAt: code.drawnAt ?? null,
  };
}

export function automaticDiscountSnapshot(d: IAutomaticDiscount): AutomaticDiscountSnapshot {
  return {
    id: d.id,
    kind: d.kind,
    discountType: d.discountType,
    value: d.value,
    relationWithProducts: d.relationWithProducts,
    productIds: d.productIds,
    productCategoryIds: d.productCategoryIds,
    usagesLimit: d.usagesLimit ?? null,
    usages: d.usages,
    active: d.active,
    email: d.email ?? null,
    emailDomain: d.emailDomain ?? null,
    minimumOrderValue: d.minimumOrderValue ?? null,
    startDate: d.startDate ?? null,
    endDate: d.endDate ?? null,
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

import type { z } from 'zod';
import type { IDiscountCode } from '../../../db/entities/shop/index.ts';
import type { DiscountSettings } from '../../../domain/shop/discount-rules.ts';
import type { DiscountCodeReply, DiscountCodePatch } from './schemas.ts';

const iso = (date: Date | null | undefined) => (date ? new Date(date).toISOString() : null);

export function discountCodeReply(code: IDiscountCode): z.infer<typeof DiscountCodeReply> {
  return {
    id: code.id,
    code: code.code,
    name: code.name,
    discount_type: code.discountType,
    value: code.value ?? null,
    case_sensitive: code.caseSensitive,
    minimum_amount: code.minimumAmount ?? null,
    usages_limit: code.usagesLimit ?? null,
    usages_per_customer_limit: code.usagesPerCustomerLimit ?? null,
    usages: code.usages,
    active: code.active,
    start_date: iso(code.startDate),
    end_date: iso(code.endDate),
    combine_with_other_discount: code.combineWithOtherDiscount,
    relation_with_products: code.relationWithProducts,
    product_ids: code.productIds,
    product_category_ids: code.productCategoryIds,
    relation_with_delivery_types: code.relationWithDeliveryTypes,
    delivery_type_ids: code.deliveryTypeIds,
    created_at: iso(code.createdAt)!,
    updated_at: iso(code.updatedAt)!,
  };
}

/** The entity properties of the fields sent (only those sent). */
export function discountCodeValues(body: DiscountCodePatch): Partial<IDiscountCode> {
  const map: [keyof DiscountCodePatch, keyof IDiscountCode][] = [
    ['code', 'code'],
    ['name', 'name'],
    ['discount_type', 'discountType'],
    ['value', 'value'],
    ['case_sensitive', 'caseSensitive'],
    ['minimum_amount', 'minimumAmount'],
    ['usages_limit', 'usagesLimit'],
    ['usages_per_customer_limit', 'usagesPerCustomerLimit'],
    ['active', 'active'],
    ['start_date', 'startDate'],
    ['end_date', 'endDate'],
    ['combine_with_other_discount', 'combineWithOtherDiscount'],
    ['relation_with_products', 'relationWithProducts'],
    ['product_ids', 'productIds'],
    ['product_category_ids', 'productCategoryIds'],
    ['relation_with_delivery_types', 'relationWithDeliveryTypes'],
    ['delivery_type_ids', 'deliveryTypeIds'],
  ];
  return Object.fromEntries(map.filter(([field]) => body[field] !== undefined).map(([field, property]) => [property, body[field]])) as Partial<IDiscountCode>;
}

/** The settings the rules check: the stored row (or the defaults) with the fields sent. */
export function settingsAfter(current: Partial<IDiscountCode> | null, values: Partial<IDiscountCode>): DiscountSettings {
  const after = { ...current, ...values };
  return {
    discountType: after.discountType!,
    value: after.value ?? null,
    startDate: after.startDate ?? null,
    endDate: after.endDate ?? null,
    relationWithProducts: after.relationWithProducts ?? 'all_products',
    productIds: after.productIds ?? [],
    productCategoryIds: after.productCategoryIds ?? [],
    relationWithDeliveryTypes: after.relationWithDeliveryTypes ?? 'all_delivery_types',
    deliveryTypeIds: after.deliveryTypeIds ?? [],
  };
}

import type { IAutomaticDiscount } from '../../../db/entities/shop/index.ts';
import { valueDescription, windowFlags, type AutomaticDiscountSettings } from '../../../domain/shop/automatic-discount-rules.ts';
import type { AutomaticDiscountResource, OwnField } from './resources.ts';
import type { AutomaticDiscountWrite } from './schemas.ts';

/** Wire field to entity property, for every field any of the four resources writes. */
const PROPERTY: Record<keyof AutomaticDiscountWrite, keyof IAutomaticDiscount> = {
  discount_type: 'discountType',
  value: 'value',
  relation_with_products: 'relationWithProducts',
  product_ids: 'productIds',
  product_category_ids: 'productCategoryIds',
  usages_limit: 'usagesLimit',
  active: 'active',
  email: 'email',
  email_domain: 'emailDomain',
  minimum_order_value: 'minimumOrderValue',
  start_date: 'startDate',
  end_date: 'endDate',
};

const iso = (date: Date | null | undefined) => (date ? new Date(date).toISOString() : null);
const wire = (value: unknown) => (value instanceof Date ? iso(value) : (value ?? null));

/** The entity properties of the fields sent (only those sent). */
export function automaticDiscountValues(body: AutomaticDiscountWrite): Partial<IAutomaticDiscount> {
  return Object.fromEntries(
    (Object.keys(PROPERTY) as (keyof AutomaticDiscountWrite)[]).filter((field) => body[field] !== undefined).map((field) => [PROPERTY[field], body[field]]),
  ) as Partial<IAutomaticDiscount>;
}

export function automaticDiscountReply(resource: AutomaticDiscountResource, d: IAutomaticDiscount, now: Date) {
  return {
    id: d.id,
    discount_type: d.discountType,
    value: d.value,
    value_description: valueDescription(d.discountType, d.value),
    usages_limit: d.usagesLimit ?? null,
    usages: d.usages,
    active: d.active,
    relation_with_products: d.relationWithProducts,
    product_ids: d.productIds,
    product_category_ids: d.productCategoryIds,
    ...Object.fromEntries(resource.own.map((field: OwnField) => [field, wire(d[PROPERTY[field]])])),
    ...(resource.kind === 'time_limited' ? windowFlags(d.startDate ?? null, d.endDate ?? null, now) : {}),
    created_at: iso(d.createdAt)!,
    updated_at: iso(d.updatedAt)!,
  };
}

/** The settings the rules check: the stored row (or nothing) with the fields sent. */
export function settingsAfter(resource: AutomaticDiscountResource, current: IAutomaticDiscount | null, values: Partial<IAutomaticDiscount>): AutomaticDiscountSettings {
  const after = { ...current, ...values };
  return {
    kind: resource.kind,
    discountType: after.discountType!,
    value: after.value ?? null,
    relationWithProducts: after.relationWithProducts ?? 'all_products',
    productIds: after.productIds ?? [],
    productCategoryIds: after.productCategoryIds ?? [],
    usagesLimit: after.usagesLimit ?? null,
    email: after.email ?? null,
    emailDomain: after.emailDomain ?? null,
    startDate: after.startDate ?? null,
    endDate: after.endDate ?? null,
  };
}

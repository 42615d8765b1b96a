/**
 * Rules of a discount code's settings (spec: Discount code), pure: which types need a value, the
 * percentage range, the dates, the relations and the ids they need. The API checks ids against the
 * shop; checkout (discount-code-pricing.ts) turns a valid code into adjustments.
 */
import { money } from '../shared/money.ts';

export const DISCOUNT_TYPES = [
  'percentage_discount',
  'value_discount',
  'free_delivery_discount',
  'free_contents',
  'value_and_free_delivery_discount',
  'percentage_and_free_delivery_discount',
  'value_per_product_discount',
  'value_per_product_and_free_delivery_discount',
  'unit_price_discount',
] as const;
export type DiscountType = (typeof DISCOUNT_TYPES)[number];

export const PRODUCT_RELATIONS = ['all_products', 'selected_products', 'products_except', 'selected_categories', 'categories_except'] as const;
export type ProductRelation = (typeof PRODUCT_RELATIONS)[number];

export const DELIVERY_RELATIONS = ['domestic_delivery_types_only', 'all_delivery_types', 'selected_delivery_types'] as const;
export type DeliveryRelation = (typeof DELIVERY_RELATIONS)[number];

export const PERCENTAGE_TYPES: readonly DiscountType[] = ['percentage_discount', 'percentage_and_free_delivery_discount'];
/** Types that take money off the order as one amount spread over the eligible lines. */
export const ORDER_VALUE_TYPES: readonly DiscountType[] = ['value_discount', 'value_and_free_delivery_discount'];
export const PER_PRODUCT_TYPES: readonly DiscountType[] = ['value_per_product_discount', 'value_per_product_and_free_delivery_discount'];
export const FREE_DELIVERY_TYPES: readonly DiscountType[] = [
  'free_delivery_discount',
  'value_and_free_delivery_discount',
  'percentage_and_free_delivery_discount',
  'value_per_product_and_free_delivery_discount',
];

/** Types whose `value` is required: the percentage and value types, and the unit target price. */
export function needsValue(type: DiscountType): boolean {
  return type !== 'free_delivery_discount' && type !== 'free_contents';
}

/** A code's settings after a write (the stored row merged with the fields sent). */
export interface DiscountSettings {
  discountType: DiscountType;
  value: string | null;
  startDate: Date | null;
  endDate: Date | null;
  relationWithProducts: ProductRelation;
  productIds: readonly number[];
  productCategoryIds: readonly number[];
  relationWithDeliveryTypes: DeliveryRelation;
  deliveryTypeIds: readonly number[];
}

/** Problems of the settings, by request field; empty when the code may be saved. */
export function discountSettingsProblems(s: DiscountSettings): Record<string, string[]> {
  const problems: Record<string, string[]> = {};
  const add = (field: string, message: string) => (problems[field] ??= []).push(message);
  if (needsValue(s.discountType)) {
    if (s.value === null) add('value', `is required for ${s.discountType}`);
    else if (PERCENTAGE_TYPES.includes(s.discountType)) {
      const percent = money(s.value);
      if (percent.lessThanOrEqualTo(0) || percent.greaterThan(100)) add('value', 'must be a percentage above 0 and at most 100');
    } else if (s.discountType !== 'unit_price_discount' && money(s.value).isZero()) add('value', 'must be above zero');
  }
  if (s.startDate && s.endDate && s.endDate.getTime() <= s.startDate.getTime()) add('end_date', 'must be after start_date');
  if ((s.relationWithProducts === 'selected_products' || s.relationWithProducts === 'products_except') && s.productIds.length === 0) {
    add('product_ids', `must name at least one product for ${s.relationWithProducts}`);
  }
  if ((s.relationWithProducts === 'selected_categories' || s.relationWithProducts === 'categories_except') && s.productCategoryIds.length === 0) {
    add('product_category_ids', `must name at least one category for ${s.relationWithProducts}`);
  }
  if (s.relationWithDeliveryTypes === 'selected_delivery_types' && s.deliveryTypeIds.length === 0) {
    add('delivery_type_ids', 'must name at least one delivery type for selected_delivery_types');
  }
  return problems;
}

/** Whether `typed` is this code: exact when case-sensitive, ignoring case otherwise. */
export function codeMatches(stored: string, caseSensitive: boolean, typed: string): boolean {
  return caseSensitive ? stored === typed : stored.toLowerCase() === typed.toLowerCase();
}

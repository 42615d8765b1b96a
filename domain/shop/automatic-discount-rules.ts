/**
 * Rules of the shop's automatic discounts (spec: Automatic discounts), pure: the four kinds, the
 * types each takes, the value, the product relation, the dates of time-limited discounts and the
 * `future`/`past` flags. The API checks ids against the shop; the price-history types are priced by
 * domain/shop/product-price-discount.ts.
 */
import { startOfDayIn, zoneOffsetMinutes } from '../shared/time-zones.ts';
import { money } from '../shared/money.ts';
import type { ProductRelation } from './discount-rules.ts';

export const AUTOMATIC_DISCOUNT_KINDS = ['email_address', 'email_domain', 'newsletter', 'time_limited'] as const;
export type AutomaticDiscountKind = (typeof AUTOMATIC_DISCOUNT_KINDS)[number];

/** The types every automatic discount takes (applied to the order at checkout). */
export const ORDER_DISCOUNT_TYPES = ['percentage_discount', 'value_discount', 'unit_price_discount'] as const;
/** The price-history types of time-limited discounts: they recalculate the products' prices. */
export const PRICE_HISTORY_TYPES = ['percentage_product_discount', 'value_product_discount'] as const;
export const AUTOMATIC_DISCOUNT_TYPES = [...ORDER_DISCOUNT_TYPES, ...PRICE_HISTORY_TYPES] as const;
export type AutomaticDiscountType = (typeof AUTOMATIC_DISCOUNT_TYPES)[number];
export type PriceHistoryType = (typeof PRICE_HISTORY_TYPES)[number];

export function isPriceHistoryType(type: string): type is PriceHistoryType {
  return (PRICE_HISTORY_TYPES as readonly string[]).includes(type);
}

/** The discount types a kind accepts: the price-history ones only for time-limited discounts. */
export function typesOf(kind: AutomaticDiscountKind): readonly AutomaticDiscountType[] {
  return kind === 'time_limited' ? AUTOMATIC_DISCOUNT_TYPES : ORDER_DISCOUNT_TYPES;
}

/** An automatic discount's settings after a write (the stored row merged with the fields sent). */
export interface AutomaticDiscountSettings {
  kind: AutomaticDiscountKind;
  discountType: string;
  value: string | null;
  relationWithProducts: ProductRelation;
  productIds: readonly number[];
  productCategoryIds: readonly number[];
  usagesLimit: number | null;
  email: string | null;
  emailDomain: string | null;
  startDate: Date | null;
  endDate: Date | null;
}

const PERCENT_TYPES: readonly string[] = ['percentage_discount', 'percentage_product_discount'];

/** The start of the shop's calendar day of `now` (in its time zone): a time-limited discount may not start before it. */
export function startOfDay(now: Date, timeZone: string): Date {
  const day = new Date(now.getTime() + zoneOffsetMinutes(now, timeZone) * 60_000).toISOString().slice(0, 10);
  return startOfDayIn(day, timeZone);
}

/**
 * Problems of the settings, by request field; empty when the discount may be saved. `datesChanged`
 * says whether this write sends a date: a stored start in the past does not block an edit of other
 * fields of a discount that is already running. `timeZone` is the shop's: "today" is its day.
 */
export function automaticDiscountProblems(s: AutomaticDiscountSettings, now: Date, datesChanged: boolean, timeZone: string): Record<string, string[]> {
  const problems: Record<string, string[]> = {};
  const add = (field: string, message: string) => (problems[field] ??= []).push(message);
  if (!(typesOf(s.kind) as readonly string[]).includes(s.discountType)) add('discount_type', `must be one of ${typesOf(s.kind).join(', ')}`);
  if (s.value === null) add('value', 'is required');
  else if (PERCENT_TYPES.includes(s.discountType)) {
    const percent = money(s.value);
    if (percent.lessThanOrEqualTo(0) || percent.greaterThan(100)) add('value', 'must be a percentage above 0 and at most 100');
  } else if (s.discountType !== 'unit_price_discount' && money(s.value).isZero()) add('value', 'must be above zero');
  if ((s.relationWithProducts === 'selected_products' || s.relationWithProducts === 'products_except') && s.productIds.length === 0) {
    add('product_ids', `must name at least one product for ${s.relationWithProducts}`);
  }
  if ((s.relationWithProducts === 'selected_categories' || s.relationWithProducts === 'categories_except') && s.productCategoryIds.length === 0) {
    add('product_category_ids', `must name at least one category for ${s.relationWithProducts}`);
  }
  if (s.kind === 'email_address' && !s.email) add('email', 'is required');
  if (s.kind === 'email_domain' && !s.emailDomain) add('email_domain', 'is required');
  if (s.kind === 'time_limited') {
    if (s.usagesLimit !== null) add('usages_limit', 'is not allowed for time-limited discounts');
    if (!s.startDate) add('start_date', 'is required');
    if (!s.endDate) add('end_date', 'is required');
    if (s.startDate && datesChanged && s.startDate.getTime() < startOfDay(now, timeZone).getTime()) add('start_date', 'must not be earlier than today');
  }
  if (s.startDate && s.endDate && s.endDate.getTime() <= s.startDate.getTime()) add('end_date', 'must be after start_date');
  return problems;
}

/** Where a time-limited discount's window stands against `now` (reply fields `future` and `past`). */
export function windowFlags(startDate: Date | null, endDate: Date | null, now: Date): { future: boolean; past: boolean } {
  return {
    future: startDate !== null && now.getTime() < startDate.getTime(),
    past: endDate !== null && now.getTime() >= endDate.getTime(),
  };
}

/** The reply's `value_description`: what the discount gives, in words. */
export function valueDescription(type: AutomaticDiscountType, value: string): string {
  switch (type) {
    case 'percentage_discount':
      return `${money(value).toString()}% off the order`;
    case 'value_discount':
      return `${money(value).toFixed(2)} off the order`;
    case 'unit_price_discount':
      return `unit price ${money(value).toFixed(2)}`;
    case 'percentage_product_discount':
      return `${money(value).toString()}% off the product prices`;
    case 'value_product_discount':
      return `${money(value).toFixed(2)} off each product price`;
  }
}

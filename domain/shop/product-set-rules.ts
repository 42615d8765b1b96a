/**
 * Rules of a product set (spec: Product set (bundle), Limits), checked on the set as it is after a
 * write (the stored set with the fields sent), so a PATCH can never leave an invalid set behind.
 * Pure: no database; ids of the shop are checked by the route.
 */
import type { Decimal } from 'decimal.js';
import { slugify } from '../shared/slug.ts';
import { money } from '../shared/money.ts';

export const MIN_SET_PIECES = 2;
export const MIN_POOL_PICK = 2;
export const MIN_POOL_PRODUCTS = 2;

export interface SetItemDraft {
  productId: number;
  quantity: number;
  /** Gross price of one piece inside the set; null when not given. */
  customPrice: string | null;
}

export interface ProductSetDraft {
  price: string;
  autoCalculatePrices: boolean;
  poolMode: boolean;
  poolPickCount: number | null;
  customPaymentTypes: boolean;
  paymentTypeIds: readonly number[];
  exposeInFeeds: boolean;
  feedDescription: string;
  items: readonly SetItemDraft[];
}

export type SetProblems = Record<string, string[]>;

/** Pieces in the set: the sum of the items' quantities. */
export function setPieces(items: readonly SetItemDraft[]): number {
  return items.reduce((sum, item) => sum + item.quantity, 0);
}

/** The sum of custom_price × quantity; null when an item has no custom price. */
export function customPriceTotal(items: readonly SetItemDraft[]): Decimal | null {
  let total = money(0);
  for (const item of items) {
    if (item.customPrice === null) return null;
    total = total.plus(money(item.customPrice).times(item.quantity));
  }
  return total;
}

/** Every broken rule of the set, by the field it names (`items.1.custom_price`); empty when valid. */
export function productSetProblems(set: ProductSetDraft): SetProblems {
  const problems: SetProblems = {};
  const add = (field: string, message: string) => (problems[field] ??= []).push(message);

  if (setPieces(set.items) < MIN_SET_PIECES) add('items', `a set holds at least ${MIN_SET_PIECES} pieces in total (sum of quantity)`);

  if (set.poolMode) {
    if (set.poolPickCount === null) add('pool_pick_count', 'is required in pool mode');
    else if (set.poolPickCount < MIN_POOL_PICK || set.poolPickCount > set.items.length) {
      add('pool_pick_count', `must be at least ${MIN_POOL_PICK} and at most the number of items (${set.items.length})`);
    }
    if (new Set(set.items.map((item) => item.productId)).size < MIN_POOL_PRODUCTS) add('items', `a pool holds at least ${MIN_POOL_PRODUCTS} different products`);
  }

  if (!set.autoCalculatePrices) {
    set.items.forEach((item, index) => {
      if (item.customPrice === null) add(`items.${index}.custom_price`, 'is required when auto_calculate_prices is false');
    });
    const total = customPriceTotal(set.items);
    if (total !== null && !total.equals(money(set.price))) {
      add('price', `must equal the sum of custom_price × quantity of the items (${total.toFixed(2)}) when auto_calculate_prices is false`);
    }
  }

  if (set.customPaymentTypes && set.paymentTypeIds.length === 0) add('payment_type_ids', 'at least one payment type is required with custom_payment_types');
  if (set.exposeInFeeds && set.feedDescription.trim() === '') add('feed_description', 'is required with expose_in_feeds');
  return problems;
}

/** The slug a new set starts from: its name made URL-safe (`set` when nothing is left of it). */
export function setSlugBase(name: string): string {
  return slugify(name, 'set');
}

/** The first of `base`, `base-2`, `base-3`, ... that is not taken in the shop. */
export function freeSlug(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n += 1) {
    const candidate = `${base}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/**
 * A product set (bundle) at checkout (spec: Product set; DESIGN.md section 7, "Checkout"), pure:
 * whether the set may be ordered this way, and the cart lines it makes, each with its share of the
 * set's price. No I/O: the set, its products' catalogue prices and the buyer's picks come in.
 *
 * The set's price is spread over its lines pro rata (largest remainder, so the lines add up to the
 * price to the cent): by the products' catalogue prices × quantity with `auto_calculate_prices`,
 * else by `custom_price` × quantity (which, when the custom prices add up to the price as the set's
 * rules demand, gives every line exactly custom_price × quantity). In pool mode the set's price
 * buys the buyer's `pool_pick_count` picks and is spread over them the same way.
 */
import type { Decimal } from 'decimal.js';
import { money, toMoneyString, ZERO } from '../shared/money.ts';
import { spreadProRata } from './discount-code-pricing.ts';
import type { PricingError } from './pricing.ts';

export interface ProductSetItemSnapshot {
  productId: number;
  quantity: number;
  customPrice: string | null;
}

export interface ProductSetSnapshot {
  id: number;
  /** The set's price, "99.00". */
  price: string;
  active: boolean;
  /** Orderable only by a buyer who came through the set's direct link. */
  linkOnlyDiscount: boolean;
  autoCalculatePrices: boolean;
  poolMode: boolean;
  poolPickCount: number | null;
  customPaymentTypes: boolean;
  paymentTypeIds: readonly number[];
  items: readonly ProductSetItemSnapshot[];
}

/** A line of the placement's `items`: in pool mode the buyer's pick. */
export interface SetPick {
  productId: number;
  quantity: number;
  price?: string | null;
}

export interface SetOrder {
  set: ProductSetSnapshot;
  picks: readonly SetPick[];
  /** The buyer came through the set's direct link. */
  viaLink: boolean;
  paymentTypeId: number | null;
  /** Catalogue prices of the set's products that a cart may hold (a missing one is unavailable). */
  catalogue: ReadonlyMap<number, string>;
}

/** A cart line made by the set: its product, quantity, share of the set price and request field. */
export interface SetLine {
  productId: number;
  quantity: number;
  setPrice: string;
  field: string;
}

export type SetLinesResult = { ok: true; lines: SetLine[] } | { ok: false; errors: PricingError[] };

const setError = (message: string): PricingError => ({ field: 'product_set_id', code: 'product_set_refused', message });

/** Why the set itself cannot be ordered (the set, its link, its products, the payment type). */
function setErrors({ set, viaLink, paymentTypeId, catalogue }: SetOrder): PricingError[] {
  const errors: PricingError[] = [];
  if (!set.active) errors.push(setError('is not an active product set'));
  if (set.linkOnlyDiscount && !viaLink) errors.push(setError('is available only through its direct link (via_set_link)'));
  const gone = [...new Set(set.items.map((item) => item.productId).filter((id) => !catalogue.has(id)))];
  if (gone.length > 0) errors.push(setError(`holds products that are no longer available: ${gone.join(', ')}`));
  if (set.customPaymentTypes && paymentTypeId !== null && !set.paymentTypeIds.includes(paymentTypeId)) {
    errors.push({ field: 'payment_type_id', code: 'payment_type_not_allowed', message: `cannot be used with product set ${set.id}` });
  }
  return errors;
}

/**
 * The set items the buyer orders with the request field of each: the whole set (then `items` must
 * be empty), or in pool mode the buyer's picks: exactly `pool_pick_count` different products of
 * the set, each taking its set item's quantity (a pick may send quantity 1 or that quantity) and
 * no price of its own.
 */
function chosenItems({ set, picks }: SetOrder): { items: { item: ProductSetItemSnapshot; field: string }[]; errors: PricingError[] } {
  if (!set.poolMode) {
    const errors: PricingError[] = picks.length > 0 ? [{ field: 'items', code: 'product_set_refused', message: 'must be empty: a product set not in pool mode is ordered whole' }] : [];
    return { items: set.items.map((item) => ({ item, field: 'product_set_id' })), errors };
  }
  const errors: PricingError[] = [];
  const items: { item: ProductSetItemSnapshot; field: string }[] = [];
  const count = set.poolPickCount ?? 0;
  if (picks.length !== count) errors.push({ field: 'items', code: 'product_set_refused', message: `must pick exactly ${count} different items of product set ${set.id}` });
  picks.forEach((pick, index) => {
    const at = `items.${index}`;
    const item = set.items.find((i) => i.productId === pick.productId);
    if (!item) errors.push({ field: `${at}.product_id`, code: 'product_set_refused', message: `is not an item of product set ${set.id}` });
    else if (picks.findIndex((p) => p.productId === pick.productId) !== index) errors.push({ field: `${at}.product_id`, code: 'product_set_refused', message: 'is picked more than once' });
    if (pick.price !== undefined && pick.price !== null) errors.push({ field: `${at}.price`, code: 'product_set_refused', message: 'the items of a product set are priced by the set' });
    if (item && pick.quantity !== 1 && pick.quantity !== item.quantity) errors.push({ field: `${at}.quantity`, code: 'product_set_refused', message: `is ${item.quantity} for this item of the set` });
    if (item) items.push({ item, field: `${at}.product_id` });
  });
  return { items, errors };
}

/** The cart lines of a set order, or why it cannot be placed. */
export function productSetLines(order: SetOrder): SetLinesResult {
  const { items, errors: pickErrors } = chosenItems(order);
  const errors = [...setErrors(order), ...pickErrors];
  if (errors.length > 0) return { ok: false, errors };

  const { set, catalogue } = order;
  const weightOf = ({ productId, quantity, customPrice }: ProductSetItemSnapshot): Decimal =>
    money((set.autoCalculatePrices ? catalogue.get(productId) : customPrice) ?? 0).times(quantity);
  let weights = items.map(({ item }) => weightOf(item));
  // Free products only: the price goes over the units evenly.
  if (weights.every((w) => w.isZero())) weights = items.map(({ item }) => money(item.quantity));
  const shares = spreadProRata(money(set.price), weights);
  return {
    ok: true,
    lines: items.map(({ item, field }, i) => ({ productId: item.productId, quantity: item.quantity, setPrice: toMoneyString(shares[i] ?? ZERO), field })),
  };
}

/**
 * A discount code at checkout (spec: Discount code; DESIGN.md section 7, "Checkout"), pure: whether
 * the code may be used on this cart (`codeRefusal`), and what it takes off as Medusa-style
 * adjustment actions (`codeAdjustments`) that `priceCart` applies. No I/O, no clock: `now` and the
 * code's counters come in. The usage limits are settled for good when the order is stored
 * (the placement's statement, db/repositories/shop/order-placement.ts); the check here only refuses early.
 *
 * Amounts: lines are discounted on their gross `price` (unit × quantity, the buyer's unit price
 * where the product allows one, a set line's share; less what the automatic discounts took when
 * the code combines with them: pricing.ts `priceCheckout`). `lineDiscounts` is shared with the
 * automatic discounts. Percentages are rounded per line to cents, half up; an order value
 * is spread over the eligible lines pro rata by largest remainder, so the lines add up to the value
 * to the cent. No line and no delivery goes below zero (`priceCart` also caps every adjustment).
 */
import type { Decimal } from 'decimal.js';
import { cents, money, Money, toMoneyString, ZERO } from '../shared/money.ts';
import {
  FREE_DELIVERY_TYPES,
  ORDER_VALUE_TYPES,
  PER_PRODUCT_TYPES,
  PERCENTAGE_TYPES,
  type DiscountSettings,
} from './discount-rules.ts';
import type { Adjustment } from './adjustments.ts';

/** What checkout needs of a code: its settings (as a write checks them) and its state. */
export interface CodeSnapshot extends DiscountSettings {
  id: number;
  code: string;
  caseSensitive: boolean;
  minimumAmount: string | null;
  usages: number;
  usagesLimit: number | null;
  /** Settled when the order is stored (it needs the customer's orders). */
  usagesPerCustomerLimit: number | null;
  active: boolean;
  /** Whether the code stacks with the automatic discounts (else the buyer gets the better side). */
  combineWithOtherDiscount: boolean;
  /** The pool the code came from; an `activateOnDraw` pool's code counts only once drawn. */
  pool: { activateOnDraw: boolean } | null;
  drawnAt: Date | null;
}

/** A priced cart line as the code sees it (index = the cart line's index). */
export interface DiscountLine {
  productId: number;
  /** The product's main categories. */
  categoryIds: readonly number[];
  quantity: number;
  /** What the line costs before this discount: unit × quantity, less the discounts applied before. */
  price: string;
}

export interface DiscountCart {
  lines: readonly DiscountLine[];
  /** products_cost before any discount. */
  productsCost: string;
  /** The chosen delivery and its cost; null without delivery. */
  delivery: { id: number; domestic: boolean; cost: string } | null;
}

/** The label an adjustment from a code carries (`code:<text>`). */
export const codeLabel = (code: CodeSnapshot) => `code:${code.code}`;

/**
 * Why the code cannot be used on this cart, as the message for `discount_code`; null when it can.
 * The checks follow the order a buyer would fix them in.
 */
export function codeRefusal(code: CodeSnapshot | null, typed: string, cart: DiscountCart, now: Date): string | null {
  if (!code || (code.caseSensitive && code.code !== typed)) return 'is not a discount code of this shop';
  if (code.pool?.activateOnDraw && code.drawnAt === null) return 'has not been issued yet';
  if (!code.active) return 'is not active';
  if (code.startDate && now.getTime() < code.startDate.getTime()) return 'is not valid yet';
  if (code.endDate && now.getTime() >= code.endDate.getTime()) return 'has expired';
  if (code.usagesLimit !== null && code.usages >= code.usagesLimit) return 'has been used up';
  if (code.minimumAmount !== null && money(cart.productsCost).lessThan(code.minimumAmount)) {
    return `needs an order of at least ${toMoneyString(code.minimumAmount)} in products`;
  }
  return null;
}

/** Whether the code's product relation takes in this line. */
export function lineEligible(code: Pick<DiscountSettings, 'relationWithProducts' | 'productIds' | 'productCategoryIds'>, line: Pick<DiscountLine, 'productId' | 'categoryIds'>): boolean {
  const inCategories = () => line.categoryIds.some((id) => code.productCategoryIds.includes(id));
  switch (code.relationWithProducts) {
    case 'all_products':
      return true;
    case 'selected_products':
      return code.productIds.includes(line.productId);
    case 'products_except':
      return !code.productIds.includes(line.productId);
    case 'selected_categories':
      return inCategories();
    case 'categories_except':
      return !inCategories();
  }
}

/** Whether the code's delivery relation takes in the chosen delivery (for its free delivery). */
export function deliveryEligible(code: Pick<CodeSnapshot, 'relationWithDeliveryTypes' | 'deliveryTypeIds'>, delivery: DiscountCart['delivery']): boolean {
  if (!delivery) return false;
  switch (code.relationWithDeliveryTypes) {
    case 'all_delivery_types':
      return true;
    case 'domestic_delivery_types_only':
      return delivery.domestic;
    case 'selected_delivery_types':
      return code.deliveryTypeIds.includes(delivery.id);
  }
}

/**
 * `amount` spread over `weights` pro rata, in cents, adding up to `amount` exactly: every share
 * rounded down, then the cents left go one each to the largest remainders (earlier lines first on
 * a tie). No share exceeds its weight when `amount` ≤ Σ weights.
 */
export function spreadProRata(amount: Decimal, weights: readonly Decimal[]): Decimal[] {
  const total = weights.reduce((sum, w) => sum.plus(w), ZERO);
  if (total.isZero() || amount.lessThanOrEqualTo(0)) return weights.map(() => ZERO);
  const exact = weights.map((w) => amount.times(w).dividedBy(total));
  const shares = exact.map((e) => e.toDecimalPlaces(2, Money.ROUND_DOWN));
  let left = amount.minus(shares.reduce((sum, s) => sum.plus(s), ZERO)).times(100).round().toNumber();
  const order = exact.map((e, i) => ({ i, rest: e.minus(shares[i]!) })).sort((a, b) => b.rest.comparedTo(a.rest) || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    shares[i] = shares[i]!.plus('0.01');
    left -= 1;
  }
  return shares;
}

/** What a discount's product part needs: its type, value and product relation. */
export type ProductPartRule = Pick<DiscountSettings, 'discountType' | 'value' | 'relationWithProducts' | 'productIds' | 'productCategoryIds'>;

/**
 * What a discount takes off each line it takes in (by line index; lines not taken in are absent),
 * computed on each line's `price` as given (catalogue price, or what earlier discounts left):
 * - percentage types: that percentage of the line, rounded per line to cents half up;
 * - value types (per order): the value, at most the eligible lines' worth, spread pro rata;
 * - value per product: the value off each unit, at most the line (min(value × quantity, price));
 * - unit_price_discount: each unit brought down to the target price (value), so the line costs at
 *   most target × quantity; a line already at or below it keeps its price (quantity multiplies).
 */
export function lineDiscounts(rule: ProductPartRule, lines: readonly DiscountLine[]): Map<number, Decimal> {
  const eligible = lines.map((line, index) => ({ line, index })).filter(({ line }) => lineEligible(rule, line));
  const amounts = new Map<number, Decimal>();
  const value = money(rule.value ?? 0);
  const type = rule.discountType;

  if (PERCENTAGE_TYPES.includes(type)) {
    const percent = Money.min(value, 100);
    for (const { line, index } of eligible) amounts.set(index, cents(money(line.price).times(percent).dividedBy(100)));
  } else if (ORDER_VALUE_TYPES.includes(type)) {
    const prices = eligible.map(({ line }) => money(line.price));
    const worth = prices.reduce((sum, p) => sum.plus(p), ZERO);
    const shares = spreadProRata(Money.min(cents(value), worth), prices);
    eligible.forEach(({ index }, i) => amounts.set(index, shares[i]!));
  } else if (PER_PRODUCT_TYPES.includes(type)) {
    for (const { line, index } of eligible) amounts.set(index, Money.min(cents(value).times(line.quantity), money(line.price)));
  } else if (type === 'unit_price_discount') {
    for (const { line, index } of eligible) amounts.set(index, Money.max(money(line.price).minus(cents(value).times(line.quantity)), 0));
  }
  return amounts;
}

/**
 * What the code takes off this cart, per line and on the delivery (Medusa: compute-actions): the
 * product part by `lineDiscounts`; free delivery (alone or combined) the whole delivery cost, when
 * the delivery relation takes in the chosen delivery type; free_contents nothing (the contents
 * come with the order).
 */
export function codeAdjustments(code: CodeSnapshot, cart: DiscountCart): Adjustment[] {
  const label = codeLabel(code);
  const actions: Adjustment[] = [];
  for (const [line, amount] of [...lineDiscounts(code, cart.lines)].sort(([a], [b]) => a - b)) {
    if (amount.greaterThan(0)) actions.push({ action: 'addItemAdjustment', line, amount: toMoneyString(amount), code: label });
  }
  if (FREE_DELIVERY_TYPES.includes(code.discountType) && cart.delivery && deliveryEligible(code, cart.delivery) && money(cart.delivery.cost).greaterThan(0)) {
    actions.push({ action: 'addShippingAdjustment', amount: toMoneyString(cart.delivery.cost), code: label });
  }
  return actions;
}

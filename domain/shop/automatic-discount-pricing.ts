/**
 * Automatic discounts at checkout (spec: Automatic discounts; DESIGN.md section 7, "Checkout"),
 * pure: which of the shop's automatic discounts apply to this buyer and cart
 * (`automaticDiscountApplies`), and what they take off together (`automaticAdjustments`: the best
 * one per line). No I/O, no clock: `now`, the buyer's consent and the counters come in. The usage
 * limit is settled for good when the order is stored; the check here only leaves out a discount
 * already used up.
 */
import type { Decimal } from 'decimal.js';
import { money, toMoneyString } from '../shared/money.ts';
import { lineDiscounts, type DiscountCart } from './discount-code-pricing.ts';
import { ORDER_DISCOUNT_TYPES, type AutomaticDiscountKind } from './automatic-discount-rules.ts';
import type { ProductRelation } from './discount-rules.ts';
import type { ItemAdjustment } from './adjustments.ts';

/**
 * The types checkout applies: the order types. The time-limited price-history types
 * (`percentage_product_discount`, `value_product_discount`) change the catalogue prices themselves
 * while they run, so the cart already carries them; applying them again here would count them twice.
 */
export const CART_AUTOMATIC_TYPES = ORDER_DISCOUNT_TYPES;
type CartAutomaticType = (typeof CART_AUTOMATIC_TYPES)[number];

/** What checkout needs of an automatic discount (any of the four resources). */
export interface AutomaticDiscountSnapshot {
  id: number;
  kind: AutomaticDiscountKind;
  /** Any stored type; only `CART_AUTOMATIC_TYPES` apply at checkout. */
  discountType: string;
  value: string;
  relationWithProducts: ProductRelation;
  productIds: readonly number[];
  productCategoryIds: readonly number[];
  usagesLimit: number | null;
  usages: number;
  active: boolean;
  /** email-address discounts. */
  email: string | null;
  /** email-domain discounts. */
  emailDomain: string | null;
  /** newsletter discounts: products cost (before discounts) from which it applies. */
  minimumOrderValue: string | null;
  /** email-address (optional) and time-limited (required) discounts: [start, end). */
  startDate: Date | null;
  endDate: Date | null;
}

/** What the discounts know of the buyer. */
export interface Buyer {
  email: string;
  /** Newsletter consent: given with this order, or an existing sign-up of the address. */
  newsletter: boolean;
}

/** The label an adjustment from an automatic discount carries (`auto:<kind>:<id>`). */
export const automaticLabel = (discount: Pick<AutomaticDiscountSnapshot, 'id' | 'kind'>) => `auto:${discount.kind}:${discount.id}`;

const isCartType = (type: string): type is CartAutomaticType => (CART_AUTOMATIC_TYPES as readonly string[]).includes(type);

const normalDomain = (domain: string) => domain.trim().toLowerCase().replace(/^@/, '');
const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

function withinDates(discount: Pick<AutomaticDiscountSnapshot, 'startDate' | 'endDate'>, now: Date): boolean {
  if (discount.startDate && now.getTime() < discount.startDate.getTime()) return false;
  return !(discount.endDate && now.getTime() >= discount.endDate.getTime());
}

/**
 * Whether the discount applies to this buyer and cart now: active, not used up, a type checkout
 * applies, and its own rule:
 * - email address: the buyer's address (ignoring case), within its dates when it has them;
 * - email domain: the part after `@` equals the domain (ignoring case and a leading `@`; a
 *   subdomain is another domain);
 * - newsletter: the buyer consents, and the products cost before discounts reaches
 *   `minimum_order_value` (equal passes);
 * - time-limited: now within [start, end).
 */
export function automaticDiscountApplies(discount: AutomaticDiscountSnapshot, buyer: Buyer, cart: Pick<DiscountCart, 'productsCost'>, now: Date): boolean {
  if (!discount.active || !isCartType(discount.discountType)) return false;
  if (discount.usagesLimit !== null && discount.usages >= discount.usagesLimit) return false;
  switch (discount.kind) {
    case 'email_address':
      return discount.email !== null && discount.email.trim().toLowerCase() === buyer.email.toLowerCase() && withinDates(discount, now);
    case 'email_domain':
      return discount.emailDomain !== null && normalDomain(discount.emailDomain) === domainOf(buyer.email);
    case 'newsletter':
      return buyer.newsletter && (discount.minimumOrderValue === null || money(cart.productsCost).greaterThanOrEqualTo(discount.minimumOrderValue));
    case 'time_limited':
      return withinDates(discount, now);
  }
}

/**
 * What the applying discounts take off together: each line gets the one discount that takes the
 * most off it (the best for the buyer; on a tie the lowest id), never two. Each discount's amounts
 * are computed on the whole cart by its rule (`lineDiscounts`), so an order value keeps its pro
 * rata shares on the lines where it wins and gives up the rest. Free delivery is not a type of the
 * automatic discounts.
 */
export function automaticAdjustments(discounts: readonly AutomaticDiscountSnapshot[], cart: DiscountCart): ItemAdjustment[] {
  const best = new Map<number, { amount: Decimal; label: string }>();
  for (const discount of [...discounts].sort((a, b) => a.id - b.id)) {
    const { discountType } = discount;
    if (!isCartType(discountType)) continue;
    for (const [line, amount] of lineDiscounts({ ...discount, discountType }, cart.lines)) {
      const current = best.get(line);
      if (amount.greaterThan(current?.amount ?? 0)) best.set(line, { amount, label: automaticLabel(discount) });
    }
  }
  return [...best]
    .sort(([a], [b]) => a - b)
    .map(([line, { amount, label }]): ItemAdjustment => ({ action: 'addItemAdjustment', line, amount: toMoneyString(amount), code: label }));
}

/**
 * Pricing of a cart (DESIGN.md section 7, "Checkout"): a pure function from a cart context, and
 * the adjustments promotions ask for, to every amount of the order. No I/O; decimal arithmetic
 * only (domain/shared/money.ts). `priceCheckout` (below) is checkout's one entry point: the cart
 * (product set lines included), the discount code and the automatic discounts, combined.
 *
 * Modelled on Medusa's promotion module: a discount is not computed here but arrives as a list of
 * adjustment actions (`addItemAdjustment` on a line, `addShippingAdjustment` on the delivery);
 * this module applies them without taking a line or the delivery below zero. The discounts work
 * adds the step that turns codes and automatic discounts into such actions; nothing here changes.
 *
 * Amounts are gross. Per line: unit_price, price = unit × quantity, discount, final_price =
 * price − discount, vat = final_price × rate / (100 + rate) rounded half up to cents. Order:
 * products_cost = Σ price, total_discount = Σ line discounts + delivery discount,
 * total = products_cost + delivery_cost + payment_cost + gift_packing_cost − total_discount.
 */
import type { Decimal } from 'decimal.js';
import { cents, money, Money, toMoneyString, ZERO } from '../shared/money.ts';
import { vatOfGross } from './vat.ts';
import type { Adjustment, ItemAdjustment } from './adjustments.ts';
import { automaticAdjustments, automaticDiscountApplies, automaticLabel, type AutomaticDiscountSnapshot, type Buyer } from './automatic-discount-pricing.ts';
import { codeAdjustments, codeRefusal, type CodeSnapshot, type DiscountCart } from './discount-code-pricing.ts';

/** What the pricing needs to know of a product, read when the cart is priced. */
export interface ProductSnapshot {
  id: number;
  name: string;
  sku: string;
  /** Gross catalogue price, "12.50". */
  price: string;
  vatRate: number;
  active: boolean;
  allowPriceChange: boolean;
  minimalPrice: string | null;
  allowZeroMinimalPrice: boolean;
  electronic: boolean;
  /** Delivery types the product may be sent with; empty means any. */
  deliveryTypeIds: readonly number[];
  /** Payment types the product may be paid with; empty means any. */
  paymentTypeIds: readonly number[];
  cartQuantityLimit: number | null;
  /** The product's main categories (for the discounts' category relations). */
  categoryIds?: readonly number[];
}

export interface CartLine {
  product: ProductSnapshot;
  quantity: number;
  /** The buyer's own unit price (products with allow_price_change), "30.00". */
  price?: string | null;
  /**
   * A product set's line: its share of the set's price, the whole line's price (not per unit).
   * Its unit_price is that share divided by the quantity, rounded half up (for display).
   */
  setPrice?: string | null;
  /** The request field this line's problems are reported on; default `items.N` and the sub-field. */
  field?: string;
}

/** A delivery or payment type chosen for the cart. */
export interface ChargeType {
  id: number;
  defaultPrice: string;
  vatRate: number;
  /** Delivery types: sent within the country (the discount code's domestic relation). */
  domestic?: boolean;
}

export interface CartContext {
  lines: readonly CartLine[];
  delivery?: ChargeType | null;
  payment?: ChargeType | null;
}

export type { Adjustment, ItemAdjustment };

export interface AppliedAdjustment {
  code: string;
  amount: string;
}

export interface PricedLine {
  productId: number;
  name: string;
  sku: string;
  quantity: number;
  unitPrice: string;
  vatRate: number;
  price: string;
  discount: string;
  finalPrice: string;
  vat: string;
  electronic: boolean;
  adjustments: AppliedAdjustment[];
}

export interface PricedCart {
  lines: PricedLine[];
  productsCost: string;
  deliveryCost: string;
  deliveryDiscount: string;
  deliveryVat: string;
  paymentCost: string;
  paymentVat: string;
  giftPackingCost: string;
  totalDiscount: string;
  total: string;
  deliveryAdjustments: AppliedAdjustment[];
}

export type PricingErrorCode =
  | 'empty_cart'
  | 'inactive_product'
  | 'price_change_not_allowed'
  | 'below_minimal_price'
  | 'zero_price_not_allowed'
  | 'quantity_above_limit'
  | 'delivery_type_not_allowed'
  | 'payment_type_not_allowed'
  | 'amount_too_large'
  | 'product_set_refused'
  | 'discount_code_refused';

/** Why a cart cannot be priced, naming the request field at fault (`items.0.price`). */
export interface PricingError {
  field: string;
  code: PricingErrorCode;
  message: string;
}

export type PricingResult = { ok: true; cart: PricedCart } | { ok: false; errors: PricingError[] };

/** The largest amount a numeric(12,2) column holds. */
export const MAX_AMOUNT = money('9999999999.99');

/** Problems of the cart itself, before any amount is computed. */
export function cartErrors(context: CartContext): PricingError[] {
  const errors: PricingError[] = [];
  if (context.lines.length === 0) errors.push({ field: 'items', code: 'empty_cart', message: 'must hold at least one product' });
  const quantities = new Map<number, number>();
  context.lines.forEach((line, index) => {
    const { product } = line;
    const at = (sub: string) => line.field ?? `items.${index}.${sub}`;
    const named = line.field ? `product ${product.id}: ` : '';
    if (!product.active) errors.push({ field: at('product_id'), code: 'inactive_product', message: `${named}is not an active product` });
    errors.push(...buyerPriceErrors(line, at('price')));
    const soFar = (quantities.get(product.id) ?? 0) + line.quantity;
    quantities.set(product.id, soFar);
    if (product.cartQuantityLimit !== null && soFar > product.cartQuantityLimit) {
      errors.push({ field: at('quantity'), code: 'quantity_above_limit', message: `${named}at most ${product.cartQuantityLimit} of this product per order` });
    }
    const { delivery, payment } = context;
    if (delivery && product.deliveryTypeIds.length > 0 && !product.deliveryTypeIds.includes(delivery.id)) {
      pushOnce(errors, { field: 'delivery_type_id', code: 'delivery_type_not_allowed', message: `product ${product.id} cannot be sent with this delivery type` });
    }
    if (payment && product.paymentTypeIds.length > 0 && !product.paymentTypeIds.includes(payment.id)) {
      pushOnce(errors, { field: 'payment_type_id', code: 'payment_type_not_allowed', message: `product ${product.id} cannot be paid with this payment type` });
    }
  });
  return errors;
}

function pushOnce(errors: PricingError[], error: PricingError) {
  if (!errors.some((e) => e.field === error.field && e.message === error.message)) errors.push(error);
}

/**
 * The buyer's price: only for allow_price_change products (the catalogue price itself is always
 * accepted), never below minimal_price, and zero only with allow_zero_minimal_price.
 */
function buyerPriceErrors({ product, price }: CartLine, field: string): PricingError[] {
  if (price === undefined || price === null) return [];
  const offered = money(price);
  if (!product.allowPriceChange) {
    return offered.equals(product.price) ? [] : [{ field, code: 'price_change_not_allowed', message: 'this product is sold at its catalogue price only' }];
  }
  if (offered.isZero() && !product.allowZeroMinimalPrice) return [{ field, code: 'zero_price_not_allowed', message: 'must be above zero' }];
  const minimal = money(product.minimalPrice ?? 0);
  if (offered.lessThan(minimal)) return [{ field, code: 'below_minimal_price', message: `must be at least the minimal price ${toMoneyString(minimal)}` }];
  return [];
}

function unitPriceOf({ product, price, setPrice, quantity }: CartLine): Decimal {
  if (setPrice != null) return cents(money(setPrice).dividedBy(quantity));
  return cents(product.allowPriceChange && price != null ? price : product.price);
}

/**
 * Applies adjustments to amounts in the order given: each takes at most what is left of its
 * target, so stacked promotions never take a line or the delivery below zero.
 */
function allocate(remaining: Decimal, requests: readonly { amount: string; code: string }[]): { taken: Decimal; applied: AppliedAdjustment[] } {
  let left = remaining;
  const applied: AppliedAdjustment[] = [];
  for (const request of requests) {
    const amount = Money.min(cents(request.amount), left);
    if (amount.lessThanOrEqualTo(0)) continue;
    left = left.minus(amount);
    applied.push({ code: request.code, amount: toMoneyString(amount) });
  }
  return { taken: remaining.minus(left), applied };
}

/** Every amount of the order, or the reasons the cart cannot be placed. */
export function priceCart(context: CartContext, adjustments: readonly Adjustment[] = []): PricingResult {
  const errors = cartErrors(context);
  if (errors.length > 0) return { ok: false, errors };

  let productsCost = ZERO;
  let linesDiscount = ZERO;
  const lines = context.lines.map((line, index): PricedLine => {
    const unit = unitPriceOf(line);
    const price = line.setPrice != null ? cents(line.setPrice) : unit.times(line.quantity);
    const requests = adjustments.filter((a) => a.action === 'addItemAdjustment' && a.line === index);
    const { taken: discount, applied } = allocate(price, requests);
    const finalPrice = price.minus(discount);
    productsCost = productsCost.plus(price);
    linesDiscount = linesDiscount.plus(discount);
    return {
      productId: line.product.id,
      name: line.product.name,
      sku: line.product.sku,
      quantity: line.quantity,
      unitPrice: toMoneyString(unit),
      vatRate: line.product.vatRate,
      price: toMoneyString(price),
      discount: toMoneyString(discount),
      finalPrice: toMoneyString(finalPrice),
      vat: toMoneyString(vatOfGross(finalPrice, line.product.vatRate)),
      electronic: line.product.electronic,
      adjustments: applied,
    };
  });

  const deliveryCost = cents(context.delivery?.defaultPrice ?? 0);
  const shipping = allocate(deliveryCost, adjustments.filter((a) => a.action === 'addShippingAdjustment'));
  const paymentCost = cents(context.payment?.defaultPrice ?? 0);
  const giftPackingCost = ZERO;
  const totalDiscount = linesDiscount.plus(shipping.taken);
  const total = productsCost.plus(deliveryCost).plus(paymentCost).plus(giftPackingCost).minus(totalDiscount);

  if (productsCost.plus(deliveryCost).plus(paymentCost).greaterThan(MAX_AMOUNT)) {
    return { ok: false, errors: [{ field: 'items', code: 'amount_too_large', message: `the order amounts exceed the largest storable amount ${toMoneyString(MAX_AMOUNT)}` }] };
  }

  return {
    ok: true,
    cart: {
      lines,
      productsCost: toMoneyString(productsCost),
      deliveryCost: toMoneyString(deliveryCost),
      deliveryDiscount: toMoneyString(shipping.taken),
      deliveryVat: toMoneyString(vatOfGross(deliveryCost.minus(shipping.taken), context.delivery?.vatRate ?? 0)),
      paymentCost: toMoneyString(paymentCost),
      paymentVat: toMoneyString(vatOfGross(paymentCost, context.payment?.vatRate ?? 0)),
      giftPackingCost: toMoneyString(giftPackingCost),
      totalDiscount: toMoneyString(totalDiscount),
      total: toMoneyString(total),
      deliveryAdjustments: shipping.applied,
    },
  };
}

// ---- Checkout: the code and the automatic discounts ---------------------------------------------

export interface Checkout {
  context: CartContext;
  /** The code the buyer typed and the shop's code it names (null when none does); null without. */
  code: { typed: string; snapshot: CodeSnapshot | null } | null;
  /** The shop's automatic discounts (all four kinds); those that apply are picked here. */
  automaticDiscounts: readonly AutomaticDiscountSnapshot[];
  buyer: Buyer;
  now: Date;
  /** `free_delivery_minimum_amount` of the plans the buyer is an active subscriber of (subscriberFreeDelivery). */
  subscriberPlanMinimums?: readonly string[];
}

export type CheckoutResult =
  | { ok: true; cart: PricedCart; code: CodeSnapshot | null; automaticDiscountIds: number[] }
  | { ok: false; errors: PricingError[] };

/** The priced cart as the discounts see it, each line at what the `before` adjustments left of it. */
function discountCart(context: CartContext, cart: PricedCart, before: readonly Adjustment[] = []): DiscountCart {
  return {
    lines: cart.lines.map((line, index) => {
      const taken = before.reduce((sum, a) => (a.action === 'addItemAdjustment' && a.line === index ? sum.plus(a.amount) : sum), ZERO);
      return {
        productId: line.productId,
        categoryIds: context.lines[index]?.product.categoryIds ?? [],
        quantity: line.quantity,
        price: toMoneyString(Money.max(money(line.price).minus(taken), 0)),
      };
    }),
    productsCost: cart.productsCost,
    delivery: context.delivery ? { id: context.delivery.id, domestic: context.delivery.domestic ?? true, cost: cart.deliveryCost } : null,
  };
}

const worth = (adjustments: readonly Adjustment[]) => adjustments.reduce((sum, a) => sum.plus(a.amount), ZERO);

/**
 * Checkout: the cart priced with the discount code and the automatic discounts (docs/decisions/,
 * "Checkout pricing"). The code is checked against the cart at catalogue (or set, or buyer) prices
 * (422 naming `discount_code`); the automatic discounts that apply give each line the best one.
 * A code with `combine_with_other_discount` then comes on top, computed on what the automatic
 * discounts left of each line; a code without it is used only when it takes at least as much off
 * the order as the automatic discounts together, else they are used and the code is not (nor
 * counted). Returns the code used and the automatic discounts that took something off.
 */
export function priceCheckout(input: Checkout): CheckoutResult {
  const plain = priceCart(input.context);
  if (!plain.ok) return plain;
  const cart = discountCart(input.context, plain.cart);
  const code = input.code?.snapshot ?? null;
  if (input.code) {
    const refusal = codeRefusal(code, input.code.typed, cart, input.now);
    if (refusal) return { ok: false, errors: [{ field: 'discount_code', code: 'discount_code_refused', message: refusal }] };
  }
  const applying = input.automaticDiscounts.filter((d) => automaticDiscountApplies(d, input.buyer, cart, input.now));
  const automatic = automaticAdjustments(applying, cart);

  let adjustments: Adjustment[] = automatic;
  let used: CodeSnapshot | null = null;
  if (code?.combineWithOtherDiscount) {
    adjustments = [...automatic, ...codeAdjustments(code, discountCart(input.context, plain.cart, automatic))];
    used = code;
  } else if (code) {
    const alone = codeAdjustments(code, cart);
    if (worth(alone).greaterThanOrEqualTo(worth(automatic))) [adjustments, used] = [alone, code];
  }

  let priced = priceCart(input.context, adjustments);
  if (!priced.ok) return priced;
  // A subscriber's free delivery comes after the discounts: its minimum counts the products at
  // what the discounts left of them, and it takes what of the delivery they did not.
  const afterDiscounts = priced.cart.lines.reduce((sum, line) => sum.plus(line.finalPrice), ZERO);
  const free = subscriberFreeDelivery(input.subscriberPlanMinimums ?? [], toMoneyString(afterDiscounts), priced.cart.deliveryCost);
  if (free) {
    priced = priceCart(input.context, [...adjustments, free]);
    if (!priced.ok) return priced;
  }
  const labels = new Set(priced.cart.lines.flatMap((line) => line.adjustments.map((a) => a.code)));
  const automaticDiscountIds = applying.filter((d) => labels.has(automaticLabel(d))).map((d) => d.id);
  return { ok: true, cart: priced.cart, code: used, automaticDiscountIds };
}

export const SUBSCRIBER_FREE_DELIVERY = 'subscriber_free_delivery';

/**
 * Free delivery of a subscriber (a plan's `free_delivery_minimum_amount`): when the buyer holds an
 * active subscription of a plan with a minimum, and the products after their line discounts reach
 * the lowest such minimum, a shipping adjustment for the whole delivery cost. Null otherwise
 * (no plan with a minimum, the amount not reached, or nothing to deliver for).
 */
export function subscriberFreeDelivery(planMinimums: readonly (string | null)[], productsAfterDiscounts: string, deliveryCost: string): Adjustment | null {
  const minimums = planMinimums.filter((m): m is string => m !== null).map((m) => cents(m));
  if (minimums.length === 0 || !cents(deliveryCost).greaterThan(0)) return null;
  const lowest = minimums.reduce((a, b) => (b.lessThan(a) ? b : a));
  if (cents(productsAfterDiscounts).lessThan(lowest)) return null;
  return { action: 'addShippingAdjustment', amount: toMoneyString(deliveryCost), code: SUBSCRIBER_FREE_DELIVERY };
}

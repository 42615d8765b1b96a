/**
 * Pricing of a cart (DESIGN.md section 7, "Checkout"): a pure function from a cart context, and
 * the adjustments promotions ask for, to every amount of the order. No I/O; decimal arithmetic
 * only (domain/shared/money.ts).
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
}

export interface CartLine {
  product: ProductSnapshot;
  quantity: number;
  /** The buyer's own unit price (products with allow_price_change), "30.00". */
  price?: string | null;
}

/** A delivery or payment type chosen for the cart. */
export interface ChargeType {
  id: number;
  defaultPrice: string;
  vatRate: number;
}

export interface CartContext {
  lines: readonly CartLine[];
  delivery?: ChargeType | null;
  payment?: ChargeType | null;
}

/** A promotion's request to lower an amount (Medusa: compute-actions). `code` names its source. */
export type Adjustment =
  | { action: 'addItemAdjustment'; line: number; amount: string; code: string }
  | { action: 'addShippingAdjustment'; amount: string; code: string };

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
  | 'amount_too_large';

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
    const at = `items.${index}`;
    if (!product.active) errors.push({ field: `${at}.product_id`, code: 'inactive_product', message: 'is not an active product' });
    errors.push(...buyerPriceErrors(line, at));
    const soFar = (quantities.get(product.id) ?? 0) + line.quantity;
    quantities.set(product.id, soFar);
    if (product.cartQuantityLimit !== null && soFar > product.cartQuantityLimit) {
      errors.push({ field: `${at}.quantity`, code: 'quantity_above_limit', message: `at most ${product.cartQuantityLimit} of this product per order` });
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
function buyerPriceErrors({ product, price }: CartLine, at: string): PricingError[] {
  if (price === undefined || price === null) return [];
  const field = `${at}.price`;
  const offered = money(price);
  if (!product.allowPriceChange) {
    return offered.equals(product.price) ? [] : [{ field, code: 'price_change_not_allowed', message: 'this product is sold at its catalogue price only' }];
  }
  if (offered.isZero() && !product.allowZeroMinimalPrice) return [{ field, code: 'zero_price_not_allowed', message: 'must be above zero' }];
  const minimal = money(product.minimalPrice ?? 0);
  if (offered.lessThan(minimal)) return [{ field, code: 'below_minimal_price', message: `must be at least the minimal price ${toMoneyString(minimal)}` }];
  return [];
}

function unitPriceOf({ product, price }: CartLine): Decimal {
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
    const price = unit.times(line.quantity);
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

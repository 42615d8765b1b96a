/**
 * Placing an order (DESIGN.md sections 8 and 9): the one use case behind the operator's placement
 * `POST /admin/v1/shops/:shop_id/orders` and the storefront's checkout, with its input
 * (`PlaceOrderInput`, schemas.ts). `priceOrder` prices what a placement would place (the
 * storefront's carts price through it too), `placeOrder` stores it.
 * Every amount comes from the pricing module; every refusal is a 422 naming the field, and nothing
 * is stored before all checks passed.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { IShop } from '../../../db/entities/shop/index.ts';
import { storedPlacedIp } from '../../../domain/shop/order-lifecycle.ts';
import { insertOrder, ProductPricesChanged, ProductsUnavailable, type PlacedOrderRow } from '../../../db/repositories/shop/order-placement.ts';
import { DiscountCodeRefused } from '../../../db/repositories/shop/discount-codes.ts';
import { AutomaticDiscountUsedUp } from '../../../db/repositories/shop/checkout.ts';
import { ADDRESS_FIELDS, type OrderAddress } from '../../../domain/shop/order.ts';
import { priceCheckout, type CartLine } from '../../../domain/shop/pricing.ts';
import { addPricingErrors, pricingProblems } from '../../../domain/shop/pricing-inputs.ts';
import { fieldErrorMap, unprocessable, type FieldErrors } from '../../shared/validation-errors.ts';
import type { WorkflowStarter } from '../../shared/workflow-starts/index.ts';
import { signUpWithSequences } from '../shared/newsletter-sign-up.ts';
import type { PrefetchedReads } from '../../../db/repositories/shop/checkout-reads.ts';
import { prepareCheckout, type CheckoutOptions } from './checkout-context.ts';
import type { PlaceOrderInput } from './schemas.ts';

/** An address with all ten fields, '' for those not sent; null when none was sent. */
function storedAddress(input: PlaceOrderInput['delivery_address']): OrderAddress | null {
  if (!input) return null;
  return Object.fromEntries(ADDRESS_FIELDS.map((field) => [field, input[field] ?? ''])) as OrderAddress;
}

/** A product removed, hidden or switched off while the order was priced, named as the request named it. */
function unavailable(lines: readonly CartLine[], productIds: readonly number[]): FieldErrors {
  const errors = fieldErrorMap();
  const message = 'is no longer available (removed, hidden or inactive)';
  lines.forEach((line, index) => {
    if (!productIds.includes(line.product.id)) return;
    const field = line.field ?? `items.${index}.product_id`;
    if (field === 'product_set_id') (errors[field] ??= []).push(`product ${line.product.id} ${message}`);
    else errors[field] = [message];
  });
  return errors;
}

/**
 * The placement priced without storing anything: what `placeOrder` would charge for `body` now
 * (the storefront's cart shows it), with what was read for it (the products of its lines, the
 * active delivery and payment types, with `recommendations` those of its products). A refusal is
 * the placement's 422.
 */
export async function priceOrder(em: EntityManager, shop: PlacingShop, body: PlaceOrderInput, options: Pick<CheckoutOptions, 'recommendations' | 'prefetched'> = {}) {
  const { checkout, reads } = await prepareCheckout(em, shop.id, body, options);
  const priced = priceCheckout(checkout);
  if (!priced.ok) throw unprocessable(addPricingErrors(pricingProblems(), priced.errors));
  const { deliveryTypes, paymentTypes, recommendations } = reads;
  return { ...priced, products: checkout.context.lines.map((line) => line.product), deliveryTypes, paymentTypes, recommendations };
}

/** What the placement needs of the shop (the storefront passes what it keeps of it, api/storefront/shop.ts). */
/** `timeZone`: the shop's (the `placed_ip` cutoff is its local midnight); Europe/Warsaw when not read. */
export type PlacingShop = Pick<IShop, 'id' | 'currency'> & { timeZone?: string };

export interface PlacementDeps {
  workflows: WorkflowStarter;
}

export interface PlacementOptions {
  /** The storefront cart placed: its id becomes the order's `uuid` (a random one when unset) and it is marked checked out with the order. */
  cartId?: string;
  /** The placement's read, made with the cart's (checkout-reads.ts `useCartWithReads`). */
  prefetched?: PrefetchedReads;
}

/** The order a placement stored. */
export interface PlacedOrder {
  id: number;
  ordinalNumber: number;
  total: string;
  /** The shop's gateway is Stripe (with a key) as read with the order: its payment can be started. */
  stripeGateway: boolean;
}

/**
 * Places an order at catalogue prices (or the buyer's price for allow_price_change products), placed,
 * unpaid, at the New status: usage limits counted with the order, the shop's next ordinal number.
 */
export async function placeOrder(deps: PlacementDeps, em: EntityManager, shop: PlacingShop, body: PlaceOrderInput, options: PlacementOptions = {}): Promise<PlacedOrder> {
  const prepared = await prepareCheckout(em, shop.id, body, { statuses: true, prefetched: options.prefetched });
  const { email } = prepared;
  const { delivery, payment } = prepared.reads;
  let { checkout } = prepared;
  const newStatus = prepared.reads.statuses.find((s) => s.kind === 'NewDefaultOrderStatus');
  if (!newStatus) throw new Error(`shop ${shop.id} has no New status`);
  const placedAt = body.placed_at ? new Date(body.placed_at) : new Date();
  // An automatic discount used up by a concurrent order is left out and the cart priced again
  // (the buyer did not ask for it); each round leaves out one more, so this ends. A catalogue
  // price changed since the read (a time-limited discount began or ended) reads the lines again.
  const usedUp = new Set<number>();
  let placed: PlacedOrderRow | null = null;
  let total = '0.00';
  while (placed === null) {
    const priced = priceCheckout({ ...checkout, automaticDiscounts: checkout.automaticDiscounts.filter((d) => !usedUp.has(d.id)) });
    if (!priced.ok) throw unprocessable(addPricingErrors(pricingProblems(), priced.errors));
    const { code } = priced;
    const { lines } = checkout.context;
    total = priced.cart.total;
    placed = await insertOrder(em, {
      shopId: shop.id,
      uuid: options.cartId,
      cartId: options.cartId,
      currency: shop.currency,
      statusId: newStatus.id,
      placedStart: { taskQueue: deps.workflows.taskQueue },
      email,
      cart: priced.cart,
      delivery: delivery && { id: delivery.id, name: delivery.name, vatRate: delivery.vatRate },
      payment: payment && { id: payment.id, name: payment.name, vatRate: payment.vatRate, cashOnDelivery: payment.cashOnDelivery ?? false },
      newsletter: body.newsletter,
      deliveryAddress: storedAddress(body.delivery_address),
      invoiceAddress: storedAddress(body.invoice_address),
      comment: body.comment,
      ref: body.ref || null,
      placedIp: storedPlacedIp(body.placed_ip, placedAt, shop.timeZone),
      placedAt,
      deliveryPointCode: body.delivery_point_code,
      invoiceRecipientName: body.invoice_recipient_name,
      orderAttributes: body.order_attributes,
      analyticsClientId: body.analytics_client_id,
      discount: code && { id: code.id, code: code.code, perCustomerLimit: code.usagesPerCustomerLimit },
      automaticDiscountIds: priced.automaticDiscountIds,
      pricedAt: new Map(lines.map((line) => [line.product.id, line.product.price])),
    }).catch(async (error: unknown) => {
      if (error instanceof AutomaticDiscountUsedUp) {
        usedUp.add(error.discountId);
        return null;
      }
      if (error instanceof ProductPricesChanged) {
        checkout = await prepared.readLinesAgain();
        return null;
      }
      // A limit reached by a concurrent order: nothing is stored.
      if (error instanceof DiscountCodeRefused) throw unprocessable({ discount_code: [error.message] });
      if (error instanceof ProductsUnavailable) throw unprocessable(unavailable(lines, error.productIds));
      throw error;
    });
  }
  // Consent given with the order signs the buyer up as the newsletter endpoint does (its sequences
  // recorded with the sign-up: they start when Temporal is reachable).
  if (body.newsletter) await signUpWithSequences(deps.workflows, em, shop.id, email);
  // The order confirmation (the New status's own effects, DESIGN.md section 10), the statuses set
  // automatically after New and a zero-total order's fulfilment, when there is any of them: recorded
  // by the placing statement, sent once committed (later when Temporal is down).
  const { id: orderId, ordinalNumber } = placed;
  await deps.workflows.startRecorded(placed.placedStart);
  return { id: orderId, ordinalNumber, total, stripeGateway: prepared.reads.stripeGateway };
}

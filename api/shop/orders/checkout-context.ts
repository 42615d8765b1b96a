/**
 * What the pricing module is given for a placement (the operator's, the storefront's carts and
 * checkout): the shop's side read in one statement (db/repositories/shop/checkout-reads.ts; a
 * product set's items before it), the 422s of what the body names that the shop does not have.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { IProductSet } from '../../../db/entities/shop/index.ts';
import { productSetForCheckout } from '../../../db/repositories/shop/checkout.ts';
import { readCheckout, readFor, type CheckoutReads, type PrefetchedReads } from '../../../db/repositories/shop/checkout-reads.ts';
import type { CartLine, Checkout, PricingError, ProductSnapshot } from '../../../domain/shop/pricing.ts';
import { productSetLines } from '../../../domain/shop/product-set-pricing.ts';
import { unprocessable, type FieldErrors } from '../../shared/validation-errors.ts';
import { productSetSnapshot } from '../../admin/shops/checkout-inputs.ts';
import type { PlaceOrderInput } from '../../admin/shops/order-schemas.ts';

export function addErrors(errors: FieldErrors, problems: readonly PricingError[]): FieldErrors {
  for (const problem of problems) (errors[problem.field] ??= []).push(problem.message);
  return errors;
}

/**
 * The cart lines of the placement: the items as sent, or a product set's lines (in pool mode the
 * buyer's picks), each set line carrying its share of the set price. Collects 422s in `errors`.
 */
export function cartLinesOf(body: PlaceOrderInput, set: IProductSet | null, read: readonly ProductSnapshot[], errors: FieldErrors): CartLine[] {
  const products = new Map(read.map((p) => [p.id, p]));
  if (body.product_set_id == null) {
    body.items.forEach((line, index) => {
      if (!products.has(line.product_id)) errors[`items.${index}.product_id`] = ['is not a product of this shop'];
    });
    return body.items.flatMap((line) => {
      const product = products.get(line.product_id);
      return product ? [{ product, quantity: line.quantity, price: line.price }] : [];
    });
  }
  if (!set) {
    errors.product_set_id = ['is not a product set of this shop'];
    return [];
  }
  const lines = productSetLines({
    set: productSetSnapshot(set),
    picks: body.items.map((item) => ({ productId: item.product_id, quantity: item.quantity, price: item.price })),
    viaLink: body.via_set_link,
    paymentTypeId: body.payment_type_id ?? null,
    catalogue: new Map([...products.values()].map((p) => [p.id, p.price])),
  });
  if (!lines.ok) {
    addErrors(errors, lines.errors);
    return [];
  }
  return lines.lines.map((line) => ({ product: products.get(line.productId)!, quantity: line.quantity, setPrice: line.setPrice, field: line.field }));
}

export interface PreparedCheckout {
  email: string;
  lines: CartLine[];
  reads: CheckoutReads;
  checkout: Checkout;
  /** Reads the lines' products again (a price changed meanwhile); collects 422s in `errors`. */
  readLinesAgain(errors: FieldErrors): Promise<CartLine[]>;
}

export interface CheckoutOptions {
  statuses?: boolean;
  recommendations?: boolean;
  /** A read made with the cart's (checkout-reads.ts `useCartWithReads`): used when it was made for what this checkout reads. */
  prefetched?: PrefetchedReads;
}

/** What the pricing module is given for `body`, read from the shop (422 for unknown products, set, delivery or payment). */
export async function prepareCheckout(em: EntityManager, shopId: string, body: PlaceOrderInput, errors: FieldErrors, { prefetched, ...parts }: CheckoutOptions = {}): Promise<PreparedCheckout> {
  const email = body.email.toLowerCase();
  const set = body.product_set_id == null ? null : await productSetForCheckout(em, body.product_set_id);
  const productIds = set ? set.items.getItems().map((item) => item.product.id) : [...new Set(body.items.map((i) => i.product_id))];
  const typed = body.discount_code?.trim() ?? '';
  const input = { productIds, deliveryTypeId: body.delivery_type_id ?? null, paymentTypeId: body.payment_type_id ?? null, typedCode: typed, email, now: new Date(), ...parts };
  const read = readFor(prefetched, input);
  if (read) input.now = read.input.now;
  const reads = read ? read.reads : await readCheckout(em, shopId, input);
  const { now } = input;
  const lines = cartLinesOf(body, set, reads.products, errors);
  const { delivery, payment } = reads;
  if (body.delivery_type_id != null && !delivery) errors.delivery_type_id = ['is not an active delivery type of this shop'];
  if (body.payment_type_id != null && !payment) errors.payment_type_id = ['is not an active payment type of this shop'];
  if (Object.keys(errors).length > 0) throw unprocessable(errors);

  const checkout = {
    context: {
      lines,
      delivery: delivery && { id: delivery.id, defaultPrice: delivery.defaultPrice, vatRate: delivery.vatRate, domestic: delivery.domestic },
      payment: payment && { id: payment.id, defaultPrice: payment.defaultPrice, vatRate: payment.vatRate },
    },
    code: typed ? { typed, snapshot: reads.code } : null,
    automaticDiscounts: reads.automaticDiscounts,
    buyer: { email, newsletter: body.newsletter || reads.newsletterSubscriber },
    now,
    subscriberPlanMinimums: reads.subscriberPlanMinimums,
  } satisfies Checkout;
  return {
    email,
    lines,
    reads,
    checkout,
    readLinesAgain: async (again) => cartLinesOf(body, set, (await readCheckout(em, shopId, input)).products, again),
  };
}

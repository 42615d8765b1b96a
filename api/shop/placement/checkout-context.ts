/**
 * What the pricing module is given for a placement (the operator's, the storefront's carts and
 * checkout): the shop's side read in one statement (db/repositories/shop/checkout-reads.ts; a
 * product set's items before it), turned into the pricing module's input by domain/shop/
 * pricing-inputs.ts; the 422s of what the body names that the shop does not have.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { productSetForCheckout } from '../../../db/repositories/shop/checkout.ts';
import { readCheckout, readFor, type CheckoutReads, type PrefetchedReads } from '../../../db/repositories/shop/checkout-reads.ts';
import type { Checkout } from '../../../domain/shop/pricing.ts';
import { pricingInputs, pricingReadKeys } from '../../../domain/shop/pricing-inputs.ts';
import { unprocessable } from '../../shared/validation-errors.ts';
import type { PlaceOrderInput } from './schemas.ts';

export interface PreparedCheckout {
  email: string;
  reads: CheckoutReads;
  checkout: Checkout;
  /** The checkout with the lines' products read again (a price changed meanwhile); 422 for what is gone. */
  readLinesAgain(): Promise<Checkout>;
}

export interface CheckoutOptions {
  statuses?: boolean;
  recommendations?: boolean;
  /** A read made with the cart's (checkout-reads.ts `useCartWithReads`): used when it was made for what this checkout reads. */
  prefetched?: PrefetchedReads;
}

/** What the pricing module is given for `body`, read from the shop (422 for unknown products, set, delivery or payment). */
export async function prepareCheckout(em: EntityManager, shopId: string, body: PlaceOrderInput, { prefetched, ...parts }: CheckoutOptions = {}): Promise<PreparedCheckout> {
  const set = body.product_set_id == null ? null : await productSetForCheckout(em, body.product_set_id);
  const input = { ...pricingReadKeys(body, set), now: new Date(), ...parts };
  const read = readFor(prefetched, input);
  if (read) input.now = read.input.now;
  const reads = read ? read.reads : await readCheckout(em, shopId, input);
  const inputs = pricingInputs(body, set, reads, input.now);
  if (!inputs.ok) throw unprocessable(inputs.problems);
  return {
    email: input.email,
    reads,
    checkout: inputs.checkout,
    readLinesAgain: async () => {
      const again = pricingInputs(body, set, { ...reads, products: (await readCheckout(em, shopId, input)).products }, input.now);
      if (!again.ok) throw unprocessable(again.problems);
      return again.checkout;
    },
  };
}

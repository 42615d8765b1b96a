/**
 * What checkout reads besides checkout-reads.ts (the request's entity manager is scoped to the
 * shop by the shop filter): a product set with its items; and what the placement's statement
 * (order-placement.ts) throws when an automatic discount was used up meanwhile.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { ProductSet, type IProductSet } from '../../entities/shop/index.ts';

/** A product set of the shop with its items in order; null for another shop's or an unknown id. */
export function productSetForCheckout(em: EntityManager, id: number): Promise<IProductSet | null> {
  return em.findOne(ProductSet, id, { populate: ['items'] });
}

/** Thrown by the placement (order-placement.ts) when an automatic discount was used up meanwhile. */
export class AutomaticDiscountUsedUp extends Error {
  constructor(readonly discountId: number) {
    super(`automatic discount ${discountId} has been used up`);
  }
}

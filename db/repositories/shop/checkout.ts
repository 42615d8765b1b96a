/**
 * What checkout reads beyond the products and the code (the request's entity manager is scoped to
 * the shop by the shop filter; raw SQL names the shop itself): the automatic discounts that may
 * apply to a buyer, the buyer's newsletter sign-up, a product set with its items; and the counting
 * of the automatic discounts' uses in the placement's transaction.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { AutomaticDiscount, NewsletterSubscriber, ProductSet, type IAutomaticDiscount, type IProductSet } from '../../entities/shop/index.ts';
import { CART_AUTOMATIC_TYPES } from '../../../domain/shop/automatic-discount-pricing.ts';

/**
 * The shop's active automatic discounts of the types checkout applies, leaving out the
 * email-address discounts of other addresses (a shop may hold one per customer); the pure module
 * decides the rest.
 */
export function automaticDiscountsForCheckout(em: EntityManager, email: string): Promise<IAutomaticDiscount[]> {
  return em.find(
    AutomaticDiscount,
    {
      active: true,
      discountType: { $in: [...CART_AUTOMATIC_TYPES] },
      $or: [{ kind: { $ne: 'email_address' } }, { email: { $ilike: email.replace(/[\\%_]/g, '\\$&') } }],
    },
    { orderBy: { id: 'asc' } },
  );
}

/** Whether the address signed up for the shop's newsletter (stored lower case). */
export async function isNewsletterSubscriber(em: EntityManager, email: string): Promise<boolean> {
  return (await em.count(NewsletterSubscriber, { email: email.trim().toLowerCase() })) > 0;
}

/** A product set of the shop with its items in order; null for another shop's or an unknown id. */
export function productSetForCheckout(em: EntityManager, id: number): Promise<IProductSet | null> {
  return em.findOne(ProductSet, id, { populate: ['items'] });
}

/** Thrown inside the placement's transaction when an automatic discount was used up meanwhile. */
export class AutomaticDiscountUsedUp extends Error {
  constructor(readonly discountId: number) {
    super(`automatic discount ${discountId} has been used up`);
  }
}

/**
 * Counts one use of each automatic discount the order got, inside the placement's transaction
 * (`tx`), in id order. The conditional `UPDATE ... RETURNING` holds each row's lock until the
 * transaction ends, so placements queue on a discount and its `usages_limit` is never passed; a
 * discount used up meanwhile throws AutomaticDiscountUsedUp (the order is priced again without it).
 */
export async function countAutomaticDiscountUses(tx: EntityManager, shopId: string, ids: readonly number[]): Promise<void> {
  for (const id of [...ids].sort((a, b) => a - b)) {
    const taken = await tx.execute<{ id: number }[]>(
      'update shop_automatic_discounts set usages = usages + 1 where shop_id = ? and id = ? and (usages_limit is null or usages < usages_limit) returning id',
      [shopId, id],
    );
    if (taken.length === 0) throw new AutomaticDiscountUsedUp(id);
  }
}

/**
 * The `free_delivery_minimum_amount` of each plan (with one set) of which the address holds an
 * active subscriber of this shop: status active and the latest period not over at `now` (as the
 * subscribers list's `active`). One query; the pure pricing picks the lowest minimum reached.
 */
export async function subscriberDeliveryMinimums(em: EntityManager, shopId: string, email: string, now: Date): Promise<string[]> {
  const rows = await em.execute<{ minimum: string }[]>(
    `select distinct pl.free_delivery_minimum_amount::text as minimum
       from shop_subscribers s join shop_subscription_plans pl on pl.id = s.plan_id and pl.shop_id = s.shop_id
      where s.shop_id = ? and lower(s.email) = lower(?) and s.status = 'active'
        and pl.free_delivery_minimum_amount is not null
        and (select max(p.ends_at) from shop_subscriber_periods p where p.subscriber_id = s.id) > ?`,
    [shopId, email, now],
  );
  return rows.map((row) => row.minimum);
}

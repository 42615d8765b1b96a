/**
 * What checkout reads beyond the products and the code (the request's entity manager is scoped to
 * the shop by the shop filter; raw SQL names the shop itself): the automatic discounts that may
 * apply to a buyer, the buyer's newsletter sign-up, a product set with its items (the uses of the
 * automatic discounts are counted by the placement's statement, order-placement.ts).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { ProductSet, type IProductSet } from '../../entities/shop/index.ts';
import { CART_AUTOMATIC_TYPES, type AutomaticDiscountSnapshot } from '../../../domain/shop/automatic-discount-pricing.ts';

/** What checkout reads of the buyer and the discounts that may apply to them. */
export interface BuyerOffers {
  /**
   * The shop's active automatic discounts of the types checkout applies, by id, leaving out the
   * email-address discounts of other addresses (a shop may hold one per customer); the pure module
   * decides the rest.
   */
  automaticDiscounts: AutomaticDiscountSnapshot[];
  /** The address signed up for the shop's newsletter (stored trimmed and lower case). */
  newsletterSubscriber: boolean;
  /**
   * The `free_delivery_minimum_amount` of each plan (with one set) of which the address holds an
   * active subscriber of this shop: status active and the latest period not over at `now` (as the
   * subscribers list's `active`); the pure pricing picks the lowest minimum reached.
   */
  subscriberPlanMinimums: string[];
}

interface BuyerOffersRow {
  newsletter_subscriber: boolean;
  minimums: string[];
  id: number | null;
  kind: AutomaticDiscountSnapshot['kind'];
  discount_type: string;
  value: string;
  relation_with_products: AutomaticDiscountSnapshot['relationWithProducts'];
  product_ids: number[];
  product_category_ids: number[];
  usages_limit: number | null;
  usages: number;
  active: boolean;
  email: string | null;
  email_domain: string | null;
  minimum_order_value: string | null;
  start_date: string | null;
  end_date: string | null;
}

/**
 * The buyer's offers in one statement (issue 26: three reads of every pricing were three round
 * trips): each automatic discount a row, the buyer's facts on every row (one row of nulls when the
 * shop has no discount that may apply).
 */
export async function buyerOffers(em: EntityManager, shopId: string, email: string, now: Date): Promise<BuyerOffers> {
  const types = [...CART_AUTOMATIC_TYPES];
  const rows = await em.execute<BuyerOffersRow[]>(
    `with facts as (
       select exists (select 1 from shop_newsletter_subscribers n where n.shop_id = ? and n.email = ?) as newsletter_subscriber,
              array(select distinct pl.free_delivery_minimum_amount::text
                      from shop_subscribers s join shop_subscription_plans pl on pl.id = s.plan_id and pl.shop_id = s.shop_id
                     where s.shop_id = ? and lower(s.email) = lower(?) and s.status = 'active'
                       and pl.free_delivery_minimum_amount is not null
                       and (select max(p.ends_at) from shop_subscriber_periods p where p.subscriber_id = s.id) > ?) as minimums)
     select f.newsletter_subscriber, f.minimums, a.id, a.kind, a.discount_type, a.value, a.relation_with_products, a.product_ids, a.product_category_ids,
            a.usages_limit, a.usages, a.active, a.email, a.email_domain, a.minimum_order_value, a.start_date, a.end_date
       from facts f left join lateral (
         select * from shop_automatic_discounts a
          where a.shop_id = ? and a.active and a.discount_type in (${types.map(() => '?').join(', ')})
            and (a.kind <> 'email_address' or a.email ilike ?)) a on true
      order by a.id`,
    [shopId, email.trim().toLowerCase(), shopId, email, now, shopId, ...types, email.replace(/[\\%_]/g, '\\$&')],
  );
  const first = rows[0]!;
  // Timestamps come as text from em.execute; parsed as the ORM parses them.
  const date = (value: string | null) => (value === null ? null : new Date(em.getPlatform().parseDate(value)));
  return {
    newsletterSubscriber: first.newsletter_subscriber,
    subscriberPlanMinimums: first.minimums,
    automaticDiscounts: rows.flatMap((d) =>
      d.id === null
        ? []
        : [
            {
              id: d.id,
              kind: d.kind,
              discountType: d.discount_type,
              value: d.value,
              relationWithProducts: d.relation_with_products,
              productIds: d.product_ids,
              productCategoryIds: d.product_category_ids,
              usagesLimit: d.usages_limit,
              usages: d.usages,
              active: d.active,
              email: d.email,
              emailDomain: d.email_domain,
              minimumOrderValue: d.minimum_order_value,
              startDate: date(d.start_date),
              endDate: date(d.end_date),
            },
          ],
    ),
  };
}

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

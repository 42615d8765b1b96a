/**
 * Automatic discounts of one shop (the request's entity manager is scoped to it by the shop
 * filter; raw SQL names the shop itself), and the product prices the time-limited price-history
 * discounts change (shop_product_price_changes keeps each original price).
 */
import type { FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AutomaticDiscount, type IAutomaticDiscount } from '../../entities/shop/index.ts';
import { isPriceHistoryType, type AutomaticDiscountKind } from '../../../domain/shop/automatic-discount-rules.ts';
import type { ProductRelation } from '../../../domain/shop/discount-rules.ts';
import { discountedPrice, productAffected } from '../../../domain/shop/product-price-discount.ts';
import type { ListWindow } from './reference.ts';

export function listAutomaticDiscounts(em: EntityManager, kind: AutomaticDiscountKind, where: FilterQuery<IAutomaticDiscount>, window: ListWindow) {
  return em.findAndCount(AutomaticDiscount, { ...(where as object), kind }, { orderBy: { id: 'asc' }, ...window });
}

/** A discount of this kind in the shop; null for anything else (another shop's, another kind's). */
export function findAutomaticDiscount(em: EntityManager, kind: AutomaticDiscountKind, id: number) {
  return em.findOne(AutomaticDiscount, { id, kind });
}

export async function deleteAutomaticDiscount(em: EntityManager, discount: IAutomaticDiscount): Promise<void> {
  await em.execute('delete from shop_automatic_discounts where shop_id = ? and id = ?', [discount.shop.id, discount.id]);
  em.getUnitOfWork().unsetIdentity(discount);
}

export interface StoredSchedule {
  revision: number;
  startDate: Date;
  endDate: Date;
  discountType: string;
}

/**
 * Counts a committed write of a time-limited discount and reads the row as it stands now. The
 * increment is atomic and waits for a concurrent write, so of two writes at once the higher
 * revision carries the dates both left behind: the workflow keeps the highest it was sent.
 */
export async function bumpRevision(em: EntityManager, shopId: string, id: number): Promise<StoredSchedule | null> {
  const [row] = await em.execute<{ revision: number; start_date: Date; end_date: Date; discount_type: string }[]>(
    'update shop_automatic_discounts set revision = revision + 1 where shop_id = ? and id = ? returning revision, start_date, end_date, discount_type',
    [shopId, id],
  );
  return row ? { revision: row.revision, startDate: new Date(row.start_date), endDate: new Date(row.end_date), discountType: row.discount_type } : null;
}

const intArrayLiteral = (values: readonly (number | string)[]) => `{${values.join(',')}}`;

/**
 * Recalculates the prices of the products the discount takes in (when it is an active time-limited
 * price-history discount), recording each original price. Idempotent: a product that already has
 * an open price change (of this discount, from an earlier attempt, or of another) is left alone,
 * so a retry never discounts twice and two discounts never stack on one price (the partial unique
 * index backs this against a concurrent apply: the loser's transaction fails and is retried).
 * Returns how many prices changed.
 */
export async function applyDiscountPrices(em: EntityManager, shopId: string, discountId: number, now: Date): Promise<number> {
  return em.transactional(async (tx) => {
    const [discount] = await tx.execute<
      { discount_type: string; value: string; active: boolean; relation_with_products: ProductRelation; product_ids: number[]; product_category_ids: number[] }[]
    >(
      `select discount_type, value, active, relation_with_products, product_ids, product_category_ids from shop_automatic_discounts
       where shop_id = ? and id = ? and kind = 'time_limited'`,
      [shopId, discountId],
    );
    if (!discount || !discount.active || !isPriceHistoryType(discount.discount_type)) return 0;
    const rule = { relationWithProducts: discount.relation_with_products, productIds: discount.product_ids, productCategoryIds: discount.product_category_ids };
    const products = await tx.execute<{ id: number; price: string; product_category_ids: number[] }[]>(
      `select p.id, p.price, p.product_category_ids from shop_products p
       where p.shop_id = ? and not p.hidden
         and not exists (select 1 from shop_product_price_changes c where c.product_id = p.id and c.restored_at is null)
       order by p.id for update`,
      [shopId],
    );
    const type = discount.discount_type;
    const changes = products
      .filter((p) => productAffected(rule, { id: p.id, productCategoryIds: p.product_category_ids }))
      .map((p) => ({ id: p.id, original: p.price, discounted: discountedPrice(p.price, type, discount.value) }));
    if (changes.length === 0) return 0;
    const ids = intArrayLiteral(changes.map((c) => c.id));
    const originals = intArrayLiteral(changes.map((c) => c.original));
    const discounted = intArrayLiteral(changes.map((c) => c.discounted));
    await tx.execute(
      `insert into shop_product_price_changes (shop_id, discount_id, product_id, original_price, discounted_price, applied_at)
       select ?, ?, v.id, v.original, v.discounted, ? from unnest(?::int[], ?::numeric[], ?::numeric[]) as v(id, original, discounted)`,
      [shopId, discountId, now, ids, originals, discounted],
    );
    await tx.execute(
      `update shop_products p set price = v.discounted, updated_at = ? from unnest(?::int[], ?::numeric[]) as v(id, discounted)
       where p.shop_id = ? and p.id = v.id`,
      [now, ids, discounted, shopId],
    );
    return changes.length;
  });
}

/**
 * Puts back the original prices the discount changed and closes its open price changes.
 * Idempotent. A price the owner edited meanwhile (no longer the one the discount set) is kept.
 * Returns how many price changes were closed.
 */
export async function restoreDiscountPrices(em: EntityManager, shopId: string, discountId: number, now: Date): Promise<number> {
  return em.transactional(async (tx) => {
    const open = await tx.execute<{ id: number }[]>(
      'select id from shop_product_price_changes where shop_id = ? and discount_id = ? and restored_at is null order by product_id for update',
      [shopId, discountId],
    );
    if (open.length === 0) return 0;
    await tx.execute(
      `update shop_products p set price = c.original_price, updated_at = ? from shop_product_price_changes c
       where c.shop_id = ? and c.discount_id = ? and c.restored_at is null and p.shop_id = c.shop_id and p.id = c.product_id and p.price = c.discounted_price`,
      [now, shopId, discountId],
    );
    await tx.execute('update shop_product_price_changes set restored_at = ? where shop_id = ? and discount_id = ? and restored_at is null', [now, shopId, discountId]);
    return open.length;
  });
}

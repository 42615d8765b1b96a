/**
 * Automatic discounts of one shop (the request's entity manager is scoped to it by the shop
 * filter; raw SQL names the shop itself), and the product prices the time-limited price-history
 * discounts change (shop_product_price_changes keeps each original price).
 */
import type { FilterQuery, FindOneOptions, RequiredEntityData } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AutomaticDiscount, type IAutomaticDiscount } from '../../entities/shop/index.ts';
import { isPriceHistoryType, type AutomaticDiscountKind } from '../../../domain/shop/automatic-discount-rules.ts';
import type { ProductRelation } from '../../../domain/shop/discount-rules.ts';
import { discountedPrice, type ProductRelationRule } from '../../../domain/shop/product-price-discount.ts';
import type { ListWindow } from './reference.ts';
import { insertRow } from '../shared/insert-row.ts';
import { arrayLiteral, intArray } from '../shared/array-literal.ts';

export function listAutomaticDiscounts(em: EntityManager, kind: AutomaticDiscountKind, where: FilterQuery<IAutomaticDiscount>, window: ListWindow) {
  return em.findAndCount(AutomaticDiscount, { ...(where as object), kind }, { orderBy: { id: 'asc' }, ...window });
}

/** A discount of this kind in the shop; null for anything else (another shop's, another kind's). */
export function findAutomaticDiscount(em: EntityManager, kind: AutomaticDiscountKind, id: number, options: FindOneOptions<IAutomaticDiscount> = {}) {
  return em.findOne(AutomaticDiscount, { id, kind }, options);
}

export function createAutomaticDiscount(em: EntityManager, values: RequiredEntityData<IAutomaticDiscount>): Promise<IAutomaticDiscount> {
  return insertRow(em, AutomaticDiscount, values);
}

/**
 * Writes `values` to the discount locked in the transaction `tx` (flushed when it commits; flush
 * writes only changed columns). The revision grows only when something changed: an empty PATCH,
 * or the repeat after a 503, tells the price workflow the same revision, so its prices stay.
 */
export function updateAutomaticDiscount(tx: EntityManager, discount: IAutomaticDiscount, values: Partial<IAutomaticDiscount>): void {
  tx.assign(discount, values);
  const uow = tx.getUnitOfWork();
  uow.computeChangeSets();
  if (uow.getChangeSets().some((change) => change.entity === discount)) discount.revision += 1;
}

/** The discount's relation with products as a condition on `shop_products p`, with its parameters (discount-code-pricing.ts lineEligible, in SQL). */
function relationCondition(rule: ProductRelationRule): [string, unknown[]] {
  switch (rule.relationWithProducts) {
    case 'all_products':
      return ['true', []];
    case 'selected_products':
      return ['p.id = any(?::int[])', [intArray(rule.productIds)]];
    case 'products_except':
      return ['not (p.id = any(?::int[]))', [intArray(rule.productIds)]];
    case 'selected_categories':
      return ['coalesce(p.product_category_ids, \'{}\') && ?::int[]', [intArray(rule.productCategoryIds)]];
    case 'categories_except':
      return ['not (coalesce(p.product_category_ids, \'{}\') && ?::int[])', [intArray(rule.productCategoryIds)]];
  }
}

/**
 * The apply inside a transaction. The discount row is read FOR SHARE, so a DELETE (which takes the
 * row FOR UPDATE and restores in its transaction) waits for an apply under way and then restores
 * what it wrote. Only the affected products are locked, in id order (the order every product lock
 * takes: order placement, restore), so two of these never deadlock each other or a placement.
 */
async function applyIn(tx: EntityManager, shopId: string, discountId: number, now: Date): Promise<number> {
  const [discount] = await tx.execute<
    { discount_type: string; value: string; active: boolean; relation_with_products: ProductRelation; product_ids: number[]; product_category_ids: number[] }[]
  >(
    `select discount_type, value, active, relation_with_products, product_ids, product_category_ids from shop_automatic_discounts
     where shop_id = ? and id = ? and kind = 'time_limited' for share`,
    [shopId, discountId],
  );
  if (!discount || !discount.active || !isPriceHistoryType(discount.discount_type)) return 0;
  const [relation, relationParams] = relationCondition({
    relationWithProducts: discount.relation_with_products,
    productIds: discount.product_ids,
    productCategoryIds: discount.product_category_ids,
  });
  const products = await tx.execute<{ id: number; price: string }[]>(
    `select p.id, p.price from shop_products p
     where p.shop_id = ? and not p.hidden and ${relation}
       and not exists (select 1 from shop_product_price_changes c where c.product_id = p.id and c.restored_at is null)
     order by p.id for update`,
    [shopId, ...relationParams],
  );
  const type = discount.discount_type;
  const changes = products.map((p) => ({ id: p.id, original: p.price, discounted: discountedPrice(p.price, type, discount.value) }));
  if (changes.length === 0) return 0;
  const ids = intArray(changes.map((c) => c.id));
  const originals = arrayLiteral(changes.map((c) => c.original));
  const discounted = arrayLiteral(changes.map((c) => c.discounted));
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
}

/** The restore inside a transaction: the open price changes, then their products locked in id order, then the updates. */
async function restoreIn(tx: EntityManager, shopId: string, discountId: number, now: Date): Promise<number> {
  const open = await tx.execute<{ id: number }[]>(
    'select id from shop_product_price_changes where shop_id = ? and discount_id = ? and restored_at is null order by product_id for update',
    [shopId, discountId],
  );
  if (open.length === 0) return 0;
  await tx.execute(
    `select p.id from shop_products p join shop_product_price_changes c on c.product_id = p.id and c.shop_id = p.shop_id
     where c.shop_id = ? and c.discount_id = ? and c.restored_at is null order by p.id for update of p`,
    [shopId, discountId],
  );
  await tx.execute(
    `update shop_products p set price = c.original_price, updated_at = ? from shop_product_price_changes c
     where c.shop_id = ? and c.discount_id = ? and c.restored_at is null and p.shop_id = c.shop_id and p.id = c.product_id and p.price = c.discounted_price`,
    [now, shopId, discountId],
  );
  await tx.execute('update shop_product_price_changes set restored_at = ? where shop_id = ? and discount_id = ? and restored_at is null', [now, shopId, discountId]);
  return open.length;
}

/**
 * Recalculates the prices of the products the discount takes in (when it is an active time-limited
 * price-history discount), recording each original price. Idempotent: a product that already has
 * an open price change (of this discount, from an earlier attempt, or of another) is left alone,
 * so a retry never discounts twice and two discounts never stack on one price (the partial unique
 * index backs this against a concurrent apply: the loser's transaction fails and is retried).
 * Returns how many prices changed.
 */
export function applyDiscountPrices(em: EntityManager, shopId: string, discountId: number, now: Date): Promise<number> {
  return em.transactional((tx) => applyIn(tx, shopId, discountId, now));
}

/**
 * Puts back the original prices the discount changed and closes its open price changes.
 * Idempotent. A price the owner edited meanwhile (no longer the one the discount set) is kept.
 * Returns how many price changes were closed.
 */
export function restoreDiscountPrices(em: EntityManager, shopId: string, discountId: number, now: Date): Promise<number> {
  return em.transactional((tx) => restoreIn(tx, shopId, discountId, now));
}

/**
 * Restores the prices and recalculates them from the discount's current settings in one
 * transaction, so a change of a running discount never shows the full prices in between.
 * Returns how many prices the new settings changed.
 */
export function reapplyDiscountPrices(em: EntityManager, shopId: string, discountId: number, now: Date): Promise<number> {
  return em.transactional(async (tx) => {
    await tx.execute(`select id from shop_automatic_discounts where shop_id = ? and id = ? for share`, [shopId, discountId]);
    await restoreIn(tx, shopId, discountId, now);
    return applyIn(tx, shopId, discountId, now);
  });
}

/**
 * Deletes a discount and, for a time-limited one, restores the prices it changed, in one
 * transaction: the row is locked first (an apply under way finishes before), so once the DELETE
 * answers no product carries its price, whatever happens to the workflow. Returns the type the
 * row had when deleted; null when it is already gone (a concurrent DELETE).
 */
export async function deleteDiscountRestoringPrices(em: EntityManager, shopId: string, discount: IAutomaticDiscount, now: Date): Promise<string | null> {
  const discountId = discount.id;
  const deletedType = await em.transactional(async (tx) => {
    const [row] = await tx.execute<{ discount_type: string }[]>('select discount_type from shop_automatic_discounts where shop_id = ? and id = ? for update', [shopId, discountId]);
    if (!row) return null;
    await restoreIn(tx, shopId, discountId, now);
    await tx.execute('delete from shop_automatic_discounts where shop_id = ? and id = ?', [shopId, discountId]);
    return row.discount_type;
  });
  // The row is gone: the entity read before must not be flushed back by a later write.
  if (deletedType !== null) em.getUnitOfWork().unsetIdentity(discount);
  return deletedType;
}

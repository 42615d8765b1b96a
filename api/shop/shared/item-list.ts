/**
 * What product sets and upsell groups share on the API side: both are a list of the shop's
 * products whose `items` a write replaces as a whole, listed with the same filters.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { deleteItemList, lockShopRow, visibleProductIds, type ItemListTable } from '../../../db/repositories/shop/item-products.ts';
import { pathId } from '../../../domain/shop/product-rules.ts';
import { notFound } from '../../shared/errors.ts';
import { PageQuery } from '../../shared/pagination.ts';
import { fieldErrorMap, type FieldErrors } from '../../shared/validation-errors.ts';
import { PathParams, boolText, queryRowId, rowId, text } from './fields.ts';
import { readBackOr404 } from './path-rows.ts';

export const itemName = text(255).trim().min(1, 'must not be empty');
export const MAX_ITEMS = 100;

/** The item fields both kinds share: `id` keeps an existing item (read back as sent), `product_id` names the product. */
export const itemRef = {
  id: rowId.optional().describe('an item of this list to keep (its id stays); without it the item is new'),
  product_id: rowId,
};
export interface SentItem {
  id?: number | undefined;
  product_id: number;
}

export const ItemListQuery = PageQuery.extend({
  active: boolText.optional().describe('`true` or `false`'),
  product_id: queryRowId.optional().describe('only the lists holding this product'),
  search: text(255).trim().optional(),
});
export const ItemListParams = PathParams;

/**
 * Problems of a sent item list, named `items.<index>.<field>`: a product the shop does not have
 * (unknown, another shop's or deleted), an `id` that is not an item of this list or is sent twice.
 * The products found are locked until the transaction ends (db/repositories/shop/item-products.ts).
 */
export async function sentItemProblems(em: EntityManager, shopId: string, sent: readonly SentItem[], current: ReadonlySet<number>): Promise<FieldErrors> {
  const problems = fieldErrorMap();
  const known = await visibleProductIds(em, shopId, sent.map((item) => item.product_id), { lock: true });
  const seen = new Set<number>();
  sent.forEach((item, index) => {
    if (!known.has(item.product_id)) (problems[`items.${index}.product_id`] ??= []).push('is not a product of this shop');
    if (item.id === undefined) return;
    if (!current.has(item.id)) (problems[`items.${index}.id`] ??= []).push('is not an item of this list');
    else if (seen.has(item.id)) (problems[`items.${index}.id`] ??= []).push('is sent twice');
    seen.add(item.id);
  });
  return problems;
}

/**
 * Runs a write of one list in a transaction: `write` gets the transaction's entity manager, and
 * the reply re-reads the list afterwards with `find` (items with their products' names). A row
 * deleted between the commit and the re-read (a DELETE racing the write) is a 404 `<what> not found`.
 */
export async function writeThenRead<T>(
  em: EntityManager,
  write: (tx: EntityManager) => Promise<number>,
  find: (em: EntityManager, id: number) => Promise<T | null>,
  what: string,
): Promise<T> {
  return readBackOr404(em, await em.transactional(write), find, what);
}

/**
 * The row a path segment names, locked FOR UPDATE until the transaction `tx` ends (a concurrent
 * write of the same list waits, so two item lists never mix) and read with `find`; 404 as above.
 */
export async function lockedRowOr404<T>(tx: EntityManager, table: ItemListTable, shopId: string, segment: string, find: (em: EntityManager, id: number) => Promise<T | null>, what: string): Promise<T> {
  const id = pathId(segment);
  if (id === null || !(await lockShopRow(tx, table, shopId, id))) throw notFound(what);
  return readBackOr404(tx, id, find, what);
}

/** DELETE of a row of the shop (its items go with it, by the foreign key); 404 when there is none. */
export async function deleteRowOr404(em: EntityManager, table: ItemListTable, shopId: string, segment: string, what: string) {
  const id = pathId(segment);
  if (id === null || !(await deleteItemList(em, table, shopId, id))) throw notFound(what);
  return { data: { id, deleted: true as const } };
}

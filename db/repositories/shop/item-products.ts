/**
 * What product sets and upsell groups share in the database: both are lists of the shop's
 * products, filtered the same way, whose items a write replaces as a whole.
 */
import type { Collection } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { likeContains } from '../../../domain/shop/product-rules.ts';

/**
 * Which of `ids` are visible products of the shop (the one query for sets, groups, plan links and
 * renewal items). With `lock`, the rows found are locked FOR SHARE until the transaction ends: a
 * product DELETE (which locks the row FOR UPDATE) waits, so nothing written in that transaction
 * points at a product removed meanwhile.
 */
export async function visibleProductIds(em: EntityManager, shopId: string, ids: readonly number[], { lock }: { lock: boolean }): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await em.execute<{ id: number }[]>(`select id from shop_products where shop_id = ? and id in (?) and not hidden${lock ? ' for share' : ''}`, [
    shopId,
    [...new Set(ids)],
  ]);
  return new Set(rows.map((row) => row.id));
}

export type ItemListTable = 'shop_product_sets' | 'shop_recommendation_groups';

/** Locks one row of the shop (FOR UPDATE) until the transaction ends; false when there is none. */
export async function lockShopRow(em: EntityManager, table: ItemListTable, shopId: string, id: number): Promise<boolean> {
  const rows = await em.execute<{ id: number }[]>(`select id from ${table} where shop_id = ? and id = ? for update`, [shopId, id]);
  return rows.length > 0;
}

/** Deletes one list of the shop (its items go with it, by the foreign key); false when there is none. */
export async function deleteItemList(em: EntityManager, table: ItemListTable, shopId: string, id: number): Promise<boolean> {
  const rows = await em.execute<{ id: number }[]>(`delete from ${table} where shop_id = ? and id = ? returning id`, [shopId, id]);
  return rows.length > 0;
}

/**
 * Replaces the rows of the owner's `items` by the sent list: an item sent with its `id` is
 * rewritten in place, one without is made by `write`, rows not sent are removed (orphan removal).
 * The owner counts as updated (its own columns may not have changed).
 */
export function replaceItems<Row extends { id: number }, Sent extends { id?: number | undefined }>(
  owner: { items: Collection<Row>; updatedAt: Date },
  sent: readonly Sent[],
  write: (item: Sent, row: Row | undefined) => Row,
): void {
  const rows = new Map(owner.items.getItems().map((row) => [row.id, row]));
  owner.items.set(sent.map((item) => write(item, item.id === undefined ? undefined : rows.get(item.id))));
  owner.updatedAt = new Date();
}

export interface ItemListFilter {
  active?: boolean;
  /** Only the lists holding this product. */
  productId?: number;
  search?: string;
}

/** The where of a list filter: `active`, holding `productId`, `search` in any of `searchFields`. */
export function itemListWhere<F extends string>(filter: ItemListFilter, searchFields: readonly F[]) {
  const pattern = filter.search ? likeContains(filter.search) : undefined;
  return {
    ...(filter.active === undefined ? {} : { active: filter.active }),
    ...(filter.productId === undefined ? {} : { items: { product: filter.productId } }),
    ...(pattern ? { $or: searchFields.map((field) => ({ [field]: { $ilike: pattern } }) as { [K in F]: { $ilike: string } }) } : {}),
  };
}

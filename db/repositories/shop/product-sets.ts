/** Product sets of one shop (the entity manager is scoped to it by the shop filter). */
import type { EntityData, RequiredEntityData } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Product, ProductSet, ProductSetItem, type IProductSet, type IProductSetItem } from '../../entities/shop/index.ts';
import { itemListWhere, replaceItems, type ItemListFilter } from './item-products.ts';
import type { ListWindow } from './reference.ts';

const withItems = { populate: ['items', 'items.product'] as const, populateWhere: 'all' as const };

/** Sets by priority, highest first (then oldest first), with their items and products. */
export function listProductSets(em: EntityManager, filter: ItemListFilter, window: ListWindow) {
  return em.findAndCount(ProductSet, itemListWhere(filter, ['name']), { ...withItems, orderBy: [{ priority: 'desc' }, { id: 'asc' }], ...window });
}

/** A set of the shop with its items; null for an unknown or foreign id. */
export function findProductSet(em: EntityManager, id: number): Promise<IProductSet | null> {
  return em.findOne(ProductSet, { id }, { ...withItems, refresh: true });
}

/** The slugs of the shop that start with `base` (the candidates a new slug must avoid). */
export async function slugsLike(em: EntityManager, shopId: string, base: string): Promise<Set<string>> {
  const rows = await em.execute<{ slug: string }[]>("select slug from shop_product_sets where shop_id = ? and slug like ? escape '\\'", [
    shopId,
    `${base.replace(/[\\%_]/g, (c) => `\\${c}`)}%`,
  ]);
  return new Set(rows.map((row) => row.slug));
}

/** Serialises the new sets of one shop until the transaction ends, so two never pick one slug. */
export async function lockSlugsOf(em: EntityManager, shopId: string): Promise<void> {
  await em.execute('select pg_advisory_xact_lock(hashtext(?))', [`shop_product_sets_slug:${shopId}`]);
}

/** An item of a set as written: `id` keeps an item of the set (rewritten in place), without it the item is new. */
export interface SetItemValues {
  id?: number | undefined;
  productId: number;
  quantity: number;
  customPrice: string | null;
}

function writeItems(tx: EntityManager, shopId: string, set: IProductSet, items: readonly SetItemValues[] | undefined): void {
  if (!items) return;
  replaceItems(set, items, (item, row): IProductSetItem => {
    const values = { product: tx.getReference(Product, item.productId), quantity: item.quantity, customPrice: item.customPrice };
    return row ? tx.assign(row, values) : tx.create(ProductSetItem, { ...values, shop: shopId, productSet: set });
  });
}

/** A new set with its items, in the caller's transaction (checked and its slug chosen there); its id. */
export async function createProductSet(tx: EntityManager, shopId: string, values: RequiredEntityData<IProductSet>, items: readonly SetItemValues[] | undefined): Promise<number> {
  const set = tx.create(ProductSet, values);
  writeItems(tx, shopId, set, items);
  await tx.flush();
  return set.id;
}

/** Writes the fields given and, when `items` is given, replaces the items; its id. */
export async function updateProductSet(tx: EntityManager, shopId: string, set: IProductSet, values: EntityData<IProductSet>, items: readonly SetItemValues[] | undefined): Promise<number> {
  tx.assign(set, values);
  writeItems(tx, shopId, set, items);
  await tx.flush();
  return set.id;
}

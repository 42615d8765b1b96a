/** Product sets of one shop (the entity manager is scoped to it by the shop filter). */
import type { EntityManager } from '@mikro-orm/postgresql';
import { ProductSet, type IProductSet } from '../../entities/shop/index.ts';
import { itemListWhere, type ItemListFilter } from './item-products.ts';
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

/** Upsell groups of one shop (the entity manager is scoped to it by the shop filter). */
import type { EntityData } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  Product,
  ProductRecommendationGroup,
  ProductRecommendationItem,
  type IProductRecommendationGroup,
  type IProductRecommendationItem,
} from '../../entities/shop/index.ts';
import { itemListWhere, replaceItems, type ItemListFilter } from './item-products.ts';
import type { ListWindow } from './reference.ts';

const withItems = { populate: ['items', 'items.product'] as const, populateWhere: 'all' as const };

export function listRecommendationGroups(em: EntityManager, filter: ItemListFilter, window: ListWindow) {
  return em.findAndCount(ProductRecommendationGroup, itemListWhere(filter, ['name', 'title']), { ...withItems, orderBy: { id: 'asc' }, ...window });
}

/** A group of the shop with its items; null for an unknown or foreign id. */
export function findRecommendationGroup(em: EntityManager, id: number): Promise<IProductRecommendationGroup | null> {
  return em.findOne(ProductRecommendationGroup, { id }, { ...withItems, refresh: true });
}

/** An item of a group as written: `id` keeps an item of the group (rewritten in place), without it the item is new. */
export interface GroupItemValues {
  id?: number | undefined;
  productId: number;
  title: string;
  subtitle: string;
  priority: number;
  invokesRecommendation: boolean;
  isRecommended: boolean;
}

/**
 * Writes the fields given to the group (a new one when `group` is null, of `shopId`) and, when
 * `items` is given, replaces the items, in the caller's transaction; the group's id.
 */
export async function saveRecommendationGroup(
  tx: EntityManager,
  shopId: string,
  group: IProductRecommendationGroup | null,
  values: EntityData<IProductRecommendationGroup> & { name?: string },
  items: readonly GroupItemValues[] | undefined,
): Promise<number> {
  const target = group ?? tx.create(ProductRecommendationGroup, { name: values.name!, shop: shopId });
  tx.assign(target, values);
  if (items) {
    replaceItems(target, items, ({ id: _id, productId, ...fields }, row): IProductRecommendationItem => {
      const rowValues = { ...fields, product: tx.getReference(Product, productId) };
      return row ? tx.assign(row, rowValues) : tx.create(ProductRecommendationItem, { ...rowValues, shop: shopId, group: target });
    });
  }
  await tx.flush();
  return target.id;
}

/** Upsell groups of one shop (the entity manager is scoped to it by the shop filter). */
import type { EntityManager } from '@mikro-orm/postgresql';
import { ProductRecommendationGroup, type IProductRecommendationGroup } from '../../entities/shop/index.ts';
import { itemListWhere, type ItemListFilter } from './item-products.ts';
import type { ListWindow } from './reference.ts';

const withItems = { populate: ['items', 'items.product'] as const, populateWhere: 'all' as const };

export function listRecommendationGroups(em: EntityManager, filter: ItemListFilter, window: ListWindow) {
  return em.findAndCount(ProductRecommendationGroup, itemListWhere(filter, ['name', 'title']), { ...withItems, orderBy: { id: 'asc' }, ...window });
}

/** A group of the shop with its items; null for an unknown or foreign id. */
export function findRecommendationGroup(em: EntityManager, id: number): Promise<IProductRecommendationGroup | null> {
  return em.findOne(ProductRecommendationGroup, { id }, { ...withItems, refresh: true });
}

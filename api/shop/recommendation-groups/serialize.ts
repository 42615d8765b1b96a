import type { z } from 'zod';
import type { IProductRecommendationGroup } from '../../../db/entities/shop/index.ts';
import type { GroupItemValues } from '../../../db/repositories/shop/recommendation-groups.ts';
import type { GroupItemInput, RecommendationGroupReply, RecommendationGroupWrite } from './schemas.ts';

export function recommendationGroupReply(group: IProductRecommendationGroup): z.infer<typeof RecommendationGroupReply> {
  return {
    id: group.id,
    name: group.name,
    title: group.title,
    subtitle: group.subtitle,
    active: group.active,
    items: group.items.getItems().map((item) => ({
      id: item.id,
      product_id: item.product.id,
      product_name: item.product.getEntity().name,
      title: item.title,
      subtitle: item.subtitle,
      priority: item.priority,
      invokes_recommendation: item.invokesRecommendation,
      is_recommended: item.isRecommended,
    })),
    created_at: group.createdAt.toISOString(),
    updated_at: group.updatedAt.toISOString(),
  };
}

/** The entity properties of the fields sent, items aside (the names are the same in both). */
export function recommendationGroupValues({ items: _items, ...fields }: RecommendationGroupWrite): Partial<IProductRecommendationGroup> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

/** The sent items as the repository writes them (`undefined`: the items stay). */
export function groupItemValues(items: readonly GroupItemInput[] | undefined): GroupItemValues[] | undefined {
  return items?.map((item) => ({
    id: item.id,
    productId: item.product_id,
    title: item.title,
    subtitle: item.subtitle,
    priority: item.priority,
    invokesRecommendation: item.invokes_recommendation,
    isRecommended: item.is_recommended,
  }));
}

import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Product } from './product.ts';
import { shopOwned } from './shop-owned.ts';

/**
 * An upsell group (spec: Product recommendation (upsell) group): the cart frame shown when a
 * product that `invokesRecommendation` is in the cart, offering the items that `isRecommended`.
 */
export const ProductRecommendationGroup = defineEntity({
  name: 'ProductRecommendationGroup',
  tableName: 'shop_recommendation_groups',
  indexes: [{ properties: ['shop', 'createdAt'] }],
  ...shopOwned({
    name: p.string(),
    title: p.string().default(''),
    subtitle: p.string().default(''),
    active: p.boolean().default(true),
    items: () => p.oneToMany(ProductRecommendationItem).mappedBy('group').orderBy({ id: 'asc' }).orphanRemoval(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  }),
});
export type IProductRecommendationGroup = InferEntity<typeof ProductRecommendationGroup>;

/** One product of an upsell group; removing the product removes it from its groups. */
export const ProductRecommendationItem = defineEntity({
  name: 'ProductRecommendationItem',
  tableName: 'shop_recommendation_items',
  indexes: [{ properties: ['group'] }, { properties: ['shop', 'product'] }],
  ...shopOwned({
    group: () => p.manyToOne(ProductRecommendationGroup).ref().deleteRule('cascade'),
    product: () => p.manyToOne(Product).ref().deleteRule('cascade'),
    title: p.string().default(''),
    subtitle: p.string().default(''),
    priority: p.integer().default(0),
    invokesRecommendation: p.boolean().default(false),
    isRecommended: p.boolean().default(false),
  }),
});
export type IProductRecommendationItem = InferEntity<typeof ProductRecommendationItem>;

/**
 * What the storefront (DESIGN.md section 9) reads beyond the shop's own reads: the shop by its
 * subdomain (which scopes the entity manager to it), upsell recommendations, a set by its slug,
 * an order by its secret uuid, and the pages of the comparison feeds.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { Order, OrderItem, Product, ProductRecommendationItem, ProductSet, Shop, type IShop } from '../../entities/shop/index.ts';
import { SHOP_FILTER } from '../../tenant.ts';

/** The shop at `subdomain`, the entity manager scoped to it; null for none. */
export async function shopBySubdomain(em: EntityManager, subdomain: string): Promise<IShop | null> {
  const shop = await em.findOne(Shop, { subdomain });
  if (shop) em.setFilterParams(SHOP_FILTER, { shopId: shop.id });
  return shop;
}

/** An active, visible product of the shop with its photo; null otherwise. */
export function visibleProduct(em: EntityManager, id: number) {
  return em.findOne(Product, { id, active: true, hidden: false }, { populate: ['photo'] });
}

export interface Recommendation {
  productId: number;
  name: string;
  price: string;
  title: string;
  subtitle: string;
}

/**
 * The products recommended for those in `productIds`: the `is_recommended` items of the active
 * upsell groups in which one of them `invokes_recommendation`, by priority (highest first), each
 * product once, never one of `productIds`, only active visible products.
 */
export async function recommendationsFor(em: EntityManager, productIds: readonly number[]): Promise<Recommendation[]> {
  if (productIds.length === 0) return [];
  const invoking = await em.find(ProductRecommendationItem, { product: { $in: [...productIds] }, invokesRecommendation: true, group: { active: true } });
  const groupIds = [...new Set(invoking.map((item) => item.group.id))];
  if (groupIds.length === 0) return [];
  const items = await em.find(
    ProductRecommendationItem,
    { group: { $in: groupIds }, isRecommended: true, product: { active: true, hidden: false } },
    { populate: ['product'], orderBy: [{ priority: 'desc' }, { id: 'asc' }] },
  );
  const seen = new Set<number>(productIds);
  return items.flatMap((item) => {
    const product = item.product.getEntity();
    if (seen.has(product.id)) return [];
    seen.add(product.id);
    return [{ productId: product.id, name: product.name, price: product.price, title: item.title, subtitle: item.subtitle }];
  });
}

/** The shop's product set with this slug; null for none. */
export function productSetBySlug(em: EntityManager, slug: string) {
  return em.findOne(ProductSet, { slug });
}

/** The shop's order with this uuid, with its status and lines; null for none. */
export async function orderByUuid(em: EntityManager, uuid: string) {
  const order = await em.findOne(Order, { uuid }, { populate: ['orderStatus'] });
  if (!order) return null;
  const items = await em.find(OrderItem, { order: order.id }, { orderBy: { id: 'asc' } });
  return { order, items };
}

/** One page (by id, after `afterId`) of the products a comparison feed lists: active, visible, not `hide_in_xmls`. */
export function feedProductPage(em: EntityManager, afterId: number, limit: number) {
  return em.find(Product, { id: { $gt: afterId }, active: true, hidden: false, hideInXmls: false }, { orderBy: { id: 'asc' }, limit, populate: ['photo'] });
}

/** One page of the active sets with `expose_in_feeds` and a feed description. */
export function feedSetPage(em: EntityManager, afterId: number, limit: number) {
  return em.find(ProductSet, { id: { $gt: afterId }, active: true, exposeInFeeds: true, feedDescription: { $ne: '' } }, { orderBy: { id: 'asc' }, limit });
}

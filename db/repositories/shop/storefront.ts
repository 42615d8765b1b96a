/**
 * What the storefront (DESIGN.md section 9) reads beyond the shop's own reads: the shop by its
 * subdomain (which scopes the entity manager to it), upsell recommendations, a set by its slug,
 * an order by its secret uuid, and the pages of the comparison feeds.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { Order, OrderItem, Product, ProductSet, Shop, type IShop } from '../../entities/shop/index.ts';
import { SHOP_FILTER } from '../../tenant.ts';
import { runStatement, statement } from '../shared/prepared.ts';
import { intArray } from '../shared/array-literal.ts';

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
/**
 * The recommended items of the groups `products` invoke, best first (`:shop`; `products` an SQL
 * expression of an int array, `:products` by default): one statement, also a part of the cart's
 * pricing read (checkout-reads.ts).
 */
export const recommendationsSql = (products = ':products::int[]') => `
  select i.product_id as "productId", p.name, p.price::text as price, i.title, i.subtitle, i.priority, i.id
    from shop_recommendation_items i join shop_products p on p.id = i.product_id and p.shop_id = i.shop_id and p.active and not p.hidden
   where i.shop_id = :shop and i.is_recommended
     and i.group_id in (select v.group_id from shop_recommendation_items v join shop_recommendation_groups g on g.id = v.group_id and g.shop_id = v.shop_id and g.active
                         where v.shop_id = :shop and v.product_id = any(${products}) and v.invokes_recommendation)`;

/** The recommendations among `items` (best first) for `productIds`: each product once, never one of `productIds`. */
export function distinctRecommendations(items: readonly Recommendation[], productIds: readonly number[]): Recommendation[] {
  const seen = new Set<number>(productIds);
  return items
    .filter((item) => {
      if (seen.has(item.productId)) return false;
      seen.add(item.productId);
      return true;
    })
    .map(({ productId, name, price, title, subtitle }) => ({ productId, name, price, title, subtitle }));
}

export async function recommendationsFor(em: EntityManager, shopId: string, productIds: readonly number[]): Promise<Recommendation[]> {
  if (productIds.length === 0) return [];
  const items = await runStatement<Recommendation>(
    em,
    statement('shop-recommendations', `${recommendationsSql()} order by i.priority desc, i.id asc`, { shop: shopId, products: intArray(productIds) }),
  );
  return distinctRecommendations(items, productIds);
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

/** Storefront requests for tests: the buyer's side, no key. */
import type { LightMyRequestResponse } from 'fastify';
import type { App } from '../../api/app.ts';
import { ProductRecommendationGroup, ProductRecommendationItem, ProductSet } from '../../db/entities/shop/index.ts';
import type { Orm } from '../../db/orm.ts';
import { SHOP_FILTER } from '../../db/tenant.ts';

type Reply = Promise<LightMyRequestResponse>;

export interface Buyer {
  get(path: string, headers?: Record<string, string>): Reply;
  post(path: string, payload?: unknown, headers?: Record<string, string>): Reply;
  patch(path: string, payload: unknown, headers?: Record<string, string>): Reply;
}

/** Requests to `/store/v1/<subdomain><path>` from `remoteAddress` (default 127.0.0.1). */
export function buyer(app: App, subdomain: string, remoteAddress = '127.0.0.1'): Buyer {
  const url = (path: string) => `/store/v1/${subdomain}${path}`;
  return {
    get: (path, headers = {}) => app.inject({ method: 'GET', url: url(path), headers, remoteAddress }),
    post: (path, payload, headers = {}) =>
      app.inject({ method: 'POST', url: url(path), remoteAddress, headers: payload === undefined ? headers : { 'content-type': 'application/json', ...headers }, ...(payload === undefined ? {} : { payload: payload as object }) }),
    patch: (path, payload, headers = {}) => app.inject({ method: 'PATCH', url: url(path), remoteAddress, headers: { 'content-type': 'application/json', ...headers }, payload: payload as object }),
  };
}

/** The slug of a product set (insertProductSet makes one up). */
export async function setSlug(orm: Orm, setId: number): Promise<string> {
  return (await orm.em.fork().findOneOrFail(ProductSet, setId, { filters: false })).slug;
}

export interface GroupItem {
  productId: number;
  invokes?: boolean;
  recommended?: boolean;
  priority?: number;
  title?: string;
}

/** An upsell group of the shop with its items; returns its id. */
export async function insertRecommendationGroup(orm: Orm, shopId: string, items: GroupItem[], active = true): Promise<number> {
  const em = orm.em.fork();
  em.setFilterParams(SHOP_FILTER, { shopId });
  const group = em.create(ProductRecommendationGroup, { shop: shopId, name: 'Upsell', title: 'You may like', active });
  for (const item of items) {
    em.create(ProductRecommendationItem, {
      shop: shopId,
      group,
      product: item.productId,
      title: item.title ?? '',
      priority: item.priority ?? 0,
      invokesRecommendation: item.invokes ?? false,
      isRecommended: item.recommended ?? false,
    });
  }
  await em.flush();
  return group.id;
}

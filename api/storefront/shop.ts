import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import type { IShop } from '../../db/entities/shop/index.ts';
import { shopBySubdomain } from '../../db/repositories/shop/storefront.ts';
import { notFound } from '../shared/errors.ts';

/** `:subdomain` of every storefront path: the shop's subdomain as made (lower case, at most 63). */
export const SubdomainParams = z.object({ subdomain: z.string().min(1).max(63).describe("the shop's subdomain") });

/** The shop the path names, the request's entity manager scoped to it; 404 for none. */
export async function storefrontShop(request: { params: { subdomain: string }; em: EntityManager }): Promise<IShop> {
  const shop = await shopBySubdomain(request.em, request.params.subdomain);
  if (!shop) throw notFound('shop');
  return shop;
}

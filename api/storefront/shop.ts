import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { IShop } from '../../db/entities/shop/index.ts';
import { shopBySubdomain } from '../../db/repositories/shop/storefront.ts';
import { SHOP_FILTER } from '../../db/tenant.ts';
import { notFound } from '../shared/errors.ts';

/** `:subdomain` of every storefront path: the shop's subdomain as made (lower case, at most 63). */
export const SubdomainParams = z.object({ subdomain: z.string().min(1).max(63).describe("the shop's subdomain") });

/** What the storefront's hot paths need of a shop: fields fixed when the shop is made. */
export interface StorefrontShop {
  id: string;
  subdomain: string;
  currency: string;
}

/** Beyond this many shops the oldest are dropped (a bound on memory whatever comes). */
const MAX_SHOPS = 10_000;

/**
 * The shops found by subdomain, kept for the life of the instance: a shop is never deleted and its
 * id, subdomain and currency never change (the operator's PATCH changes only name and switches),
 * so what is kept cannot go stale. Unknown subdomains are asked again each time (a shop may be
 * made meanwhile). Saves the shop's statement on every storefront request (issue 26).
 */
export class StorefrontShops {
  private readonly entries = new Map<string, StorefrontShop>();

  async find(subdomain: string, load: () => Promise<StorefrontShop | null>): Promise<StorefrontShop | null> {
    const kept = this.entries.get(subdomain);
    if (kept) return kept;
    const shop = await load();
    if (!shop) return null;
    if (this.entries.size >= MAX_SHOPS) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(subdomain, shop);
    return shop;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The storefront's shops by subdomain (api/storefront/shop.ts). */
    storefrontShops: StorefrontShops;
  }
}

/** The shop the path names, the request's entity manager scoped to it; 404 for none. */
export async function storefrontShop(request: { params: { subdomain: string }; em: EntityManager; server: FastifyInstance }): Promise<StorefrontShop> {
  const shop = await request.server.storefrontShops.find(request.params.subdomain, async () => {
    const found = await shopBySubdomain(request.em, request.params.subdomain);
    return found && { id: found.id, subdomain: found.subdomain, currency: found.currency };
  });
  if (!shop) throw notFound('shop');
  request.em.setFilterParams(SHOP_FILTER, { shopId: shop.id });
  return shop;
}

/** The whole shop the path names (its name too), read now, the request's entity manager scoped to it; 404 for none. */
export async function storefrontShopRecord(request: { params: { subdomain: string }; em: EntityManager }): Promise<IShop> {
  const shop = await shopBySubdomain(request.em, request.params.subdomain);
  if (!shop) throw notFound('shop');
  return shop;
}

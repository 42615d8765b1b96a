import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { OrderStatus, Shop, ShopApiKey, type IShop } from '../../entities/shop/index.ts';
import { SHOP_FILTER } from '../../tenant.ts';
import { BUILT_IN_ORDER_STATUSES } from '../../../domain/shop/order-statuses.ts';
import type { ShopScope } from '../../../domain/shop/scopes.ts';

export interface NewShop {
  subdomain: string;
  name: string;
  currency: string;
  adminEmail: string | null;
}

/** A shop with its built-in order statuses, in one transaction; null when the subdomain is taken. */
export async function createShop(em: EntityManager, input: NewShop): Promise<IShop | null> {
  try {
    return await em.transactional(async (tx) => {
      const shop = tx.create(Shop, input);
      BUILT_IN_ORDER_STATUSES.forEach(({ name, kind }, position) => tx.create(OrderStatus, { shop, name, kind, visible: true, position }));
      await tx.flush();
      return shop;
    });
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) return null;
    throw error;
  }
}

/** Loads a shop by id and scopes `em` to it; null when unknown. */
export async function useShop(em: EntityManager, shopId: string): Promise<IShop | null> {
  const shop = await em.findOne(Shop, shopId);
  if (shop) em.setFilterParams(SHOP_FILTER, { shopId: shop.id });
  return shop;
}

export async function createShopApiKey(em: EntityManager, shop: IShop, key: { name: string; scopes: ShopScope[]; prefix: string; keyHash: string }) {
  const row = em.create(ShopApiKey, { shop, ...key });
  await em.flush();
  return row;
}

/** Revokes a key of the shop; false when the shop has no such live key. */
export async function revokeShopApiKey(em: EntityManager, shopId: string, keyId: string): Promise<boolean> {
  const revoked = await em.nativeUpdate(ShopApiKey, { id: keyId, shop: shopId, revokedAt: null }, { revokedAt: new Date() });
  return revoked > 0;
}

/** The shop API key with this hash and its shop, of any shop (looked up before the request has a tenant), or null. */
export function findShopApiKeyByHash(em: EntityManager, keyHash: string) {
  return em.findOne(ShopApiKey, { keyHash }, { filters: false, populate: ['shop'] });
}

import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { OrderStatus, Shop, ShopApiKey, type IShop } from '../../entities/shop/index.ts';
import { SHOP_FILTER } from '../../tenant.ts';
import { BUILT_IN_ORDER_STATUSES } from '../../../domain/shop/order-statuses.ts';
import type { ShopScope } from '../../../domain/shop/scopes.ts';
import type { InvoiceSeller } from '../../../domain/shop/invoice-seller.ts';

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

/** Whether the shop issues an invoice for every cleared order (false for an unknown shop). */
export async function invoicesAutomatically(em: EntityManager, shopId: string): Promise<boolean> {
  const [row] = await em.execute<{ automatic_invoicing: boolean }[]>('select automatic_invoicing from shops where id = ?', [shopId]);
  return row?.automatic_invoicing === true;
}

/** Writes the fields given (an absent one stays); a change of the API switch is announced in the same transaction. */
export async function updateShop(
  em: EntityManager,
  shop: IShop,
  change: { name?: string | undefined; apiEnabled?: boolean | undefined; automaticInvoicing?: boolean | undefined; invoiceSeller?: InvoiceSeller | null | undefined; timeZone?: string | undefined },
): Promise<void> {
  if (change.name !== undefined) shop.name = change.name;
  if (change.timeZone !== undefined) shop.timeZone = change.timeZone;
  if (change.apiEnabled !== undefined) shop.apiEnabled = change.apiEnabled;
  if (change.automaticInvoicing !== undefined) shop.automaticInvoicing = change.automaticInvoicing;
  if (change.invoiceSeller !== undefined) shop.invoiceSeller = change.invoiceSeller;
  // One transaction, as a key revocation: the notice is delivered with the commit, never without it.
  await em.transactional(async (tx) => {
    await tx.flush();
    // A cached key carries the shop's zone too (api/shop/auth.ts).
    if (change.apiEnabled !== undefined || change.timeZone !== undefined) await announceShopKeyChange(tx, shop.id);
  });
}

export async function createShopApiKey(em: EntityManager, shop: IShop, key: { name: string; scopes: ShopScope[]; prefix: string; keyHash: string }) {
  const row = em.create(ShopApiKey, { shop, ...key });
  await em.flush();
  return row;
}

/** The channel on which api instances hear that a shop's keys or its API switch changed (api/shop/key-cache.ts). */
export const SHOP_KEY_CHANGES_CHANNEL = 'shop_api_key_changes';

/**
 * Tells every api instance to forget what it keeps of the shop's keys. Call it in the transaction
 * that makes the change, after the change, or after it committed: delivered once committed, so no
 * instance can hear it and then still read the old row.
 */
export async function announceShopKeyChange(em: EntityManager, shopId: string): Promise<void> {
  await em.execute('select pg_notify(?, ?)', [SHOP_KEY_CHANGES_CHANNEL, shopId]);
}

/** Revokes a key of the shop (announced); false when the shop has no such live key. */
export async function revokeShopApiKey(em: EntityManager, shopId: string, keyId: string): Promise<boolean> {
  return em.transactional(async (tx) => {
    const revoked = await tx.nativeUpdate(ShopApiKey, { id: keyId, shop: shopId, revokedAt: null }, { revokedAt: new Date() });
    if (revoked > 0) await announceShopKeyChange(tx, shopId);
    return revoked > 0;
  });
}

/** A shop API key with its shop, as authentication reads it. */
export interface ShopKeyRow {
  key_id: string;
  prefix: string;
  scopes: ShopScope[];
  revoked: boolean;
  shop_id: string;
  subdomain: string;
  currency: string;
  time_zone: string;
  api_enabled: boolean;
}

/**
 * The shop API key with this hash and its shop, of any shop (looked up before the request has a
 * tenant), in one indexed statement; undefined for none. The api keeps the answers for a few
 * seconds (api/shop/key-cache.ts), hence the announcements above.
 */
export async function shopKeyByHash(em: EntityManager, keyHash: string): Promise<ShopKeyRow | undefined> {
  const [row] = await em.execute<ShopKeyRow[]>(
    `select k.id as key_id, k.prefix, k.scopes, k.revoked_at is not null as revoked, s.id as shop_id, s.subdomain, s.currency, s.time_zone, s.api_enabled
       from shop_api_keys k join shops s on s.id = k.shop_id
      where k.key_hash = ?`,
    [keyHash],
  );
  return row;
}

/** The shop; fails when there is none. */
export function loadShop(em: EntityManager, shopId: string): Promise<IShop> {
  return em.findOneOrFail(Shop, shopId);
}

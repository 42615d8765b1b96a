import type { EntityManager } from '@mikro-orm/postgresql';
import { ShopAuditLogEntry, type IShopAuditLogEntry } from '../../entities/shop/index.ts';

/** A configuration request in its shop's audit log, written at once. */
export async function recordShopConfigurationRequest(
  em: EntityManager,
  shopId: string,
  entry: { at: Date; method: string; path: string; status: number; keyPrefix: string },
): Promise<void> {
  em.create(ShopAuditLogEntry, { shop: shopId, ...entry });
  await em.flush();
}

/** The shop's latest audit log entries, newest first (at most 1000). */
export function latestShopAuditLogEntries(em: EntityManager): Promise<IShopAuditLogEntry[]> {
  return em.find(ShopAuditLogEntry, {}, { orderBy: { at: 'desc', id: 'desc' }, limit: 1000 });
}

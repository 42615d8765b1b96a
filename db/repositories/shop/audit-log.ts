import type { EntityManager } from '@mikro-orm/postgresql';
import { ShopAuditLogEntry } from '../../entities/shop/index.ts';

/** A configuration request in its shop's audit log (flushed by the caller). */
export function recordShopConfigurationRequest(
  em: EntityManager,
  shopId: string,
  entry: { at: Date; method: string; path: string; status: number; keyPrefix: string },
): void {
  em.create(ShopAuditLogEntry, { shop: shopId, ...entry });
}

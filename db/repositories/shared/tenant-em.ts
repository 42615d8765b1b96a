import type { EntityManager } from '@mikro-orm/postgresql';
import { SHOP_FILTER, TENANT_FILTER } from '../../tenant.ts';
import type { Orm } from '../../orm.ts';
import { withPooledStatements } from './pooled-transaction.ts';

/**
 * A fresh identity map scoped to one platform: every platform activity starts from one of these.
 * Its plain statements outside a transaction go prepared on a pooled connection (withPooledStatements).
 */
export function tenantEm(orm: Orm, platformId: string) {
  const em = orm.em.fork();
  em.setFilterParams(TENANT_FILTER, { platformId });
  return withPooledStatements(em);
}

/** A fresh identity map scoped to one shop: every shop activity starts from one of these (as tenantEm). */
export function shopEm(orm: Orm, shopId: string): EntityManager {
  const em = orm.em.fork() as EntityManager;
  em.setFilterParams(SHOP_FILTER, { shopId });
  return withPooledStatements(em);
}

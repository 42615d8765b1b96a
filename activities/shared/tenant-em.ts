import { TENANT_FILTER } from '../../db/tenant.ts';
import type { Orm } from '../../db/orm.ts';

/** A fresh identity map scoped to one platform: every activity starts from one of these. */
export function tenantEm(orm: Orm, platformId: string) {
  const em = orm.em.fork();
  em.setFilterParams(TENANT_FILTER, { platformId });
  return em;
}

import type { EntityName, FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { findTenantRow } from '../../db/repositories/shared/tenant-rows.ts';
import { notFound } from '../shared/errors.ts';

/**
 * The second id of an operator route (`/shops/:shop_id/orders/:order_id/...`,
 * `/platforms/:platform_id/courses/:course_id`, ...): the row `where` finds in the tenant the entity
 * manager was scoped to by the first id (`shopOf`, `usePlatform`), else a 404 naming `what`. Another
 * tenant's id is a 404 like an unknown one (DESIGN.md section 8), never a reply about that row.
 */
export async function ownedOr404<T extends object>(em: EntityManager, entity: EntityName<T>, where: FilterQuery<T>, what: string): Promise<T> {
  const row = await findTenantRow(em, entity, where);
  if (!row) throw notFound(what);
  return row;
}

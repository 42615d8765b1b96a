import type { EntityName, FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * The row `where` finds among the tenant's rows the manager is scoped to (platform or shop filter),
 * or null: another tenant's row is as absent as an unknown one.
 */
export function findTenantRow<T extends object>(em: EntityManager, entity: EntityName<T>, where: FilterQuery<T>): Promise<T | null> {
  return em.findOne(entity, where) as Promise<T | null>;
}

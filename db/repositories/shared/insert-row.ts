import type { EntityName, RequiredEntityData } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';

/** A new row of `entity`, written at once (a unique violation throws); the entity as written. */
export async function insertRow<T extends object>(em: EntityManager, entity: EntityName<T>, values: RequiredEntityData<T>): Promise<T> {
  const row = em.create(entity, values);
  await em.flush();
  return row;
}

import type { EntityManager } from '@mikro-orm/postgresql';

/** Whether PostgreSQL answers a trivial statement. */
export function databaseAnswers(em: EntityManager): Promise<boolean> {
  return em.getConnection().execute('select 1').then(() => true, () => false);
}

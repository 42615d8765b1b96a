import type { EntityManager } from '@mikro-orm/postgresql';
import { StoredFile, type IStoredFile } from '../../entities/index.ts';

/** The stored file's row by id, or null; the manager is scoped to the platform. */
export function findStoredFile(em: EntityManager, fileId: string): Promise<IStoredFile | null> {
  return em.findOne(StoredFile, fileId);
}

import type { EntityManager } from '@mikro-orm/postgresql';
import { StoredFile, type IStoredFile } from '../../entities/index.ts';

/** The stored file's row by id, or null; the manager is scoped to the platform. */
export function findStoredFile(em: EntityManager, fileId: string): Promise<IStoredFile | null> {
  return em.findOne(StoredFile, fileId);
}

/** The row of a file just written to disk, flushed with the caller's change (the document that uses it). */
export function addStoredFile(em: EntityManager, file: { id: string; platformId: string; filename: string; contentType: string; byteSize: number }): void {
  em.create(StoredFile, { id: file.id, platform: file.platformId, filename: file.filename, contentType: file.contentType, byteSize: file.byteSize });
}

/** Deletes the rows of these files (replaced or removed images, after the change committed). */
export async function deleteStoredFiles(em: EntityManager, fileIds: readonly string[]): Promise<void> {
  await em.nativeDelete(StoredFile, { id: { $in: [...fileIds] } });
}

import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { EntityManager } from '@mikro-orm/postgresql';
import { addStoredFile, deleteStoredFiles, findStoredFile } from '../../db/repositories/shared/stored-files.ts';
import type { ImageInput } from './schemas.ts';

/**
 * Uploaded images on disk under `<storage dir>/<platform id>/<file id>`, described by a StoredFile
 * row. Bytes are written before the row commits; a failed save leaves at most an orphan file.
 */
export function createImageStore(storageDir: string) {
  const fileOf = (platformId: string, fileId: string) => path.join(storageDir, platformId, fileId);

  return {
    async save(em: EntityManager, platformId: string, image: ImageInput): Promise<string> {
      const id = randomUUID();
      await mkdir(path.join(storageDir, platformId), { recursive: true });
      await writeFile(fileOf(platformId, id), image.bytes);
      addStoredFile(em, { id, platformId, filename: image.filename, contentType: image.contentType, byteSize: image.bytes.length });
      return id;
    },

    /** Removes images that were replaced or removed, once the change is committed. */
    async discard(em: EntityManager, platformId: string, fileIds: readonly string[]): Promise<void> {
      if (fileIds.length === 0) return;
      await deleteStoredFiles(em, fileIds);
      await Promise.all(fileIds.map((id) => rm(fileOf(platformId, id), { force: true })));
    },

    async read(em: EntityManager, platformId: string, fileId: string): Promise<{ contentType: string; bytes: Buffer } | null> {
      const stored = await findStoredFile(em, fileId);
      if (!stored) return null;
      const bytes = await readFile(fileOf(platformId, stored.id)).catch(() => null);
      return bytes ? { contentType: stored.contentType, bytes } : null;
    },
  };
}

export type ImageStore = ReturnType<typeof createImageStore>;

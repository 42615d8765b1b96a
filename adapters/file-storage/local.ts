import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FileStorage } from './file-storage.ts';

/**
 * Files under a folder; written to a temporary name and renamed, so a reader never sees half a
 * file. Bytes are streamed in both directions: nothing here holds a whole file unless `get` is asked.
 */
export function localFileStorage(root: string): FileStorage {
  const fileOf = (key: string) => {
    const resolved = path.resolve(root, key);
    if (!resolved.startsWith(path.resolve(root) + path.sep)) throw new Error(`storage key ${key} leaves the storage folder`);
    return resolved;
  };
  const missing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

  /** The open file, or null when nothing is stored under `key`. */
  const openFile = async (key: string) => {
    try {
      return await open(fileOf(key), 'r');
    } catch (error) {
      if (missing(error)) return null;
      throw error;
    }
  };

  return {
    async put(key, body, byteSize) {
      const target = fileOf(key);
      await mkdir(path.dirname(target), { recursive: true });
      const temporary = `${target}.${randomUUID()}.part`;
      try {
        const output = createWriteStream(temporary);
        if (Buffer.isBuffer(body)) await new Promise<void>((resolve, reject) => output.on('error', reject).end(body, resolve));
        else await pipeline(body, output);
        if (output.bytesWritten !== byteSize) throw new Error(`storage put ${key}: ${output.bytesWritten} bytes written, ${byteSize} announced`);
        await rename(temporary, target);
      } finally {
        await rm(temporary, { force: true });
      }
    },
    async get(key) {
      const file = await openFile(key);
      if (!file) return null;
      try {
        return await file.readFile();
      } finally {
        await file.close();
      }
    },
    async stream(key) {
      // Opened first, so a missing file is a null here rather than an error on the stream later.
      const file = await openFile(key);
      return file ? file.createReadStream() : null;
    },
    async delete(key) {
      await rm(fileOf(key), { force: true });
    },
  };
}

import type { Readable } from 'node:stream';

/** What a storage does (index.ts picks one); its own module so the storages need not import index.ts. */
export interface FileStorage {
  /** Stores exactly `byteSize` bytes under `key` (replacing what was there); a stream is consumed as it is sent. */
  put(key: string, body: Buffer | Readable, byteSize: number, contentType: string): Promise<void>;
  /** The whole content, or null when nothing is stored under `key`. */
  get(key: string): Promise<Buffer | null>;
  /** A stream of the content, or null when nothing is stored under `key`. */
  stream(key: string): Promise<Readable | null>;
  /** Removes the content; a missing key is not an error. */
  delete(key: string): Promise<void>;
}

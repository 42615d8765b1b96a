/**
 * The `file` of a product-file write: its envelope checked before the body schema (400 for a
 * malformed file object or file together with source_content_id, 413 for a file over 50 MB read
 * from the base64 length, before anything is decoded), then decoded in chunks straight into the
 * file storage, the type decided from the first chunk.
 */
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { fileTypeFromBuffer } from 'file-type';
import type { FileStorage } from '../../../adapters/file-storage/index.ts';
import type { StoredFile } from '../../../db/repositories/shop/electronic-contents.ts';
import {
  MAX_CONTENT_BASE64_LENGTH,
  MAX_CONTENT_BYTES,
  base64DecodedSize,
  base64Start,
  ebookTypeOf,
  type EbookType,
} from '../../../domain/shop/electronic-content-rules.ts';
import { HttpError, badRequest } from '../../shared/errors.ts';

/** The largest valid body: a 50 MB file in base64 plus room for every other field (escaped text included). */
export const CONTENT_BODY_LIMIT = MAX_CONTENT_BASE64_LENGTH + 1024 * 1024;

/** 4 × 256 Ki characters of base64: 768 KiB decoded at a time, plenty for the type sniffer. */
const CHUNK_CHARACTERS = 4 * 256 * 1024;

export const FILE_TOO_LARGE = `the file is over 50 MB (${MAX_CONTENT_BYTES} bytes)`;
export const NOT_AN_EBOOK = 'the file content is not an accepted e-book: PDF, EPUB, MOBI or AZW3';

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * 400 and 413 of the spec, before the schema looks at the body. `creating`: a POST, where a file or
 * a source_content_id is required and both together are refused. Bodies that are not objects are
 * left to the schema (422).
 */
export function checkFileEnvelope(body: unknown, creating: boolean): void {
  if (!isPlainObject(body)) return;
  const hasFile = body.file !== undefined;
  const hasSource = creating && body.source_content_id !== undefined && body.source_content_id !== null;
  if (hasFile && hasSource) throw badRequest('send either file or source_content_id, not both');
  if (creating && !hasFile && !hasSource) throw badRequest('file or source_content_id is required');
  if (!hasFile) return;
  const { file } = body;
  if (!isPlainObject(file) || typeof file.data !== 'string' || file.data === '') {
    throw badRequest('file must be an object {filename, content_type, data} with the file in base64 in data');
  }
  if (base64DecodedSize(file.data) > MAX_CONTENT_BYTES) throw new HttpError(413, FILE_TOO_LARGE);
}

/** The base64 text without prefix and whitespace (a copy only when there was whitespace). */
function base64Text(data: string): string {
  const text = data.slice(base64Start(data));
  return /\s/.test(text) ? text.replace(/\s+/g, '') : text;
}

function* decodedChunks(text: string, first: Buffer): Generator<Buffer> {
  yield first;
  for (let at = CHUNK_CHARACTERS; at < text.length; at += CHUNK_CHARACTERS) yield Buffer.from(text.slice(at, at + CHUNK_CHARACTERS), 'base64');
}

export interface DecodedUpload {
  type: EbookType;
  byteSize: number;
  /** The decoded bytes, produced as the storage reads them. */
  body: Readable;
}

/** The e-book in `data` (valid base64, checked by the schema), or null when its content is not an accepted type. */
export async function decodeEbook(data: string): Promise<DecodedUpload | null> {
  const text = base64Text(data);
  const first = Buffer.from(text.slice(0, CHUNK_CHARACTERS), 'base64');
  const type = ebookTypeOf(first, (await fileTypeFromBuffer(first))?.mime);
  if (!type) return null;
  return { type, byteSize: base64DecodedSize(data), body: Readable.from(decodedChunks(text, first), { objectMode: false }) };
}

/** Puts the decoded bytes in the storage under a new key of the shop. */
export async function storeEbook(storage: FileStorage, shopId: string, filename: string, upload: DecodedUpload): Promise<StoredFile> {
  const storageKey = `shop/${shopId}/${randomUUID()}`;
  await storage.put(storageKey, upload.body, upload.byteSize, upload.type.contentType);
  return { storageKey, filename, contentType: upload.type.contentType, byteSize: upload.byteSize };
}

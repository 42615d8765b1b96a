/**
 * Uploaded images (logo, favicon, mobile icon, welcome cover, product photo): PNG or JPEG, smaller
 * than 5 MB, the type decided from the bytes by the `file-type` library and never from the
 * declared `content_type` or file name.
 */
import { fileTypeFromBuffer } from 'file-type';

/** 5 MB in SI units; an image of exactly this size is already too large. */
export const MAX_IMAGE_BYTES = 5_000_000;

export type ImageContentType = 'image/png' | 'image/jpeg';

/** What `file-type` may answer for an image we take, and the type we store it as (an APNG is a PNG). */
const IMAGE_TYPES: Readonly<Record<string, ImageContentType>> = { 'image/png': 'image/png', 'image/apng': 'image/png', 'image/jpeg': 'image/jpeg' };

/** PNG or JPEG as `file-type` reads the content; null for anything else, also a truncated file. */
export async function sniffImageType(bytes: Uint8Array): Promise<ImageContentType | null> {
  if (bytes.length === 0) return null;
  const detected = await fileTypeFromBuffer(bytes);
  return (detected && IMAGE_TYPES[detected.mime]) ?? null;
}

// A plain character class: a grouped repetition would overflow the regex stack on megabytes of input.
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Strict base64 (Node's decoder silently skips garbage); a `data:...;base64,` prefix and line breaks are allowed. */
export function decodeBase64(data: string): Buffer | null {
  const body = data.replace(/^data:[\w/+.-]+;base64,/, '').replace(/\s+/g, '');
  return BASE64.test(body) && body.length % 4 !== 1 ? Buffer.from(body, 'base64') : null;
}

export type ImageBytes = { ok: true; bytes: Buffer } | { ok: false; message: string };
export type ImageCheck = { ok: true; bytes: Buffer; contentType: ImageContentType } | { ok: false; message: string };

export const NOT_AN_IMAGE = 'the file content is not a PNG or JPEG image';

/** The bytes of an upload, checked for what needs no parsing (base64, size); synchronous, for schemas. */
export function decodeImage(base64: string): ImageBytes {
  const bytes = decodeBase64(base64);
  if (!bytes || bytes.length === 0) return { ok: false, message: 'data must be the file in base64' };
  if (bytes.length >= MAX_IMAGE_BYTES) return { ok: false, message: `the image must be smaller than 5 MB (${MAX_IMAGE_BYTES} bytes)` };
  return { ok: true, bytes };
}

/** Decoded, under the size limit and a PNG or JPEG by its content. */
export async function checkImage(base64: string): Promise<ImageCheck> {
  const decoded = decodeImage(base64);
  if (!decoded.ok) return decoded;
  const contentType = await sniffImageType(decoded.bytes);
  if (!contentType) return { ok: false, message: NOT_AN_IMAGE };
  return { ok: true, bytes: decoded.bytes, contentType };
}

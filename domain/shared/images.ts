/**
 * Uploaded images (logo, favicon, mobile icon, welcome cover): PNG or JPEG, smaller than 5 MB,
 * the type decided from the bytes and never from the declared `content_type` or file name.
 */

/** 5 MB in SI units; an image of exactly this size is already too large. */
export const MAX_IMAGE_BYTES = 5_000_000;

export type ImageContentType = 'image/png' | 'image/jpeg';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG_SIGNATURE = [0xff, 0xd8, 0xff];

const startsWith = (bytes: Uint8Array, signature: number[]) => bytes.length >= signature.length && signature.every((b, i) => bytes[i] === b);

export function sniffImageType(bytes: Uint8Array): ImageContentType | null {
  if (startsWith(bytes, PNG_SIGNATURE)) return 'image/png';
  if (startsWith(bytes, JPEG_SIGNATURE)) return 'image/jpeg';
  return null;
}

// A plain character class: a grouped repetition would overflow the regex stack on megabytes of input.
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Strict base64 (Node's decoder silently skips garbage); a `data:...;base64,` prefix and line breaks are allowed. */
export function decodeBase64(data: string): Buffer | null {
  const body = data.replace(/^data:[\w/+.-]+;base64,/, '').replace(/\s+/g, '');
  return BASE64.test(body) && body.length % 4 !== 1 ? Buffer.from(body, 'base64') : null;
}

export type ImageCheck = { ok: true; bytes: Buffer; contentType: ImageContentType } | { ok: false; message: string };

export function checkImage(base64: string): ImageCheck {
  const bytes = decodeBase64(base64);
  if (!bytes || bytes.length === 0) return { ok: false, message: 'data must be the file in base64' };
  if (bytes.length >= MAX_IMAGE_BYTES) return { ok: false, message: `the image must be smaller than 5 MB (${MAX_IMAGE_BYTES} bytes)` };
  const contentType = sniffImageType(bytes);
  if (!contentType) return { ok: false, message: 'the file content is not a PNG or JPEG image' };
  return { ok: true, bytes, contentType };
}

/**
 * Rules of product files (spec: Electronic content, Product files, Limits): the 50 MB limit read
 * from the base64 text before anything is decoded, the e-book type decided from the bytes, and the
 * settings a copy (`source_content_id`) takes from its source.
 */

/** 50 MB in binary units: a file of exactly this many bytes is accepted, one byte more is a 413. */
export const MAX_CONTENT_BYTES = 50 * 1024 * 1024;
/** Length of the base64 text of the largest accepted file (padded). */
export const MAX_CONTENT_BASE64_LENGTH = Math.ceil(MAX_CONTENT_BYTES / 3) * 4;
export const MAX_WATERMARK_LENGTH = 128;
export const MAX_DESCRIPTION_LENGTH = 30_000;
/** Kinds the API may add; audio, video and webinar files are added in the panel. */
export const CONTENT_KINDS = ['normal'] as const;

const DATA_URL_PREFIX = /^data:[\w/+.-]+;base64,/;
const WHITESPACE = /\s/;
// A plain character class: a grouped repetition would overflow the regex stack on megabytes of input.
const BASE64_TEXT = /^[A-Za-z0-9+/]*={0,2}$/;

/** Tab, line feed, vertical tab, form feed, carriage return, space. */
const isSpace = (code: number) => code === 32 || (code >= 9 && code <= 13);

/** Where the base64 text starts (after an optional `data:<type>;base64,` prefix). */
export function base64Start(data: string): number {
  return DATA_URL_PREFIX.exec(data.slice(0, 200))?.[0].length ?? 0;
}

/**
 * The number of bytes `data` decodes to, from its length alone (line breaks and other whitespace
 * are not counted). Exact for valid base64; never smaller than the decoded size of any text.
 */
export function base64DecodedSize(data: string): number {
  const start = base64Start(data);
  let characters = data.length - start;
  let padding = 0;
  if (WHITESPACE.test(data)) {
    characters = 0;
    for (let i = start; i < data.length; i++) if (!isSpace(data.charCodeAt(i))) characters++;
  }
  for (let i = data.length - 1; i >= start && padding < 2; i--) {
    const c = data[i]!;
    if (c === '=') padding++;
    else if (!isSpace(c.charCodeAt(0))) break;
  }
  return Math.max(0, Math.floor((characters * 3) / 4) - padding);
}

/** Is `data` base64 (prefix and whitespace allowed, nothing else that Node's decoder would skip)? */
export function isBase64(data: string): boolean {
  const start = base64Start(data);
  const text = WHITESPACE.test(data) ? data.slice(start).replace(/\s+/g, '') : data.slice(start);
  return text.length > 0 && text.length % 4 !== 1 && BASE64_TEXT.test(text);
}

export interface EbookType {
  contentType: string;
  format: 'pdf' | 'epub' | 'mobi' | 'azw3';
}

const BY_SNIFFED_TYPE: Record<string, EbookType> = {
  'application/pdf': { contentType: 'application/pdf', format: 'pdf' },
  'application/epub+zip': { contentType: 'application/epub+zip', format: 'epub' },
};

/** `BOOKMOBI` at offset 60 of a Palm database: a Mobipocket or Kindle (KF8, AZW3) book. */
const BOOKMOBI = [0x42, 0x4f, 0x4f, 0x4b, 0x4d, 0x4f, 0x42, 0x49];

function isPalmBook(head: Uint8Array): boolean {
  return head.length >= 68 && BOOKMOBI.every((byte, i) => head[60 + i] === byte);
}

/**
 * A KF8-only book (AZW3) has version 8 in the MOBI header of its first record; anything else with
 * the BOOKMOBI signature is a MOBI file.
 */
function palmBookFormat(head: Uint8Array): EbookType {
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const mobi: EbookType = { contentType: 'application/x-mobipocket-ebook', format: 'mobi' };
  if (head.length < 86) return mobi;
  const record0 = view.getUint32(78);
  const header = record0 + 16;
  if (header + 40 > head.length) return mobi;
  const magic = String.fromCharCode(...head.subarray(header, header + 4));
  if (magic !== 'MOBI' || view.getUint32(header + 20) !== 8) return mobi;
  return { contentType: 'application/vnd.amazon.ebook', format: 'azw3' };
}

/**
 * The e-book type of a file from its first bytes and what the content sniffer (file-type) said;
 * null when it is not one of PDF, EPUB, MOBI or AZW3. The Palm signature is checked first: a book
 * whose title starts like another format's magic bytes is still a MOBI.
 */
export function ebookTypeOf(head: Uint8Array, sniffedMime: string | undefined): EbookType | null {
  if (isPalmBook(head)) return palmBookFormat(head);
  return (sniffedMime && BY_SNIFFED_TYPE[sniffedMime]) || null;
}

/** The settings of an electronic content, as stored. */
export interface ContentSettings {
  kind: string;
  contentTitle: string | null;
  daysToExpire: number;
  usagesToExpire: number;
  watermark: string;
  watermarkInterval: number;
  description: string;
  distributeViaShopCas: boolean;
}

/** A copy takes every setting of its source; the fields sent override them. */
export function copiedSettings(source: ContentSettings, sent: Partial<ContentSettings>): ContentSettings {
  return { ...source, ...definedOnly(sent) };
}

/** The fields of `values` that were sent (not undefined). */
export function definedOnly<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** Fields a new content without a source must have (spec: required with file). */
export function missingForUpload(sent: Partial<ContentSettings>): (keyof ContentSettings)[] {
  return (['daysToExpire', 'usagesToExpire'] as const).filter((field) => sent[field] === undefined);
}

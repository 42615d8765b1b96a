import { z } from 'zod';

/**
 * An order line's `file_keys` (spec: Order item, "digital files or contents; members named key,
 * name, description, cover_key, uri, chat"; the element shape beyond the names is not shown).
 * Our choice (docs/decisions/access.md, issue 40 item 5): `key` identifies the file and is
 * required; name, description, cover_key and uri describe it as the caller's shop knows it (the
 * platform keeps no file catalogue of its own); members are stored as sent, unknown ones included.
 */

/** Schemes a participant's app must never open from a file link. */
const SCRIPT_SCHEMES = new Set(['javascript', 'vbscript', 'data']);

const notBlank = (max: number) => z.string().max(max).regex(/\S/, 'must not be blank');
const text = (max: number) => z.string().max(max).nullish();

/** An absolute URI (RFC 3986 scheme, no white space), not a script or inline-data one. */
const fileUri = z
  .string()
  .max(2048)
  .regex(/^[A-Za-z][A-Za-z0-9+.-]*:\S+$/, 'must be an absolute URI (scheme:...) without white space')
  .refine((uri) => !SCRIPT_SCHEMES.has(uri.slice(0, uri.indexOf(':')).toLowerCase()), 'javascript:, vbscript: and data: URIs are not accepted')
  .nullish();

export const FileKey = z
  .looseObject({
    key: notBlank(1024).describe('identifies the file; a file given by several orders is one file'),
    name: text(1024),
    description: text(10_000),
    cover_key: text(1024).describe("the cover image's key in the caller's storage"),
    uri: fileUri.describe('where the file is fetched: an absolute URI (https:, s3:, ...); not javascript:, vbscript: or data:'),
    chat: z.unknown().optional().describe('stored as sent'),
  })
  .describe('a digital file or content of the line; members not named here are stored as sent');

/** A file as the participant view, the export and `order_fulfilled` show it. */
export interface OrderFile {
  key: string;
  name: string | null;
  description: string | null;
  cover_key: string | null;
  uri: string | null;
}

/** What the files are read from: an order's stored lines (members as sent; rows stored before `key` was required may lack it). */
type StoredLines = readonly { file_keys?: readonly Record<string, unknown>[] | undefined }[];

const orNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/**
 * The files of the given orders, oldest order first: one per key, listed where it first appears,
 * described by its last appearance (a later order may describe the same file anew). Members
 * without a string key are skipped.
 */
export function filesOfOrders(orders: readonly StoredLines[]): OrderFile[] {
  const files = new Map<string, OrderFile>();
  for (const lines of orders) {
    for (const line of lines) {
      for (const member of line.file_keys ?? []) {
        if (typeof member.key !== 'string') continue;
        files.set(member.key, { key: member.key, name: orNull(member.name), description: orNull(member.description), cover_key: orNull(member.cover_key), uri: orNull(member.uri) });
      }
    }
  }
  return [...files.values()];
}

/** One order's files (the `order_fulfilled` payload). */
export const filesOfOrder = (lines: StoredLines): OrderFile[] => filesOfOrders([lines]);

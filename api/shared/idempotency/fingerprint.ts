import { createHash } from 'node:crypto';

/** JSON with object keys sorted at every depth: two bodies that differ only in key order are one body. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** What makes two requests "the same" for one key: method, path with query, and body (as parsed JSON). */
export function requestFingerprint(method: string, url: string, body: unknown): string {
  return createHash('sha256').update(`${method.toUpperCase()} ${url}\n${canonicalJson(body ?? null)}`).digest('hex');
}

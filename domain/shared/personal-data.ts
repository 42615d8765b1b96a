/**
 * A person's data on request (issue 29, GDPR articles 15 and 17): the pure parts of export and
 * erasure. Which tables hold what is the registry's (db/repositories/shared/personal-data/); here
 * are the ids, the markers that replace personal values, and the redaction of logs and payloads.
 */

export type PersonalDataTenant = 'shop' | 'platform';

/** What replaces a personal text that must stay for tax law or history (a name on an order, a log line). */
export const ERASED = '[erased]';

/** The workflow of one person's erasure in one tenant: the e-mail's keyed hash, never the e-mail. */
export function erasureWorkflowId(p: { tenant: PersonalDataTenant; tenantId: string; emailHash: string }): string {
  return p.tenant === 'shop' ? `shop/${p.tenantId}/customer-erasure/${p.emailHash}` : `platform/${p.tenantId}/participant-erasure/${p.emailHash}`;
}

/**
 * The address that replaces the person's e-mail on what is kept (orders, subscribers, mail log):
 * a valid address of the reserved `.invalid` domain that no mail reaches, the same for every row
 * of one person (a later run finds them again), without the address itself.
 */
export function erasedEmail(emailHash: string): string {
  return `erased-${emailHash.slice(0, 16)}@erased.invalid`;
}

/** Personal values worth searching for: trimmed, lower case, at least 3 characters, the markers left out. */
export function personalValues(values: readonly unknown[]): string[] {
  const out = new Set<string>();
  for (const value of values) {
    if (typeof value !== 'string') continue;
    const v = value.trim().toLowerCase();
    if (v.length >= 3 && v !== ERASED && !v.endsWith('@erased.invalid')) out.add(v);
  }
  return [...out];
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every occurrence (any letter case, also URL-encoded) of a personal value in `text` replaced by `marker`. */
export function redactText(text: string, personal: readonly string[], marker = ERASED): string {
  const forms = new Set<string>();
  for (const value of personal) {
    forms.add(value);
    forms.add(encodeURIComponent(value).toLowerCase());
  }
  const longestFirst = [...forms].sort((a, b) => b.length - a.length).map(escapeRegExp);
  if (longestFirst.length === 0) return text;
  return text.replace(new RegExp(longestFirst.join('|'), 'gi'), marker);
}

/**
 * A stored JSON document (webhook payload, domain event, order address) with every string that
 * holds a personal value redacted: the whole string when it is one, else each occurrence. Keys,
 * numbers, booleans and the document's shape stay, so readers of the document keep working.
 */
export function redactJson<T>(value: T, personal: readonly string[], marker = ERASED): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      const lower = v.trim().toLowerCase();
      if (personal.includes(lower)) return lower.includes('@') ? marker : ERASED;
      return redactText(v, personal, ERASED);
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, inner]) => [k, walk(inner)]));
    return v;
  };
  return walk(value) as T;
}

/** An order address kept for the invoice's shape: every field erased but the country. */
export function erasedAddress(address: Record<string, unknown> | null, marker: string): Record<string, unknown> | null {
  if (!address) return null;
  return Object.fromEntries(
    Object.entries(address).map(([k, v]) => [k, k === 'country' || typeof v !== 'string' ? v : k === 'email' && v ? marker : v === '' ? '' : ERASED]),
  );
}

/** Counts of one erasure per kind of data, added up over its runs. */
export type ErasureCounts = Record<string, number>;

/** A request URL fit for a log line: the values of `email` and `to` query parameters (a person's address) replaced. */
export function urlForLog(url: string): string {
  return url.replace(/([?&](?:email|to)=)[^&#]*/gi, '$1[redacted]');
}

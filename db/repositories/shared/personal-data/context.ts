import type { EntityManager } from '@mikro-orm/postgresql';
import { redactJson, redactText } from '../../../../domain/shared/personal-data.ts';

/** One person in one tenant, as every registry entry sees it. */
export interface PersonContext {
  /** Inside the caller's transaction when there is one. */
  em: EntityManager;
  tenantId: string;
  /** Lower case, trimmed. */
  email: string;
  /** What replaces the e-mail on what is kept (erasedEmail): rows an earlier run redacted carry it. */
  marker: string;
  /** The person's values (lower case) an earlier step collected: e-mail, names, addresses, phone, tax id, IP. */
  personal: readonly string[];
  /** Opens a shop's sealed Stripe key and reaches Stripe (STRIPE_API_URL in tests): erasure detaches saved cards. */
  stripe?: { secretsKey: Buffer; apiUrl?: string };
}

/**
 * One kind of personal data in one tenant: what the export shows of it and how erasure removes or
 * redacts it. An entry's erase is idempotent (a second run finds nothing left and answers 0) and
 * runs in one transaction with the count it adds to the erasure. A table that holds personal data
 * is one more entry in its tenant's list (registry.ts).
 */
export interface PersonalDataEntry {
  kind: string;
  /** The person's rows of this kind (wire shape, snake_case); [] when none. Absent for logs the export does not show (an audit log's paths). */
  export?(ctx: PersonContext): Promise<unknown[]>;
  /** Personal values this kind holds, gathered before any entry erases (names in addresses, an IP, ...). */
  collect?(ctx: PersonContext): Promise<unknown[]>;
  /** Removes or redacts the person's rows; how many rows it changed. */
  erase(ctx: PersonContext): Promise<number>;
}

/** `%value%` patterns for `ilike any(?)`: the e-mail as stored and URL-encoded (paths, keys). */
export function emailPatterns(email: string): string[] {
  const like = (s: string) => `%${s.replace(/[\\%_]/g, '\\$&')}%`;
  return [...new Set([like(email), like(encodeURIComponent(email).toLowerCase())])];
}

/** The `row` column of each row `sql` selects (an entry's export reads `select to_jsonb(...) as row`). */
export async function rows(ctx: PersonContext, sql: string, params: unknown[]): Promise<unknown[]> {
  const found: { row: unknown }[] = await ctx.em.execute(sql, params);
  return found.map((r) => r.row);
}

/** `(<column> ilike ? or ...)` over the person's e-mail patterns, and its values. */
export function likeEmail(column: string, ctx: PersonContext): { sql: string; params: string[] } {
  const patterns = emailPatterns(ctx.email);
  return { sql: `(${patterns.map(() => `${column} ilike ?`).join(' or ')})`, params: patterns };
}

export interface RedactRows {
  table: string;
  /** Text columns redacted occurrence by occurrence, JSON columns string by string. */
  text?: string[];
  json?: string[];
  /** SQL condition selecting the person's rows (alias-free, on `table`), and its values. */
  where: string;
  params: unknown[];
}

/**
 * Redacts the personal values of the selected rows in place (logs, payloads: their shape stays)
 * and answers how many rows changed; a second call changes none.
 */
export async function redactRows(ctx: PersonContext, r: RedactRows): Promise<number> {
  const text = r.text ?? [];
  const json = r.json ?? [];
  const personal = [...new Set([ctx.email, ...ctx.personal])];
  const rows: Record<string, unknown>[] = await ctx.em.execute(`select id, ${[...text, ...json].map((c) => `"${c}"`).join(', ')} from ${r.table} where ${r.where}`, r.params);
  let changed = 0;
  for (const row of rows) {
    const sets: string[] = [];
    const values: unknown[] = [];
    for (const c of text) {
      const before = row[c];
      if (typeof before !== 'string') continue;
      const after = redactText(before, personal);
      if (after !== before) {
        sets.push(`"${c}" = ?`);
        values.push(after);
      }
    }
    for (const c of json) {
      const before = row[c];
      if (before == null) continue;
      const after = redactJson(before, personal, ctx.marker);
      if (JSON.stringify(after) !== JSON.stringify(before)) {
        sets.push(`"${c}" = ?::jsonb`);
        values.push(JSON.stringify(after));
      }
    }
    if (sets.length === 0) continue;
    await ctx.em.execute(`update ${r.table} set ${sets.join(', ')} where id = ?`, [...values, row.id]);
    changed += 1;
  }
  return changed;
}

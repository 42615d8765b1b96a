/**
 * Hot statements as named prepared statements on a connection of the ORM's pool, as
 * access/catalogue.ts does for the course list (issue 17): parsed (and, once Postgres settles on
 * a generic plan, planned) once per connection, sent as a short Bind instead of kilobytes of
 * text with the values inlined, and without MikroORM's and knex's query path. The storefront's
 * checkout statements are long (issue 26), so their text and its parsing were a large part of
 * each request. A statement may also go unprepared (values bound, planned for them each time)
 * and still skip that path. Inside a transaction the statement goes through the entity manager
 * (its connection holds the transaction) as plain text.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type pg from 'pg';
import { hideBoundStatementValues } from '../../driver-errors.ts';

/** The part of knex's client these statements use: its connection pool (the ORM's own). */
export interface PooledClient {
  acquireConnection(): Promise<pg.ClientBase>;
  releaseConnection(connection: pg.ClientBase): unknown;
}

export interface Statement {
  /**
   * The prepared statement's name: one per distinct text. Null: sent unprepared with its values
   * (planned for them each time: for statements whose best plan depends on the values).
   */
  name: string | null;
  /** With `$1`, `$2`, ... placeholders. */
  text: string;
  values: unknown[];
}

/** The numbered text of each named statement and its placeholders' names in order (a name is one text). */
const numbered = new Map<string, { text: string; order: string[] }>();

function numberPlaceholders(sql: string): { text: string; order: string[] } {
  const order: string[] = [];
  const text = sql.replace(/(?<!:):([a-zA-Z]\w*)\b/g, (_, key: string) => {
    if (!order.includes(key)) order.push(key);
    return `$${order.indexOf(key) + 1}`;
  });
  return { text, order };
}

/** The numbered form of unnamed statements by their text (a list's filters make a few texts each), bounded. */
const numberedTexts = new Map<string, { text: string; order: string[] }>();
const MAX_NUMBERED_TEXTS = 1_000;

/** A statement written with `:name` placeholders (not `::type` casts): numbered in order of first use, a name used twice is one value. */
export function statement(name: string | null, sql: string, values: Record<string, unknown>): Statement {
  let form = name === null ? numberedTexts.get(sql) : numbered.get(name);
  if (!form) {
    form = numberPlaceholders(sql);
    if (name !== null) numbered.set(name, form);
    else {
      if (numberedTexts.size >= MAX_NUMBERED_TEXTS) numberedTexts.clear();
      numberedTexts.set(sql, form);
    }
  }
  const missing = form.order.find((key) => !(key in values));
  if (missing) throw new Error(`${name ?? 'statement'}: no value for :${missing}`);
  return { name, text: form.text, values: form.order.map((key) => values[key]) };
}

/** The ORM's own connection pool, for statements sent on a pooled connection without its query path. */
export function ormPool(em: EntityManager): PooledClient {
  return em.getKnex().client as PooledClient;
}

/** Runs the statement: prepared on a pool connection, or through `em` when `em` is in a transaction. */
export async function runStatement<T>(em: EntityManager, s: Statement): Promise<T[]> {
  if (em.getTransactionContext()) {
    const values: unknown[] = [];
    const text = s.text.replace(/\$(\d+)/g, (_, n: string) => {
      values.push(s.values[Number(n) - 1]);
      return '?';
    });
    return em.execute<T[]>(text, values);
  }
  return (await pooled<T & pg.QueryResultRow>(em, s, false)).rows;
}

/**
 * As runStatement, each row an array of its columns in the statement's order (their names must
 * differ): the driver builds no object per row, and reading a row is reading an array (issue 26).
 */
export async function runStatementArrays(em: EntityManager, s: Statement): Promise<unknown[][]> {
  if (em.getTransactionContext()) return (await runStatement<Record<string, unknown>>(em, s)).map((row) => Object.values(row));
  return (await pooled<unknown[]>(em, s, true)).rows;
}

/** The statement on a connection of the ORM's pool, its rows as objects or (`arrays`) as arrays. */
async function pooled<R extends pg.QueryResultRow | unknown[]>(em: EntityManager, s: Statement, arrays: boolean): Promise<pg.QueryResult<R>> {
  const pool = ormPool(em);
  const connection = await pool.acquireConnection();
  try {
    return await connection.query<R & pg.QueryResultRow>({ ...(s.name === null ? {} : { name: s.name }), ...(arrays ? { rowMode: 'array' as const } : {}), text: s.text, values: s.values });
  } catch (error) {
    // Not through knex, so its `query-error` hook (db/driver-errors.ts) never saw this error.
    hideBoundStatementValues(error, s.text);
    throw error;
  } finally {
    pool.releaseConnection(connection);
  }
}

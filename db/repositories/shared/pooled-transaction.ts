/**
 * A transaction on one connection of the ORM's pool, its statements sent as named prepared
 * statements (issue 26 item 6): parsed once per connection and sent as a short Bind, without
 * MikroORM's and knex's query path (the grant step's statements spent a large part of the worker's
 * time there). BEGIN and COMMIT are sent on the connection itself, as `runStatement` in
 * prepared.ts runs a statement outside a transaction.
 *
 * The work gets an `Sql`: the part of an entity manager the repository functions on the path use,
 * `execute(sql, params)` with `?` placeholders. So those functions run unchanged inside this
 * transaction or inside an ORM one. Errors carry no statement values (hideBoundStatementValues).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type pg from 'pg';
import { hideBoundStatementValues } from '../../driver-errors.ts';
import { ormPool, type PooledClient } from './prepared.ts';

/**
 * What a repository function needs of a transaction: a statement with `?` placeholders, its rows
 * back. Values are scalars, dates or text (an array goes as `arrayLiteral`): knex expands a
 * JavaScript array into a list, the prepared forms below bind it as one PostgreSQL array.
 */
export type Sql = Pick<EntityManager, 'execute'>;

/** The prepared name and numbered text of each statement text (a name is one text, in every connection). */
const prepared = new Map<string, { name: string | undefined; text: string }>();
/** Beyond this many distinct texts a text goes unprepared: a statement built with varying text never fills the map. */
const MAX_PREPARED = 500;

function preparedForm(sql: string): { name: string | undefined; text: string } {
  let form = prepared.get(sql);
  if (!form) {
    let n = 0;
    const text = sql.replace(/\?/g, () => `$${++n}`);
    form = { name: prepared.size < MAX_PREPARED ? `tx-${prepared.size + 1}` : undefined, text };
    if (form.name) prepared.set(sql, form);
  }
  return form;
}

async function query<T>(connection: pg.ClientBase, sql: string, params: readonly unknown[]): Promise<T> {
  const { name, text } = preparedForm(sql);
  try {
    return (await connection.query({ ...(name && { name }), text, values: [...params] })).rows as T;
  } catch (error) {
    hideBoundStatementValues(error, text);
    throw error;
  }
}

/** Statements on this connection (in whatever transaction it is in), prepared. */
export function statementsOn(connection: pg.ClientBase): Sql {
  return { execute: (sql: string, params: readonly unknown[] = []) => query(connection, sql, params) } as unknown as Sql;
}

/**
 * Single statements outside a transaction, each on a pooled connection and prepared as in a
 * pooled transaction (for the hot ones outside any: a mail attempt's claim and record, a grant
 * request's id check and command rows). When `em` is in a transaction, its statements join it.
 */
export function pooledStatements(em: EntityManager): Sql {
  return em.getTransactionContext() ? em : statementsOnPool(ormPool(em));
}

function statementsOnPool(pool: PooledClient): Sql {
  const execute = async (sql: string, params: readonly unknown[] = []) => {
    const connection = await pool.acquireConnection();
    try {
      return await query(connection, sql, params);
    } finally {
      pool.releaseConnection(connection);
    }
  };
  return { execute } as unknown as Sql;
}

/**
 * `em` (a fork an activity owns) with its plain statements (`execute(sql, values)`) sent prepared:
 * `on` answers where (the pool, the transaction's connection), or undefined for MikroORM's own
 * query path. These go that path too: a statement without values (a text of several commands,
 * which only the simple query protocol takes), one with an array or object value (knex expands an
 * array into a list, `in (?)`; the driver would send it as one PostgreSQL array), and any other
 * form of `execute`.
 */
export function withPreparedStatements<E extends EntityManager>(em: E, on: () => Sql | undefined): E {
  const ormExecute = em.execute.bind(em) as (...args: unknown[]) => unknown;
  const execute = (sql: unknown, params?: unknown[], ...rest: unknown[]) => {
    const prepared = typeof sql === 'string' && params !== undefined && params.length > 0 && rest.length === 0 && params.every(isScalar) ? on() : undefined;
    return prepared ? prepared.execute(sql as string, params) : ormExecute(sql, params, ...rest);
  };
  return Object.assign(em, { execute });
}

/** A value knex and the driver bind alike: not an array, nor an object other than a date. */
const isScalar = (value: unknown): boolean => value === null || typeof value !== 'object' || value instanceof Date;

/** `em` outside a transaction: its plain statements prepared on a pooled connection (withPreparedStatements). */
export function withPooledStatements<E extends EntityManager>(em: E): E {
  const pooled = statementsOnPool(ormPool(em));
  return withPreparedStatements(em, () => (em.getTransactionContext() ? undefined : pooled));
}

/**
 * Runs `work` in a transaction on one pooled connection: committed when it returns, rolled back
 * when it throws. A connection whose rollback fails is marked so that the pool discards it. When
 * `em` is in a transaction already (a keyed request's, api/shared/idempotency), `work` joins it as
 * a savepoint instead: a connection of its own would commit apart from the reply that answers it.
 */
export async function pooledTransaction<T>(em: EntityManager, work: (tx: Sql) => Promise<T>): Promise<T> {
  if (em.getTransactionContext()) return em.transactional((tx) => work(tx));
  const pool = ormPool(em);
  const connection = await pool.acquireConnection();
  const tx = statementsOn(connection);
  try {
    await connection.query('begin');
    const result = await work(tx);
    await connection.query('commit');
    return result;
  } catch (error) {
    await connection.query('rollback').catch((rollbackError: unknown) => {
      (connection as unknown as { __knex__disposed?: unknown }).__knex__disposed = rollbackError;
    });
    throw error;
  } finally {
    pool.releaseConnection(connection);
  }
}

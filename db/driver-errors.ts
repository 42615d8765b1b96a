import type { Configuration } from '@mikro-orm/core';
import { PostgreSqlConnection, PostgreSqlDriver } from '@mikro-orm/postgresql';

/**
 * Database errors without the values of the statement.
 *
 * MikroORM inlines parameters into the SQL it sends, and knex prefixes a failing statement to the
 * error message (`insert into ... values ('<sealed secret>', '<e-mail>') - <PostgreSQL's message>`);
 * PostgreSQL's own `detail` repeats row values (`Failing row contains (...)`, `Key (email)=(...)`).
 * That error is logged by the api, stored by Temporal as an activity failure and printed by the
 * worker. So every query error is rewritten the moment knex raises it, before anyone sees it: the
 * message becomes PostgreSQL's message (a quoted input value at its end elided) plus the kind of
 * statement and its table, and the fields that carry values are removed. SQLSTATE `code`, `table`,
 * `constraint`, `column` and `routine` stay, so callers still tell a unique violation from the rest.
 */
export function hideStatementValues(error: unknown, query: { sql?: unknown }): void {
  if (!(error instanceof Error)) return;
  const sql = typeof query.sql === 'string' ? query.sql : '';
  // knex with `compileSqlOnError: false` (db/config.ts) writes exactly `${sql} - ${message}`.
  const prefix = `${sql} - `;
  const own = sql && error.message.startsWith(prefix) ? error.message.slice(prefix.length) : null;
  const message = own === null ? 'database error (message withheld: it may contain statement values)' : elideInputValue(own);
  error.message = sql ? `${message} (in ${statementKind(sql)})` : message;
  const fields = error as unknown as Record<string, unknown>;
  for (const field of VALUE_FIELDS) delete fields[field];
}

/**
 * The same for a statement sent by `pg` itself with its values bound (db/repositories/shared/
 * prepared.ts and pooled-transaction.ts: no knex in the path, so no `query-error` hook): the
 * values are not in the text, but PostgreSQL's message may quote an input value and its `detail`
 * repeats row values. The message becomes PostgreSQL's message (a quoted input value elided) plus
 * the kind of statement; the fields that carry values are removed.
 */
export function hideBoundStatementValues(error: unknown, text: string): void {
  if (!(error instanceof Error)) return;
  error.message = `${elideInputValue(error.message)} (in ${statementKind(text)})`;
  const fields = error as unknown as Record<string, unknown>;
  for (const field of VALUE_FIELDS) delete fields[field];
}

/** pg error fields that can carry row or input values. */
const VALUE_FIELDS = ['detail', 'where', 'internalQuery'] as const;

/** `invalid input syntax for type uuid: "<value>"`, `invalid input value for enum x: "<value>"`: the value goes. */
function elideInputValue(message: string): string {
  return message.replace(/: "[\s\S]*"$/, ': "…"');
}

/** `insert into "webhooks"`, `update "participants"`, `delete from "x"`, else the first keyword (`select`). */
export function statementKind(sql: string): string {
  const write = /^\s*(insert\s+into|update|delete\s+from)\s+((?:"(?:[^"]|"")+"|[\w$]+)(?:\.(?:"(?:[^"]|"")+"|[\w$]+))?)/i.exec(sql);
  if (write) return `${write[1]!.toLowerCase().replace(/\s+/g, ' ')} ${write[2]}`;
  return (/^\s*([a-z]+)/i.exec(sql)?.[1] ?? 'statement').toLowerCase();
}

class ValueHidingConnection extends PostgreSqlConnection {
  override createKnex(): void {
    super.createKnex();
    // knex emits `query-error` synchronously, after writing its message and before rethrowing.
    this.getKnex().on('query-error', (error: unknown, query: { sql?: unknown }) => hideStatementValues(error, query));
  }
}

/** The PostgreSQL driver whose query errors never carry statement values (see hideStatementValues). */
export class ValueHidingPostgreSqlDriver extends PostgreSqlDriver {
  constructor(config: Configuration) {
    super(config);
    (this as unknown as { connection: PostgreSqlConnection }).connection = new ValueHidingConnection(this.config);
  }
}

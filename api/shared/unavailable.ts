import type { FastifyReply, FastifyRequest } from 'fastify';

/** Seconds a client is asked to wait while the database is unreachable. */
export const DATABASE_RETRY_AFTER_S = 5;

/** Socket errors of a database connection that is refused, cut or unreachable. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/**
 * SQLSTATEs of a server that is going away or not there yet: class 08 (connection exception),
 * 57P01-57P03 (`terminating connection due to administrator command`, crash shutdown, `the
 * database system is starting up` / in recovery).
 */
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[123])$/;
/**
 * pg and knex say it in words only: a connection cut mid-query, a client used after its connection
 * broke (`... is not queryable`), a statement of a transaction that knex ended when its connection
 * broke (a keyed request's, `Transaction query already complete`), the pool that found none in time.
 */
const UNAVAILABLE_MESSAGE = /Connection terminated|is not queryable|Transaction query already complete|Timeout acquiring a connection|terminating connection|the database system is (starting up|shutting down|in recovery mode)/;

/**
 * True when `error` (or an error it wraps: `cause`, MikroORM's copy of the driver error) says the
 * database cannot be reached right now, as opposed to a statement that failed.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current instanceof Error && !seen.has(current)) {
    seen.add(current);
    const { code, name } = current as { code?: unknown; name?: string };
    if (typeof code === 'string' && (SOCKET_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code))) return true;
    if (name === 'KnexTimeoutError' || name === 'ConnectionException') return true;
    if (UNAVAILABLE_MESSAGE.test(current.message)) return true;
    // An AggregateError (several addresses refused) carries the socket errors in `errors`.
    const nested = (current as { errors?: unknown[] }).errors;
    if (Array.isArray(nested) && nested.some((e) => isDatabaseUnavailable(e))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * The error handler's answer while the database is unreachable: 503 with Retry-After instead of a
 * 500 (the request can be repeated as is), logged as a warning without the error's details.
 * Undefined for any other error.
 */
export function replyIfDatabaseUnavailable(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  if (!isDatabaseUnavailable(error)) return undefined;
  request.log.warn({ code: (error as { code?: unknown }).code, type: (error as Error).name }, 'database unavailable');
  return reply
    .code(503)
    .header('retry-after', String(DATABASE_RETRY_AFTER_S))
    .send({ error: 'the database is unavailable; try again shortly' });
}

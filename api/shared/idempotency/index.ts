import type { EntityManager } from '@mikro-orm/postgresql';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  beginKeyedRequest,
  endKeyedRequest,
  keepReply,
  keptReply,
  lockKey,
  markHandlerStart,
  undoHandler,
  type KeyRef,
  type StoredReply,
} from '../../../db/repositories/shared/idempotency-keys.ts';
import { HttpError } from '../errors.ts';
import { isWrite } from '../json-only.ts';
import { DATABASE_RETRY_AFTER_S } from '../unavailable.ts';
import { unprocessable } from '../validation-errors.ts';
import { HeldStarts, heldStarts } from '../workflow-starts/after-commit.ts';
import { requestFingerprint } from './fingerprint.ts';

/** How long the first reply to a key is kept and replayed (the IETF draft and Stripe: 24 hours). */
export const IDEMPOTENCY_KEY_TTL_SECONDS = 24 * 60 * 60;
const HEADER = 'idempotency-key';
const FIELD = 'Idempotency-Key';
const VISIBLE_ASCII = /^[\x21-\x7e]{1,255}$/;

export interface IdempotencyOptions {
  /** The interface's kind of tenant (`platform`, `shop`, `storefront`): keys of two kinds never meet. */
  tenantKind: string;
  /** The request's tenant once authenticated (or found by subdomain); null: the key is ignored. */
  tenantOf(request: FastifyRequest): string | null | undefined;
}

/** A keyed request's transaction: `em` is the request's entity manager, in it until the reply leaves. */
interface KeyedTransaction {
  ref: KeyRef;
  fingerprint: string;
  em: EntityManager;
  held: HeldStarts;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The keyed request's open transaction (its handler's writes and its kept reply commit together); null otherwise. */
    idempotencyTransaction: KeyedTransaction | null;
    /** The body as parsed, before the route's schema transformed it: what the fingerprint hashes. */
    idempotencyBody: unknown;
  }
}

function keyOf(request: FastifyRequest): string | null {
  const header = request.headers[HEADER];
  if (header === undefined) return null;
  const key = Array.isArray(header) ? header.join(',') : header;
  if (!VISIBLE_ASCII.test(key)) throw unprocessable({ [FIELD]: ['must be 1 to 255 visible ASCII characters (a UUID v4 is a good key)'] });
  return key;
}

function replay(reply: FastifyReply, stored: StoredReply) {
  reply.code(stored.status).header('idempotent-replayed', 'true');
  if (stored.contentType) reply.header('content-type', stored.contentType);
  if (stored.location) reply.header('location', stored.location);
  return reply.send(stored.body);
}

/**
 * Runs `write` apart from a keyed request's transaction, each statement committed as it goes (as
 * without a key), its recorded workflow starts sent at once. Only for a write that is idempotent by
 * its own resource, so that a retry after a lost reply finds what it did, and whose locks must not
 * wait for the reply: the storefront checkout's placement takes the shop's order-number lock, which
 * the request's transaction would hold through the payment provider's calls.
 */
export function apartFromKeyedTransaction<T>(request: FastifyRequest, write: (em: EntityManager) => Promise<T>): Promise<T> {
  if (!request.idempotencyTransaction) return write(request.em);
  // A fork keeps the tenant's filter parameters, not the transaction.
  return heldStarts.exit(() => write(request.em.fork()));
}

const stillRunning = () => new HttpError(409, 'a request with this Idempotency-Key is still being processed; retry later', undefined, { 'retry-after': '1' });

/**
 * Ends the request's transaction; the connection goes back to the pool either way. The request's
 * entity manager is replaced by a fresh fork for the hooks that follow, so that the handler's own
 * reference, should it still run (a reply sent by a timeout), fails on the ended transaction
 * instead of writing outside it.
 */
async function end(request: FastifyRequest, tx: KeyedTransaction, how: 'commit' | 'rollback'): Promise<void> {
  request.idempotencyTransaction = null;
  request.em = tx.em.fork();
  if (how === 'commit') return endKeyedRequest(tx.em, 'commit');
  tx.held.rolledBack();
  await endKeyedRequest(tx.em, 'rollback').catch((err: unknown) => request.log.warn({ err }, 'keyed request: rollback failed (its connection is discarded)'));
}

/**
 * `Idempotency-Key` (IETF httpapi draft, Stripe's semantics) on every write of the encapsulating
 * interface, per tenant. A keyed write runs in one transaction: the request's entity manager
 * (`request.em`) is in it from the preHandler until the reply leaves, its `em.transactional`
 * blocks are savepoints, and the reply (status and body) is written in it just before COMMIT. So a
 * reply is kept exactly when the change it answers committed: a retry after a lost reply (the
 * database or the connection gone after the commit, the process killed) replays it, marked
 * `Idempotent-Replayed: true`; a retry after a write that did not commit runs again. A 4xx is
 * kept too (its writes rolled back), a 5xx never. Another request with the key is a 422; a repeat
 * while the first runs is a 409 at once: the key is held by an advisory lock of the first one's
 * transaction, which PostgreSQL releases as soon as that transaction ends or its connection closes
 * (a crashed holder blocks nothing). Requests without the header are untouched (no transaction).
 * Runs after the key check, limits and body validation (what they refuse is not kept), so
 * register it in the interface's plugin before its routes.
 */
export const idempotency = fp(
  async (app: FastifyInstance, { tenantKind, tenantOf }: IdempotencyOptions) => {
    app.decorateRequest('idempotencyTransaction', null);
    app.decorateRequest('idempotencyBody', undefined);

    // Callback hooks where a request has no key: a request without one passes without a promise (issue 26 item 4).
    app.addHook('preValidation', (request, _reply, done) => {
      if (isWrite(request) && request.headers[HEADER] !== undefined) request.idempotencyBody = request.body;
      done();
    });

    /** Opens the keyed request's transaction and takes the key; 'replayed' when the kept reply was sent instead. */
    const opened = async (request: FastifyRequest, reply: FastifyReply): Promise<KeyedTransaction | 'replayed' | null> => {
      const key = keyOf(request);
      const tenantId = key === null ? null : tenantOf(request);
      if (key === null || !tenantId) return null;
      const ref: KeyRef = { tenantKind, tenantId, key };
      const fingerprint = requestFingerprint(request.method, request.url, request.idempotencyBody);
      const em = request.em;
      await beginKeyedRequest(em);
      const tx: KeyedTransaction = { ref, fingerprint, em, held: new HeldStarts() };
      request.idempotencyTransaction = tx;
      try {
        if (!(await lockKey(em, ref))) throw stillRunning();
        // A statement after the lock: its snapshot sees what the key's last holder committed.
        const kept = await keptReply(em, ref);
        if (kept && kept.fingerprint !== fingerprint) {
          throw unprocessable({ [FIELD]: ['was used with another request (method, path or body) in the last 24 hours; send a new key'] }, 'Idempotency-Key reused with another request');
        }
        if (kept) {
          await end(request, tx, 'rollback');
          replay(reply, kept.reply);
          return 'replayed';
        }
        await markHandlerStart(em);
        return tx;
      } catch (error) {
        if (request.idempotencyTransaction === tx) await end(request, tx, 'rollback');
        throw error;
      }
    };
    app.addHook('preHandler', (request, reply, done) => {
      if (!isWrite(request) || request.headers[HEADER] === undefined) return done();
      opened(request, reply).then(
        (tx) => {
          if (tx === 'replayed') return;
          // The handler runs in this context: `startRecorded` holds its starts until the commit.
          if (tx) heldStarts.run(tx.held, done);
          else done();
        },
        (error: unknown) => done(error as Error),
      );
    });

    const settled = async (request: FastifyRequest, reply: FastifyReply, tx: KeyedTransaction, payload: unknown) => {
      const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : payload == null ? '' : null;
      const status = reply.statusCode;
      if (status >= 500) {
        await end(request, tx, 'rollback');
        return payload;
      }
      const contentType = reply.getHeader('content-type');
      const location = reply.getHeader('location');
      const kept = body === null ? null : { status, contentType: contentType === undefined ? null : String(contentType), location: location === undefined ? null : String(location), body };
      if (status >= 400) {
        // What was refused is refused again: its writes rolled back, its reply kept.
        try {
          if (kept) {
            await undoHandler(tx.em);
            await keepReply(tx.em, tx.ref, tx.fingerprint, kept, IDEMPOTENCY_KEY_TTL_SECONDS);
            await end(request, tx, 'commit');
          } else await end(request, tx, 'rollback');
        } catch (err) {
          request.log.warn({ err }, 'keyed request: the refusal was not kept');
          if (request.idempotencyTransaction === tx) await end(request, tx, 'rollback');
        }
        return payload;
      }
      try {
        // A reply that cannot be kept (a stream) commits without a key: a retry runs again.
        if (kept) await keepReply(tx.em, tx.ref, tx.fingerprint, kept, IDEMPOTENCY_KEY_TTL_SECONDS);
        await end(request, tx, 'commit');
      } catch (err) {
        // Not known to have committed: the client retries with its key, which replays the reply if it did.
        request.log.error({ err }, 'keyed request: commit failed');
        if (request.idempotencyTransaction === tx) await end(request, tx, 'rollback');
        reply.code(503).header('retry-after', String(DATABASE_RETRY_AFTER_S)).header('content-type', 'application/json; charset=utf-8').removeHeader('location');
        return JSON.stringify({ error: 'the change could not be confirmed; retry with the same Idempotency-Key' });
      }
      await tx.held.committed();
      return payload;
    };
    app.addHook('onSend', (request, reply, payload, done) => {
      const tx = request.idempotencyTransaction;
      if (!tx) return done(null, payload);
      return settled(request, reply, tx, payload);
    });
    // A reply that never went through onSend (hijacked, or an onSend hook that failed first) still ends the transaction.
    app.addHook('onResponse', (request, _reply, done) => {
      const tx = request.idempotencyTransaction;
      if (!tx) return done();
      end(request, tx, 'rollback').then(() => done(), done);
    });
  },
  { name: 'idempotency', dependencies: ['orm'] },
);

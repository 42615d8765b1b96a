import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { claimKey, keyHolder, releaseKey, storeReply, type KeyRef } from '../../../db/repositories/shared/idempotency-keys.ts';
import { HttpError } from '../errors.ts';
import { isWrite } from '../json-only.ts';
import { unprocessable } from '../validation-errors.ts';
import { requestFingerprint } from './fingerprint.ts';

/** How long the first reply to a key is kept and replayed (the IETF draft and Stripe: 24 hours). */
export const IDEMPOTENCY_KEY_TTL_SECONDS = 24 * 60 * 60;
/** A key still `running` after this long belongs to a request that died with its process; the next repeat runs again. */
export const IDEMPOTENCY_RUNNING_LEASE_SECONDS = 5 * 60;
const HEADER = 'idempotency-key';
const FIELD = 'Idempotency-Key';
const VISIBLE_ASCII = /^[\x21-\x7e]{1,255}$/;

export interface IdempotencyOptions {
  /** The interface's kind of tenant (`platform`, `shop`, `storefront`): keys of two kinds never meet. */
  tenantKind: string;
  /** The request's tenant once authenticated (or found by subdomain); null: the key is ignored. */
  tenantOf(request: FastifyRequest): string | null | undefined;
}

interface Claim {
  ref: KeyRef;
  fingerprint: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The Idempotency-Key this request holds (it runs for the key and its reply is kept); null otherwise. */
    idempotencyClaim: Claim | null;
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

function replay(reply: FastifyReply, stored: { status: number; contentType: string | null; location: string | null; body: string }) {
  reply.code(stored.status).header('idempotent-replayed', 'true');
  if (stored.contentType) reply.header('content-type', stored.contentType);
  if (stored.location) reply.header('location', stored.location);
  return reply.send(stored.body);
}

/**
 * `Idempotency-Key` (IETF httpapi draft, Stripe's semantics) on every write of the encapsulating
 * interface, per tenant: the first reply to a key (status and body; never a 5xx) is kept for 24
 * hours and replayed, marked `Idempotent-Replayed: true`, to a repeat with the same method, path and
 * body; another request with the key is a 422, a repeat while the first still runs a 409. Requests
 * without the header are untouched. Runs after the key check, limits and body validation (what
 * they refuse is not kept), so register it in the interface's plugin before its routes.
 */
export const idempotency = fp(
  async (app: FastifyInstance, { tenantKind, tenantOf }: IdempotencyOptions) => {
    app.decorateRequest('idempotencyClaim', null);
    app.decorateRequest('idempotencyBody', undefined);

    // Callback hooks where a request has no key to settle: a read passes without a promise (issue 26 item 4).
    app.addHook('preValidation', (request, _reply, done) => {
      if (isWrite(request) && request.headers[HEADER] !== undefined) request.idempotencyBody = request.body;
      done();
    });

    const claimed = async (request: FastifyRequest, reply: FastifyReply) => {
      const key = keyOf(request);
      const tenantId = key === null ? null : tenantOf(request);
      if (key === null || !tenantId) return;
      const ref: KeyRef = { tenantKind, tenantId, key };
      const fingerprint = requestFingerprint(request.method, request.url, request.idempotencyBody);
      const em = request.em.fork();
      // A holder that vanished between the failed claim and the read (a 5xx released it) lets the next claim win.
      for (let round = 0; round < 3; round += 1) {
        if (await claimKey(em, ref, fingerprint, IDEMPOTENCY_KEY_TTL_SECONDS, IDEMPOTENCY_RUNNING_LEASE_SECONDS)) {
          request.idempotencyClaim = { ref, fingerprint };
          return;
        }
        const holder = await keyHolder(em, ref);
        if (!holder) continue;
        if (holder.fingerprint !== fingerprint) {
          throw unprocessable({ [FIELD]: ['was used with another request (method, path or body) in the last 24 hours; send a new key'] }, 'Idempotency-Key reused with another request');
        }
        if (holder.state === 'running') {
          throw new HttpError(409, 'a request with this Idempotency-Key is still being processed; retry later', undefined, { 'retry-after': '1' });
        }
        return replay(reply, holder.reply);
      }
      throw new HttpError(409, 'a request with this Idempotency-Key is still being processed; retry later', undefined, { 'retry-after': '1' });
    };
    app.addHook('preHandler', (request, reply, done) => {
      if (!isWrite(request)) return done();
      return claimed(request, reply);
    });

    const settled = async (request: FastifyRequest, reply: FastifyReply, claim: Claim, payload: unknown) => {
      request.idempotencyClaim = null;
      const em = request.em.fork();
      const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : payload == null ? '' : null;
      try {
        if (reply.statusCode >= 500 || body === null) {
          await releaseKey(em, claim.ref, claim.fingerprint);
        } else {
          const contentType = reply.getHeader('content-type');
          const location = reply.getHeader('location');
          await storeReply(em, claim.ref, claim.fingerprint, {
            status: reply.statusCode,
            contentType: contentType === undefined ? null : String(contentType),
            location: location === undefined ? null : String(location),
            body,
          });
        }
      } catch (err) {
        // The reply still leaves; the key stays `running` until its lease ends, then a repeat runs again.
        request.log.error({ err }, 'idempotency key not settled');
      }
      return payload;
    };
    app.addHook('onSend', (request, reply, payload, done) => {
      const claim = request.idempotencyClaim;
      if (!claim) return done(null, payload);
      return settled(request, reply, claim, payload);
    });
  },
  { name: 'idempotency', dependencies: ['orm'] },
);

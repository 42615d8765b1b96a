import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * The idempotency keys (db/entities/shared/idempotency-key.ts), per tenant kind, tenant and key.
 * Every statement names all three, so a key never reaches another tenant. A key row is a kept
 * reply: written in the transaction of the change it answers (api/shared/idempotency), so it
 * exists exactly when that change committed. Who runs for a key is decided by a transaction-level
 * advisory lock, not by a row: PostgreSQL releases it when its holder's transaction ends or its
 * connection closes (a process that died holds nothing).
 */

export interface KeyRef {
  tenantKind: string;
  tenantId: string;
  key: string;
}

/** A stored reply, replayed for a repeat of the request. */
export interface StoredReply {
  status: number;
  contentType: string | null;
  location: string | null;
  body: string;
}

/**
 * Takes the key for `em`'s transaction (true) until it ends, or finds another live transaction
 * holding it (false). Never waits. Two 32-bit hashes (tenant, key): the two-key advisory lock
 * space, apart from the one-key locks the repositories take.
 */
export async function lockKey(em: EntityManager, ref: KeyRef): Promise<boolean> {
  const [row] = await em.execute<{ locked: boolean }[]>('select pg_try_advisory_xact_lock(hashtext(?), hashtext(?)) as locked', [
    `idempotency/${ref.tenantKind}/${ref.tenantId}`,
    ref.key,
  ]);
  return row?.locked === true;
}

/**
 * The reply kept for the key, with the fingerprint of the request it answered; null: none in its
 * 24 hours. A row without a status is a claim of an api of the release before (mid-deploy): no reply.
 */
export async function keptReply(em: EntityManager, ref: KeyRef): Promise<{ fingerprint: string; reply: StoredReply } | null> {
  const [row] = await em.execute<{ fingerprint: string; status: number; content_type: string | null; location: string | null; body: string }[]>(
    `select fingerprint, status, content_type, location, body from idempotency_keys
      where tenant_kind = ? and tenant_id = ? and key = ? and expires_at > clock_timestamp() and status is not null`,
    [ref.tenantKind, ref.tenantId, ref.key],
  );
  if (!row) return null;
  return { fingerprint: row.fingerprint, reply: { status: row.status, contentType: row.content_type, location: row.location, body: row.body } };
}

/**
 * Keeps the reply to the key for `ttlSeconds`, in `em`'s transaction. An expired row of the key is
 * replaced, and so is a claim without a reply of an api of the release before (mid-deploy; made
 * `done`, so that api's settle finds nothing to overwrite).
 */
export async function keepReply(em: EntityManager, ref: KeyRef, fingerprint: string, reply: StoredReply, ttlSeconds: number): Promise<void> {
  await em.execute(
    `insert into idempotency_keys as k (tenant_kind, tenant_id, key, fingerprint, status, content_type, location, body, claimed_at, expires_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, clock_timestamp(), clock_timestamp() + make_interval(secs => ?))
     on conflict (tenant_kind, tenant_id, key) do update
       set fingerprint = excluded.fingerprint, state = 'done', status = excluded.status, content_type = excluded.content_type, location = excluded.location,
           body = excluded.body, claimed_at = excluded.claimed_at, expires_at = excluded.expires_at
       where k.expires_at <= clock_timestamp() or k.status is null`,
    [ref.tenantKind, ref.tenantId, ref.key, fingerprint, reply.status, reply.contentType, reply.location, reply.body, ttlSeconds],
  );
}

/** Removes up to `limit` expired keys of any tenant (the hourly cleanup; a kept reply replaces an expired row by itself). */
export async function deleteExpiredKeys(em: EntityManager, limit: number): Promise<number> {
  const rows = await em.execute(
    `delete from idempotency_keys where ctid in (select ctid from idempotency_keys where expires_at <= clock_timestamp() limit ? for update skip locked) returning 1`,
    [limit],
  );
  return rows.length;
}

// ---- The keyed request's transaction (api/shared/idempotency) -------------------------------------

/** Where the handler's work begins in a keyed request's transaction: a refusal rolls back to it and keeps its reply. */
const HANDLER_SAVEPOINT = 'idempotent_request';

/** Begins the keyed request's transaction on its entity manager: its statements, flushes and `transactional` blocks run in it. */
export async function beginKeyedRequest(em: EntityManager): Promise<void> {
  await em.begin();
}

/** Marks where the handler's writes begin (after the key was taken and found without a reply). */
export async function markHandlerStart(em: EntityManager): Promise<void> {
  await em.execute(`savepoint ${HANDLER_SAVEPOINT}`);
}

/** Undoes the handler's writes (an aborted transaction included), keeping the key's lock. */
export async function undoHandler(em: EntityManager): Promise<void> {
  await em.execute(`rollback to savepoint ${HANDLER_SAVEPOINT}`);
}

/**
 * Commits or rolls back the keyed request's transaction, without flushing (a request's entities
 * are written by its code, never by the end of its transaction). The connection goes back to the
 * pool either way; one whose socket died is discarded by the pool.
 */
export async function endKeyedRequest(em: EntityManager, how: 'commit' | 'rollback'): Promise<void> {
  const ctx = em.getTransactionContext();
  if (!ctx) return;
  const connection = em.getConnection('write');
  await (how === 'commit' ? connection.commit(ctx) : connection.rollback(ctx));
}

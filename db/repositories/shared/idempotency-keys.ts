import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * The idempotency keys (db/entities/shared/idempotency-key.ts), per tenant kind, tenant and key.
 * Every statement names all three, so a key never reaches another tenant.
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

/** The key as the claim found it, when another request holds it. */
export type KeyHolder = { fingerprint: string; state: 'running' } | { fingerprint: string; state: 'done'; reply: StoredReply };

/**
 * Claims the key for a request with `fingerprint` (true), decided by PostgreSQL's unique key: of
 * requests racing with one key exactly one inserts. A key past its expiry, or left `running` longer
 * than `leaseSeconds` (its request died with its process), is taken over the same way.
 */
export async function claimKey(em: EntityManager, ref: KeyRef, fingerprint: string, ttlSeconds: number, leaseSeconds: number): Promise<boolean> {
  const rows = await em.execute(
    `insert into idempotency_keys as k (tenant_kind, tenant_id, key, fingerprint, state, claimed_at, expires_at)
     values (?, ?, ?, ?, 'running', clock_timestamp(), clock_timestamp() + make_interval(secs => ?))
     on conflict (tenant_kind, tenant_id, key) do update
       set fingerprint = excluded.fingerprint, state = 'running', status = null, content_type = null, location = null, body = null,
           claimed_at = excluded.claimed_at, expires_at = excluded.expires_at
       where k.expires_at <= clock_timestamp() or (k.state = 'running' and k.claimed_at <= clock_timestamp() - make_interval(secs => ?))
     returning 1`,
    [ref.tenantKind, ref.tenantId, ref.key, fingerprint, ttlSeconds, leaseSeconds],
  );
  return rows.length > 0;
}

/** The live holder of the key, or null (it expired or was released since the claim failed). */
export async function keyHolder(em: EntityManager, ref: KeyRef): Promise<KeyHolder | null> {
  const [row] = await em.execute<{ fingerprint: string; state: 'running' | 'done'; status: number | null; content_type: string | null; location: string | null; body: string | null }[]>(
    `select fingerprint, state, status, content_type, location, body from idempotency_keys
      where tenant_kind = ? and tenant_id = ? and key = ? and expires_at > clock_timestamp()`,
    [ref.tenantKind, ref.tenantId, ref.key],
  );
  if (!row) return null;
  if (row.state === 'running') return { fingerprint: row.fingerprint, state: 'running' };
  return { fingerprint: row.fingerprint, state: 'done', reply: { status: row.status!, contentType: row.content_type, location: row.location, body: row.body ?? '' } };
}

/** Keeps the first reply to the key (the claim's own row only). */
export async function storeReply(em: EntityManager, ref: KeyRef, fingerprint: string, reply: StoredReply): Promise<void> {
  await em.execute(
    `update idempotency_keys set state = 'done', status = ?, content_type = ?, location = ?, body = ?
      where tenant_kind = ? and tenant_id = ? and key = ? and fingerprint = ? and state = 'running'`,
    [reply.status, reply.contentType, reply.location, reply.body, ref.tenantKind, ref.tenantId, ref.key, fingerprint],
  );
}

/** Gives the key up (a 5xx, or a reply that cannot be kept): a retry runs the request again. */
export async function releaseKey(em: EntityManager, ref: KeyRef, fingerprint: string): Promise<void> {
  await em.execute(`delete from idempotency_keys where tenant_kind = ? and tenant_id = ? and key = ? and fingerprint = ? and state = 'running'`, [
    ref.tenantKind,
    ref.tenantId,
    ref.key,
    fingerprint,
  ]);
}

/** Removes up to `limit` expired keys of any tenant (the hourly cleanup; a claim takes an expired key over by itself). */
export async function deleteExpiredKeys(em: EntityManager, limit: number): Promise<number> {
  const rows = await em.execute(
    `delete from idempotency_keys where ctid in (select ctid from idempotency_keys where expires_at <= clock_timestamp() limit ? for update skip locked) returning 1`,
    [limit],
  );
  return rows.length;
}

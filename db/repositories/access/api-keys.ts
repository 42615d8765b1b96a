import type { EntityManager } from '@mikro-orm/postgresql';
import { PlatformApiKey, type IPlatformApiKey } from '../../entities/index.ts';

export interface ApiKeyPlatform {
  platform_id: string;
  subdomain: string;
  allowed_domains: string[] | null;
  /** A sandbox twin (the test environment): the only platforms the beta address serves. */
  sandbox: boolean;
}

/**
 * The platform of a platform API key, by the key's hash, in one indexed statement; a revoked key
 * matches nothing. Runs before the request has a tenant. The api keeps its answers for a few
 * seconds (api/access/api-key-cache.ts), hence the announcement below.
 */
export async function platformForApiKey(em: EntityManager, keyHash: string): Promise<ApiKeyPlatform | undefined> {
  const rows: ApiKeyPlatform[] = await em.getConnection().execute(
    `select p.id as platform_id, p.subdomain, p.allowed_domains, p.sandbox_of_id is not null as sandbox
       from platform_api_keys k join platforms p on p.id = k.platform_id
      where k.key_hash = ? and k.revoked_at is null`,
    [keyHash],
  );
  return rows[0];
}

/** The channel on which api instances hear that a platform's keys or allowed domains changed. */
export const API_KEY_CHANGES_CHANNEL = 'platform_api_key_changes';

/**
 * Tells every api instance to forget what it keeps of the platform's keys. Call it inside the
 * transaction that makes the change, after the change: Postgres delivers it at commit, so no
 * instance can hear it and then still read the old row.
 */
export async function announceApiKeyChange(em: EntityManager, platformId: string): Promise<void> {
  await em.execute('select pg_notify(?, ?)', [API_KEY_CHANGES_CHANNEL, platformId]);
}

/** The platform API key with this hash, or null (the configuration interface refuses it by name). */
export function findApiKeyByHash(em: EntityManager, keyHash: string): Promise<IPlatformApiKey | null> {
  return em.findOne(PlatformApiKey, { keyHash });
}

/**
 * Revokes every live key of the platform and records a new one (its prefix and hash); the old key
 * stops at once, and the change is announced in the caller's transaction (above).
 */
export async function replacePlatformApiKey(em: EntityManager, platformId: string, key: { prefix: string; keyHash: string }): Promise<void> {
  await em.nativeUpdate(PlatformApiKey, { platform: platformId, revokedAt: null }, { revokedAt: new Date() });
  em.create(PlatformApiKey, { platform: platformId, prefix: key.prefix, keyHash: key.keyHash });
  await em.flush();
  await announceApiKeyChange(em, platformId);
}

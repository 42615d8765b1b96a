import type { ApiKeyPlatform } from '../../db/repositories/access/api-keys.ts';
import { KEY_CACHE_TTL_MS, KeyCache } from '../shared/key-cache.ts';

/** How long a looked-up key is trusted without hearing of a change (a backstop: changes are announced). */
export const API_KEY_CACHE_TTL_MS = KEY_CACHE_TTL_MS;

/**
 * The platforms of recently used access keys, by key hash (api/shared/key-cache.ts), so that an
 * access request needs no statement to authenticate. Changes of a platform's keys or allowed
 * domains are announced (api-key-changes.ts).
 */
export class ApiKeyCache extends KeyCache<ApiKeyPlatform> {
  constructor(ttlMs = API_KEY_CACHE_TTL_MS, now: () => number = Date.now) {
    super((row) => row.platform_id, () => true, ttlMs, now);
  }

  /** A key of the platform was issued or revoked, or its allowed domains changed. */
  forgetPlatform(platformId: string): void {
    this.forgetTenant(platformId);
  }
}

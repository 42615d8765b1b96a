import type { ApiKeyPlatform } from '../../db/repositories/access/api-keys.ts';

/** How long a looked-up key is trusted without hearing of a change (a backstop: changes are announced). */
export const API_KEY_CACHE_TTL_MS = 5_000;
/** Beyond this many keys the oldest are dropped (keys are few; the bound keeps memory flat whatever comes). */
const MAX_ENTRIES = 10_000;

interface Entry {
  row: ApiKeyPlatform;
  expiresAt: number;
}

/**
 * The platforms of recently used API keys, by key hash, so that an access request needs no
 * statement to authenticate. Only live keys are kept (an unknown key is asked again each time).
 *
 * Correctness rests on two things: every change of a key or of a platform's allowed domains is
 * announced (forgetPlatform, here and through the database to every api instance:
 * api-key-changes.ts), and a lookup that was under way while a change was announced is not kept
 * (the generation check), since it may have read the row from before the change. While the
 * announcements cannot be heard (listener down) the cache is off.
 */
export class ApiKeyCache {
  private readonly entries = new Map<string, Entry>();
  private generation = 0;
  private enabled = false;

  constructor(
    private readonly ttlMs = API_KEY_CACHE_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** The key's platform, from the cache while fresh, else from `load` (kept when nothing changed meanwhile). */
  async lookup(keyHash: string, load: () => Promise<ApiKeyPlatform | undefined>): Promise<ApiKeyPlatform | undefined> {
    const entry = this.entries.get(keyHash);
    if (entry && entry.expiresAt > this.now()) return entry.row;
    const generation = this.generation;
    const row = await load();
    if (row && this.enabled && generation === this.generation) this.keep(keyHash, row);
    else if (!row) this.entries.delete(keyHash);
    return row;
  }

  /** A key of the platform was issued or revoked, or its allowed domains changed. */
  forgetPlatform(platformId: string): void {
    this.generation++;
    for (const [hash, entry] of this.entries) if (entry.row.platform_id === platformId) this.entries.delete(hash);
  }

  /** Changes can be heard (on) or not (off: nothing is served from or kept in the cache). */
  setEnabled(enabled: boolean): void {
    this.generation++;
    this.entries.clear();
    this.enabled = enabled;
  }

  get size(): number {
    return this.entries.size;
  }

  private keep(keyHash: string, row: ApiKeyPlatform): void {
    if (this.entries.size >= MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(keyHash, { row, expiresAt: this.now() + this.ttlMs });
  }
}

/** How long a looked-up key is trusted without hearing of a change (a backstop: changes are announced). */
export const KEY_CACHE_TTL_MS = 5_000;
/** Beyond this many keys the oldest are dropped (keys are few; the bound keeps memory flat whatever comes). */
const MAX_ENTRIES = 10_000;

interface Entry<Row> {
  row: Row;
  expiresAt: number;
}

/**
 * What recently used API keys stand for (their tenant's row), by key hash, so that a request needs
 * no statement to authenticate. Only usable keys are kept (an unknown or refused key is asked
 * again each time). The access interface's platform keys and the shop interface's keys each have
 * one (api/access/api-key-cache.ts, api/shop/key-cache.ts).
 *
 * Correctness rests on two things: every change of a key or of what its row holds is announced
 * (forgetTenant, here and through the database to every api instance: key-changes.ts), and a
 * lookup that was under way while a change was announced is not kept (the generation check),
 * since it may have read the row from before the change. While the announcements cannot be heard
 * (listener down) the cache is off.
 */
export class KeyCache<Row> {
  private readonly entries = new Map<string, Entry<Row>>();
  private generation = 0;
  private enabled = false;

  constructor(
    /** The tenant a row belongs to (what a change announces). */
    private readonly tenantOf: (row: Row) => string,
    /** Whether a row may be kept (a refused key's row is not). */
    private readonly keepable: (row: Row) => boolean = () => true,
    private readonly ttlMs = KEY_CACHE_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** The key's row, from the cache while fresh, else from `load` (kept when nothing changed meanwhile). */
  async lookup(keyHash: string, load: () => Promise<Row | undefined>): Promise<Row | undefined> {
    const entry = this.entries.get(keyHash);
    if (entry && entry.expiresAt > this.now()) return entry.row;
    const generation = this.generation;
    const row = await load();
    if (row && this.keepable(row) && this.enabled && generation === this.generation) this.keep(keyHash, row);
    else this.entries.delete(keyHash);
    return row;
  }

  /** A key of the tenant was issued or revoked, or what its rows hold changed. */
  forgetTenant(tenantId: string): void {
    this.generation++;
    for (const [hash, entry] of this.entries) if (this.tenantOf(entry.row) === tenantId) this.entries.delete(hash);
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

  private keep(keyHash: string, row: Row): void {
    if (this.entries.size >= MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(keyHash, { row, expiresAt: this.now() + this.ttlMs });
  }
}

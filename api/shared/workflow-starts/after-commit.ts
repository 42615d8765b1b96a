import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Starts recorded inside a transaction that is still open when the write's code calls
 * `startRecorded`: a keyed request runs in one transaction the idempotency plugin commits as the
 * reply leaves (api/shared/idempotency), so its `em.transactional` is a savepoint and its recorded
 * starts are not committed yet. They are held here and sent right after that commit (a rollback
 * drops them: their rows were rolled back too). The outbox's periodic dispatch stays the safety net.
 */
export class HeldStarts {
  private ids: number[] = [];
  private send: ((ids: readonly number[]) => Promise<void>) | null = null;
  private open = true;

  /** Holds `ids` while the transaction is open (true); false once it has ended (send them now). */
  hold(ids: readonly number[], send: (ids: readonly number[]) => Promise<void>): boolean {
    if (!this.open) return false;
    this.ids.push(...ids);
    this.send = send;
    return true;
  }

  /** The transaction committed: sends what was held (never throws). */
  committed(): Promise<void> {
    this.open = false;
    const [ids, send] = [this.ids, this.send];
    this.ids = [];
    return ids.length > 0 && send ? send(ids) : Promise.resolve();
  }

  /** The transaction rolled back: its starts were never committed. */
  rolledBack(): void {
    this.open = false;
    this.ids = [];
  }
}

/** The held starts of the request whose handler runs in this async context (set by the idempotency plugin). */
export const heldStarts = new AsyncLocalStorage<HeldStarts>();

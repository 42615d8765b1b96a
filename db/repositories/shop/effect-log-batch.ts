import type { EntityManager } from '@mikro-orm/postgresql';
import type { EffectOutcome } from '../../../domain/shop/effects.ts';
import { recordEffects, type EffectKey, type RecordEffect } from './order-effects.ts';

interface Entry {
  key: EffectKey;
  outcome: EffectOutcome;
  at: Date;
  keepRecorded: boolean;
}

/**
 * The effect-log entries of one step (the clearing's, issue 26 item 1) kept until its end and
 * written then in as few statements as their keys allow (two multi-row inserts), in the step's
 * transaction: each part wrote its entries in statements of its own. `since`/`dropSince` leave out
 * the entries of a part whose savepoint was rolled back. Only for a step that reads no entry it
 * records (the step reads the log once, at its first ask: step-reads.ts). The rows' ids follow the
 * two inserts, not the order of recording; the log lists by each entry's time first.
 */
export function effectLogBatch() {
  const entries: Entry[] = [];
  const sameKey = (a: EffectKey, b: EffectKey) => a.orderId === b.orderId && a.source === b.source && a.effect === b.effect && (a.target ?? '') === (b.target ?? '');
  const record: RecordEffect = async (_em, key, outcome, at, { keepRecorded = false } = {}) => {
    entries.push({ key, outcome, at, keepRecorded });
  };
  return {
    record,
    since: () => entries.length,
    dropSince: (mark: number) => void entries.splice(mark),
    /**
     * Writes the entries in one insert for those recorded over what is there and one for those
     * recorded only where nothing is (`keepRecorded`); an entry whose key an earlier one holds
     * waits for the next pair, so the later of the two is recorded last.
     */
    async write(em: EntityManager): Promise<void> {
      let pending: Entry[] = [];
      const flush = async () => {
        for (const keepRecorded of [false, true]) {
          const run = pending.filter((e) => e.keepRecorded === keepRecorded);
          if (run.length) await recordEffects(em, run, { keepRecorded });
        }
        pending = [];
      };
      for (const entry of entries) {
        if (pending.some((e) => sameKey(e.key, entry.key))) await flush();
        pending.push(entry);
      }
      await flush();
      entries.length = 0;
    },
  };
}

import type { EntityManager } from '@mikro-orm/postgresql';
import { isPriceHistoryType } from '../../../domain/shop/automatic-discount-rules.ts';
import { timeLimitedDiscountWorkflowId } from '../../../domain/shop/workflow-ids.ts';
import { discountChangedSignal, discountRemovedSignal, type DiscountRef, type DiscountSchedule } from '../../../workflows/shop/time-limited-discount-signals.ts';
import type { OutboxRecorder, RecordedStart } from './outbox.ts';

/** A time-limited discount's settings as the write's transaction leaves them, for its price workflow. */
export interface StoredSchedule {
  revision: number;
  startDate: Date;
  endDate: Date;
  discountType: string;
}

/**
 * Tells a time-limited discount's price workflow about a write, recorded in the write's transaction
 * (the outbox, outbox.ts; sent by `startRecorded` after the commit, so the workflow's activities
 * read what the reply shows, and later when Temporal was down). A price-history type gets its
 * workflow started with the signal when none runs (signal-with-start: one call, no race with a
 * finishing run); another type only signals a running one, which then restores the prices it
 * changed and ends (so a DELETE needs to tell only a price-history discount's workflow). The
 * schedule carries its revision: a signal sent twice, or late, never replaces a newer schedule.
 */
export function discountWorkflows(outbox: OutboxRecorder) {
  return {
    discountScheduleChanged(em: EntityManager, ref: DiscountRef, stored: StoredSchedule): Promise<RecordedStart> {
      const priceHistory = isPriceHistoryType(stored.discountType);
      const schedule: DiscountSchedule = { startDate: stored.startDate.toISOString(), endDate: stored.endDate.toISOString(), revision: stored.revision, priceHistory };
      const workflowId = timeLimitedDiscountWorkflowId(ref);
      const signal = discountChangedSignal.name;
      if (!priceHistory) return outbox.record(em, 'timeLimitedDiscount', workflowId, { kind: 'signal', signal, signalArgs: [schedule] });
      return outbox.record(em, 'timeLimitedDiscount', workflowId, { kind: 'signalWithStart', args: [{ ...ref, schedule }], signal, signalArgs: [schedule] });
    },

    /**
     * The discount is deleted and its prices restored (in the DELETE's transaction): a running
     * workflow only needs to end, told by a signal recorded beside the deletion (none running:
     * nothing to tell; it would end at its end date anyway, its restore a no-op).
     */
    discountRemoved(em: EntityManager, ref: DiscountRef): Promise<RecordedStart> {
      return outbox.record(em, 'timeLimitedDiscount', timeLimitedDiscountWorkflowId(ref), { kind: 'signal', signal: discountRemovedSignal.name, signalArgs: [] });
    },
  };
}

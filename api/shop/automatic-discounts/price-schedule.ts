import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { StoredSchedule } from '../../../db/repositories/shop/automatic-discounts.ts';
import { isPriceHistoryType } from '../../../domain/shop/automatic-discount-rules.ts';
import { timeLimitedDiscountWorkflowId } from '../../../domain/shop/workflow-ids.ts';
import type * as workflows from '../../../workflows/index.ts';
import { discountChangedSignal, discountRemovedSignal, type DiscountSchedule } from '../../../workflows/shop/time-limited-discount-signals.ts';

export interface DiscountRef {
  shopId: string;
  discountId: number;
}

/**
 * Tells a time-limited discount's price workflow about a committed write (after the database, so
 * the workflow's activities read what the reply shows). A price-history type gets its workflow
 * started with the signal when none runs (signal-with-start: one call, no race with a finishing
 * run); another type only signals a running one, which then restores the prices it changed.
 */
export function priceSchedule(client: Client, taskQueue: string) {
  const handleOf = (ref: DiscountRef) => client.workflow.getHandle(timeLimitedDiscountWorkflowId(ref));

  async function signalIfRunning(ref: DiscountRef, send: (handle: ReturnType<typeof handleOf>) => Promise<void>): Promise<void> {
    try {
      await send(handleOf(ref));
    } catch (error) {
      if (!(error instanceof WorkflowNotFoundError)) throw error;
    }
  }

  return {
    async changed(ref: DiscountRef, stored: StoredSchedule): Promise<void> {
      const schedule: DiscountSchedule = { startDate: stored.startDate.toISOString(), endDate: stored.endDate.toISOString(), revision: stored.revision };
      if (!isPriceHistoryType(stored.discountType)) {
        await signalIfRunning(ref, (handle) => handle.signal(discountChangedSignal, schedule));
        return;
      }
      await client.workflow.signalWithStart<typeof workflows.timeLimitedDiscount, [DiscountSchedule]>('timeLimitedDiscount', {
        taskQueue,
        workflowId: timeLimitedDiscountWorkflowId(ref),
        args: [{ ...ref, schedule }],
        signal: discountChangedSignal,
        signalArgs: [schedule],
      });
    },

    /** The discount is deleted: a running workflow restores the prices and ends. */
    removed(ref: DiscountRef): Promise<void> {
      return signalIfRunning(ref, (handle) => handle.signal(discountRemovedSignal));
    },
  };
}

import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { FastifyBaseLogger } from 'fastify';
import { isPriceHistoryType } from '../../../domain/shop/automatic-discount-rules.ts';
import { timeLimitedDiscountWorkflowId } from '../../../domain/shop/workflow-ids.ts';
import type * as workflows from '../../../workflows/index.ts';
import { discountChangedSignal, discountRemovedSignal, type DiscountRef, type DiscountSchedule } from '../../../workflows/shop/time-limited-discount-signals.ts';
import { HttpError } from '../errors.ts';

const NOT_TOLD = 'the change is saved, but its price schedule could not be told: repeat the request (after a POST, an empty PATCH of the id)';

/** A time-limited discount's settings as committed, for its price workflow. */
export interface StoredSchedule {
  revision: number;
  startDate: Date;
  endDate: Date;
  discountType: string;
}

/**
 * Tells a time-limited discount's price workflow about a committed write (after the database, so
 * the workflow's activities read what the reply shows). A price-history type gets its workflow
 * started with the signal when none runs (signal-with-start: one call, no race with a finishing
 * run); another type only signals a running one, which then restores the prices it changed and
 * ends (so a DELETE needs to tell only a price-history discount's workflow).
 * Temporal unreachable after the commit is a 503 saying the change is saved (as the subscribers'
 * signals): the client repeats the request; after a POST, an empty PATCH of the new id (in the
 * 503 body) sends the schedule again and starts the workflow.
 */
export function discountWorkflows(client: Client, taskQueue: string) {
  const handleOf = (ref: DiscountRef) => client.workflow.getHandle(timeLimitedDiscountWorkflowId(ref));

  async function tell(log: FastifyBaseLogger, ref: DiscountRef, send: () => Promise<unknown>): Promise<void> {
    try {
      await send();
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) return;
      log.error({ err: error, workflowId: timeLimitedDiscountWorkflowId(ref) }, 'time-limited discount workflow could not be told');
      throw new HttpError(503, NOT_TOLD, { error: NOT_TOLD, id: ref.discountId }, { 'retry-after': '5' });
    }
  }

  return {
    discountScheduleChanged(log: FastifyBaseLogger, ref: DiscountRef, stored: StoredSchedule): Promise<void> {
      const priceHistory = isPriceHistoryType(stored.discountType);
      const schedule: DiscountSchedule = { startDate: stored.startDate.toISOString(), endDate: stored.endDate.toISOString(), revision: stored.revision, priceHistory };
      if (!priceHistory) return tell(log, ref, () => handleOf(ref).signal(discountChangedSignal, schedule));
      return tell(log, ref, () =>
        client.workflow.signalWithStart<typeof workflows.timeLimitedDiscount, [DiscountSchedule]>('timeLimitedDiscount', {
          taskQueue,
          workflowId: timeLimitedDiscountWorkflowId(ref),
          args: [{ ...ref, schedule }],
          signal: discountChangedSignal,
          signalArgs: [schedule],
        }),
      );
    },

    /**
     * The discount is deleted and its prices restored (in the DELETE's transaction): a running
     * workflow only needs to end. Cleanup: a failure is logged, never the request's (the workflow
     * then ends at its end date, its restore a no-op).
     */
    async discountRemoved(log: FastifyBaseLogger, ref: DiscountRef): Promise<void> {
      try {
        await handleOf(ref).signal(discountRemovedSignal);
      } catch (error) {
        if (!(error instanceof WorkflowNotFoundError)) log.warn({ err: error, workflowId: timeLimitedDiscountWorkflowId(ref) }, 'time-limited discount workflow could not be told of the removal');
      }
    },
  };
}

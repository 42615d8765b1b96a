import { defineQuery, defineSignal } from '@temporalio/workflow';

/**
 * The contract of a time-limited price-history discount's workflow, shared by the API (which
 * signals after its write has committed) and the workflow. Dates are ISO 8601; `revision` grows
 * with every write, so a late signal never replaces a newer schedule.
 */
export interface DiscountSchedule {
  startDate: string;
  endDate: string;
  revision: number;
}

export interface TimeLimitedDiscountInput {
  shopId: string;
  discountId: number;
  schedule: DiscountSchedule;
  /** Carried over a continue-as-new: the revision whose prices are in force. */
  appliedRevision?: number | null;
}

/** The discount was written (dates, value, products, type or active): prices already changed are restored and, inside the window, recalculated. */
export const discountChangedSignal = defineSignal<[DiscountSchedule]>('timeLimitedDiscountChanged');
/** The discount was deleted: prices already changed are restored and the workflow ends. */
export const discountRemovedSignal = defineSignal('timeLimitedDiscountRemoved');

export interface DiscountPriceState {
  schedule: DiscountSchedule;
  /** The revision whose prices are in force, or null when the products carry their own prices. */
  appliedRevision: number | null;
  removed: boolean;
}
export const discountPriceStateQuery = defineQuery<DiscountPriceState>('timeLimitedDiscountState');

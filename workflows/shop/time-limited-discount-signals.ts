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
  /** False once the discount's type no longer changes prices: the workflow restores and ends (absent: true). */
  priceHistory?: boolean;
}

/** Which discount a workflow, signal or activity is about. */
export interface DiscountRef {
  shopId: string;
  discountId: number;
}

export interface TimeLimitedDiscountInput extends DiscountRef {
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

import { condition, continueAsNew, setHandler, workflowInfo } from '@temporalio/workflow';
import {
  discountChangedSignal,
  discountPriceStateQuery,
  discountRemovedSignal,
  type DiscountSchedule,
  type TimeLimitedDiscountInput,
} from './time-limited-discount-signals.ts';
import type { TimeLimitedDiscountActivities } from '../../activities/shop/time-limited-discount.ts';
import { activitiesOf } from '../shared/activities-of.ts';
import { DB_STEP } from '../shared/activity-profiles.ts';

const discountPrices = activitiesOf<TimeLimitedDiscountActivities>(DB_STEP);

/**
 * The price schedule of one time-limited price-history discount (id
 * `shop/<shop>/time-limited-discount/<id>`): sleeps to `startDate`, recalculates the affected
 * products' prices (the activity keeps each original price), sleeps to `endDate`, restores them.
 * A change signal inside the window recalculates the applied prices from the new settings in one
 * step (restore and apply in one transaction, so no full-price gap), outside it restores; a
 * removal restores (a no-op after the DELETE restored in its transaction) and ends. Every activity
 * is idempotent, so a retried attempt never discounts a price twice. A change to a type without
 * price history restores and ends the run.
 */
export async function timeLimitedDiscount({ shopId, discountId, schedule: initial, appliedRevision: carried }: TimeLimitedDiscountInput): Promise<void> {
  let schedule: DiscountSchedule = initial;
  let removed = false;
  let appliedRevision: number | null = carried ?? null;
  setHandler(discountChangedSignal, (next) => {
    if (next.revision >= schedule.revision) schedule = next;
  });
  setHandler(discountRemovedSignal, () => {
    removed = true;
  });
  setHandler(discountPriceStateQuery, () => ({ schedule, appliedRevision, removed }));

  const ref = { shopId, discountId };
  for (;;) {
    if (removed) {
      await discountPrices.restoreDiscountPrices(ref);
      return;
    }
    // The type no longer changes prices: put back what this run applied and end (a later
    // price-history write starts a new run); a signal that came meanwhile is seen by the loop.
    if (schedule.priceHistory === false) {
      if (appliedRevision === null) return;
      await discountPrices.restoreDiscountPrices(ref);
      appliedRevision = null;
      continue;
    }
    // Many changes make a long history: go on in a fresh run with the state so far.
    if (workflowInfo().continueAsNewSuggested) await continueAsNew<typeof timeLimitedDiscount>({ shopId, discountId, schedule, appliedRevision });
    const now = Date.now();
    const start = Date.parse(schedule.startDate);
    const end = Date.parse(schedule.endDate);
    const inWindow = now >= start && now < end;
    if (appliedRevision !== null && !inWindow) {
      await discountPrices.restoreDiscountPrices(ref);
      appliedRevision = null;
      continue;
    }
    if (appliedRevision !== null && appliedRevision !== schedule.revision) {
      // Restore and recalculate in one transaction: the products never show their full price in between.
      const { revision } = schedule;
      await discountPrices.reapplyDiscountPrices(ref);
      appliedRevision = revision;
      continue;
    }
    if (appliedRevision === null && inWindow) {
      const { revision } = schedule;
      await discountPrices.applyDiscountPrices(ref);
      appliedRevision = revision;
      continue;
    }
    if (now >= end) return;
    const seen = schedule;
    await condition(() => removed || schedule !== seen, (appliedRevision === null ? start : end) - now);
  }
}

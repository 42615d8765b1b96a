import { applyDiscountPrices, reapplyDiscountPrices, restoreDiscountPrices } from '../../db/repositories/shop/automatic-discounts.ts';
import { shopEm } from '../../db/repositories/shared/tenant-em.ts';
import type { DiscountRef } from '../../workflows/shop/time-limited-discount-signals.ts';
import type { ActivityDeps } from '../shared/deps.ts';

/** The price steps of a time-limited price-history discount's workflow; all are idempotent. */
export function timeLimitedDiscountActivities({ orm, now = () => new Date() }: ActivityDeps) {
  return {
    /** Recalculates the affected products' prices from the discount's current settings; returns how many changed. */
    async applyDiscountPrices({ shopId, discountId }: DiscountRef): Promise<number> {
      return applyDiscountPrices(shopEm(orm, shopId), shopId, discountId, now());
    },
    /** Restores the prices the discount changed; returns how many. */
    async restoreDiscountPrices({ shopId, discountId }: DiscountRef): Promise<number> {
      return restoreDiscountPrices(shopEm(orm, shopId), shopId, discountId, now());
    },
    /** Restores and recalculates from the changed settings in one transaction (no full-price gap); returns how many changed. */
    async reapplyDiscountPrices({ shopId, discountId }: DiscountRef): Promise<number> {
      return reapplyDiscountPrices(shopEm(orm, shopId), shopId, discountId, now());
    },
  };
}

/** What a workflow proxies of this file: `activitiesOf<TimeLimitedDiscountActivities>(profile)` (workflows/shared/activities-of.ts). */
export type TimeLimitedDiscountActivities = ReturnType<typeof timeLimitedDiscountActivities>;

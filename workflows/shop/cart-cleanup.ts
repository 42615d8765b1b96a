import type { CartCleanupActivities } from '../../activities/shop/cart-cleanup.ts';
import { activitiesOf } from '../shared/activities-of.ts';
import { DB_STEP } from '../shared/activity-profiles.ts';

const carts = activitiesOf<CartCleanupActivities>(DB_STEP);

/** Run daily by the `shop-cart-cleanup/<task queue>` schedule (worker/schedules.ts): forgets the storefront carts unused for 30 days. */
export async function cartCleanup(): Promise<number> {
  return carts.deleteUnusedCarts();
}

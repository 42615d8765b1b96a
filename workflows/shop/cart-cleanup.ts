import { db } from '../shared/activity-proxies.ts';

/** Run daily by the `shop-cart-cleanup/<task queue>` schedule (worker/schedules.ts): forgets the storefront carts unused for 30 days. */
export async function cartCleanup(): Promise<number> {
  return db.deleteUnusedCarts();
}

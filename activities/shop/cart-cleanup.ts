import { deleteCartsUnusedSince } from '../../db/repositories/shop/carts.ts';
import { cartExpiry } from '../../domain/shop/cart.ts';
import type { ActivityDeps } from '../shared/deps.ts';

/** The storefront's carts unused for 30 days (DESIGN.md section 9), forgotten by the daily schedule. */
export function cartCleanupActivities({ orm, now = () => new Date() }: ActivityDeps) {
  return {
    /** Deletes every shop's carts neither read nor changed for CART_TTL_DAYS; returns how many. Idempotent. */
    async deleteUnusedCarts(): Promise<number> {
      return deleteCartsUnusedSince(orm.em.fork(), cartExpiry(now()));
    },
  };
}

/** What a workflow proxies of this file: `activitiesOf<CartCleanupActivities>(profile)` (workflows/shared/activities-of.ts). */
export type CartCleanupActivities = ReturnType<typeof cartCleanupActivities>;

import { activateSubscriptions } from './activate-subscriptions.ts';
import { grantShopCourseAccess } from './course-access.ts';
import { outsideEffect, runEffect, skipEffect, type OrderRef } from './run-effect.ts';
import type { OrderEffectActivities } from '../../../activities/shop/order-effects.ts';
import { activitiesOf } from '../../shared/activities-of.ts';
import { ORDER_EFFECT } from '../../shared/activity-profiles.ts';

const orderEffects = activitiesOf<OrderEffectActivities>(ORDER_EFFECT);

/**
 * A zero-total order needs no clearing (spec: States and transitions): at placing it gets what a
 * paid order gets that makes sense at 0.00, under source `placed` in its effect log: download
 * codes, marketing tags, course access and subscriptions; no invoice and no purchase event (both
 * recorded `skipped`). It stays unpaid at its status: the shop's automatic statuses (with
 * `automatically_set_if_total_zero`) move it on if the owner wants. Any other order: nothing.
 */
export async function fulfilZeroTotalOrder(ref: OrderRef): Promise<void> {
  if (!(await orderEffects.needsNoClearing(ref))) return;
  await zeroTotalFulfilment(ref);
}

/** The fulfilment of an order known to need no clearing (as fulfilZeroTotalOrder describes). */
export async function zeroTotalFulfilment(ref: OrderRef): Promise<void> {
  await Promise.all([
    skipEffect(ref, 'invoice', 'a zero-total order: no invoice'),
    skipEffect(ref, 'analytics_purchase', 'a zero-total order: no purchase event'),
    runEffect(ref, 'download_codes', () => orderEffects.createDownloadCodes(ref)),
    outsideEffect(ref, 'marketing_tags', (proxy) => proxy.tagCustomer(ref)),
    grantShopCourseAccess(ref),
    activateSubscriptions(ref),
  ]);
}

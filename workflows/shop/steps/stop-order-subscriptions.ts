import { skipped } from '../../../domain/shop/effects.ts';
import { runEffect, type OrderRef } from './run-effect.ts';
import { signalSubscribersToReload } from './signal-subscribers.ts';
import type { OrderEffectActivities } from '../../../activities/shop/order-effects.ts';
import type { SubscriberRenewalActivities } from '../../../activities/shop/subscriber-renewal.ts';
import { activitiesOf } from '../../shared/activities-of.ts';
import { DB_STEP, ORDER_EFFECT } from '../../shared/activity-profiles.ts';

const renewals = activitiesOf<SubscriberRenewalActivities>(ORDER_EFFECT);
const orderEffects = activitiesOf<OrderEffectActivities>(DB_STEP);

/**
 * A status change's `subscription` effect: at a canceled or returned status the subscriptions the
 * order started are ended and their renewal runs told to read their state again (they stop); at
 * any other status nothing is recorded.
 */
export async function stopOrderSubscriptions(ref: OrderRef, statusId: number): Promise<void> {
  await runEffect(ref, 'subscription', async () => {
    const { outcome, endedIds } = await renewals.stopOrderSubscriptions({ ...ref, statusId });
    await signalSubscribersToReload(ref.shopId, endedIds);
    if (!outcome) return skipped('nothing to stop');
    await orderEffects.recordOrderEffect({ ...ref, effect: 'subscription', outcome });
    return outcome;
  });
}

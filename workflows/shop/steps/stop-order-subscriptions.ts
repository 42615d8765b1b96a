import { skipped } from '../../../domain/shop/effects.ts';
import { db, orderEffect } from '../../shared/activity-proxies.ts';
import { runEffect, type OrderRef } from './run-effect.ts';
import { signalSubscribersToReload } from './signal-subscribers.ts';

/**
 * A status change's `subscription` effect: at a canceled or returned status the subscriptions the
 * order started are ended and their renewal runs told to read their state again (they stop); at
 * any other status nothing is recorded.
 */
export async function stopOrderSubscriptions(ref: OrderRef, statusId: number): Promise<void> {
  await runEffect(ref, 'subscription', async () => {
    const { outcome, endedIds } = await orderEffect.stopOrderSubscriptions({ ...ref, statusId });
    await signalSubscribersToReload(ref.shopId, endedIds);
    if (!outcome) return skipped('nothing to stop');
    await db.recordOrderEffect({ ...ref, effect: 'subscription', outcome });
    return outcome;
  });
}

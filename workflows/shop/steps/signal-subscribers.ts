import { getExternalWorkflowHandle } from '@temporalio/workflow';
import { subscriberWorkflowId } from '../../../domain/shop/workflow-ids.ts';
import { subscriberItemsChangedSignal } from '../subscription-signals.ts';

/**
 * Tells each subscriber's renewal run to read its state again, one after the other; a subscriber
 * whose workflow already finished has nothing to stop.
 */
export async function signalSubscribersToReload(shopId: string, subscriberIds: readonly number[]): Promise<void> {
  for (const subscriberId of subscriberIds) {
    await getExternalWorkflowHandle(subscriberWorkflowId({ shopId, subscriberId }))
      .signal(subscriberItemsChangedSignal)
      .catch(() => undefined);
  }
}

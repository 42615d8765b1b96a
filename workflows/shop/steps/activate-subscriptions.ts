import { subscriberWorkflowId } from '../../../domain/shop/workflow-ids.ts';
import { startChildOnce } from '../../shared/start-child-once.ts';
import { activitySteps, runEffect, type EffectSteps, type OrderRef } from './run-effect.ts';
import { signalSubscribersToReload } from './signal-subscribers.ts';
import { startSubscriptionMailSequences } from './start-mail-sequences.ts';
import type { OrderEffectActivities } from '../../../activities/shop/order-effects.ts';
import type { SubscriberRenewalActivities } from '../../../activities/shop/subscriber-renewal.ts';
import { activitiesOf } from '../../shared/activities-of.ts';

/**
 * The clearing's `subscription` effect (issue 12): the activity creates the subscribers of the
 * order's subscription products (automatic plans charge renewals; manual plans end with their
 * period, and a purchase while one runs extends it, issue 22) and ends the superseded plans' subscriptions; each new
 * subscriber's renewal workflow is started here once (a child that outlives the clearing), each
 * ended one is told to read its state again (it then finds itself ended and stops), and only then
 * is the outcome recorded.
 */
export function activateSubscriptions(ref: OrderRef, steps: EffectSteps = activitySteps): Promise<void> {
  return runEffect(ref, 'subscription', async () => {
    const { outcome, subscriberIds, endedIds, extendedIds = [] } = await activitiesOf<SubscriberRenewalActivities>(steps.orderEffect).activateSubscriptions(ref);
    await startSubscribers(ref.shopId, subscriberIds);
    // A first entry into a plan starts its mail sequences (workflows/shop/mail-sequence.ts).
    await startSubscriptionMailSequences(ref.shopId, subscriberIds, steps);
    // Ended ones find themselves ended and stop; extended ones (a manual plan bought again) read their new end.
    await signalSubscribersToReload(ref.shopId, [...endedIds, ...extendedIds]);
    await activitiesOf<OrderEffectActivities>(steps.dbStep).recordOrderEffect({ ...ref, effect: 'subscription', outcome });
    return outcome;
  }, steps).then(() => undefined);
}

/** Each new subscriber's renewal workflow, once (a child that outlives the clearing). */
export async function startSubscribers(shopId: string, subscriberIds: readonly number[]): Promise<void> {
  for (const subscriberId of subscriberIds) {
    await startChildOnce('subscriberRenewal', {
      workflowId: subscriberWorkflowId({ shopId, subscriberId }),
      args: [{ shopId, subscriberId, activated: true }],
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
    });
  }
}

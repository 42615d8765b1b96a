import { uuid4 } from '@temporalio/workflow';
import type { EffectOutcome } from '../../../domain/shop/effects.ts';
import { clubDeliveryOpened } from '../../../domain/shop/effect-outcomes.ts';
import { clubWebhookWorkflowId } from '../../../domain/shop/workflow-ids.ts';
import { startChildOnce } from '../../shared/start-child-once.ts';
import { activitySteps, runEffect, type EffectSteps, type OrderRef } from './run-effect.ts';
import type { ClubWebhookActivities } from '../../../activities/shop/club-webhook.ts';
import type { OrderEffectActivities } from '../../../activities/shop/order-effects.ts';
import { activitiesOf } from '../../shared/activities-of.ts';

/**
 * The `club_webhook` effect of an order transition that reached `statusId` (null: the clearing,
 * which sets the Paid status). When the club integration asks for it, one delivery workflow per
 * order and status (`shop/<s>/order/<o>/club-webhook/at-status/<status>`, REJECT_DUPLICATE), recorded `done`
 * "under way" once started and then as the delivery ended (`done` delivered, `failed` with the reason); `skipped` with the reason otherwise (no integration, switched off, another status,
 * no listed product, or sent already when the order reached this status before); `failed` when
 * the order cannot be read (the transition's other effects go on).
 */
export function notifyClub(ref: OrderRef, statusId: number | null, steps: EffectSteps = activitySteps): Promise<EffectOutcome> {
  return runEffect(ref, 'club_webhook', () => startClubWebhook(ref, statusId, steps), steps);
}

async function startClubWebhook(ref: OrderRef, statusId: number | null, steps: EffectSteps): Promise<EffectOutcome> {
  // Workflow code: uuid4 and the clock are recorded in history, so a replay opens the same event.
  const opening = await activitiesOf<ClubWebhookActivities>(steps.dbStep).openClubWebhookDelivery({ ...ref, statusId, eventId: uuid4(), occurredAt: new Date().toISOString() });
  if (!('skipped' in opening)) await startClubDelivery(ref.shopId, ref.orderId, opening);
  // Until the delivery is over (deliverClubWebhook records its outcome over this entry): provisional,
  // since the delivery may be over before this is recorded.
  const outcome = clubDeliveryOpened(opening);
  await activitiesOf<OrderEffectActivities>(steps.dbStep).recordOrderEffect({ ...ref, effect: 'club_webhook', outcome, provisional: outcome.status === 'done' });
  return outcome;
}

/** The club webhook's delivery workflow, once per order and status; `nextAttemptInMs` when its first attempt was made (the clearing's outside activity). */
export function startClubDelivery(shopId: string, orderId: number, opening: { deliveryId: string; statusId: number }, nextAttemptInMs?: number): Promise<void> {
  return startChildOnce('deliverClubWebhook', {
    workflowId: clubWebhookWorkflowId({ shopId, orderId, statusId: opening.statusId }),
    args: [{ shopId, deliveryId: opening.deliveryId, ...(nextAttemptInMs === undefined ? {} : { nextAttemptInMs }) }],
    workflowIdReusePolicy: 'REJECT_DUPLICATE',
  });
}

import { ActivityFailure, ApplicationFailure, patched, uuid4 } from '@temporalio/workflow';
import type { ClearingEvent, ClearingStepResult } from '../../../activities/shop/clearing-step.ts';
import { CLEARING_PARTS, type ClearingPart, type OutsideClearingEffect } from '../../../domain/shop/clearing-parts.ts';
import type { EffectOutcome, HandOn } from '../../../domain/shop/effects.ts';
import { activateSubscriptions, startSubscribers } from './activate-subscriptions.ts';
import { grantShopCourseAccess, startAccessWorkflows } from './course-access.ts';
import { notifyClub, startClubDelivery } from './notify-club.ts';
import { deliverInlineFirst, notifyShopWebhooks, startShopDelivery } from './notify-shop-webhooks.ts';
import { handedOnEffect, localSteps, outsideEffect, runEffect, type OrderEffects, type OrderRef } from './run-effect.ts';
import { scheduleAutomaticStatuses, startAutomaticStatuses } from './schedule-automatic-statuses.ts';
import { signalSubscribersToReload } from './signal-subscribers.ts';
import { startEntryMailSequences, startMailSequences, startOrderMailSequences } from './start-mail-sequences.ts';
import type { ClearingStepActivities } from '../../../activities/shop/clearing-transaction.ts';
import type { OrderEffectActivities } from '../../../activities/shop/order-effects.ts';
import { activitiesOf } from '../../shared/activities-of.ts';
import { LOCAL_ORDER_EFFECT } from '../../shared/activity-profiles.ts';

const clearing = activitiesOf<ClearingStepActivities>(LOCAL_ORDER_EFFECT);

type OutsideCall = (proxy: OrderEffects, first: { localFirst?: true }) => Promise<EffectOutcome | HandOn>;

/**
 * The clearing with its database work in one local activity (issue 26 item 1, `clearing-one-step`):
 * `clearOrderInOneStep` does every database-only part in one transaction and records its rows; the
 * workflow then starts what it opened (deliveries, the access order's workflow, sequences,
 * subscribers, timers) and hands the effects that go out to their retried activities. A part the
 * step left (its failure may pass with a retry) runs by its own local steps, as before the patch,
 * and with it the parts that wait for it (webhooks after the invoice, the Paid status's mail and
 * webhooks after the download codes too).
 */
export async function clearInOneStep(ref: OrderRef): Promise<void> {
  const paid: OrderRef = { ...ref, source: 'clear:paid' };
  // Workflow code: uuid4 and the clock are recorded, so a repeated task passes the same events.
  const event = (): ClearingEvent => ({ eventId: uuid4(), occurredAt: new Date().toISOString() });
  const step = await clearingStep({ shopId: ref.shopId, orderId: ref.orderId, events: { cleared: event(), paid: event(), club: event() } });
  const left = new Set(step.deferred);
  const slow = (part: ClearingPart, run: () => Promise<unknown>): Promise<unknown> => (left.has(part) ? run() : Promise.resolve());
  const outside: Record<OutsideClearingEffect, { at: OrderRef; call: OutsideCall }> = {
    analytics_purchase: { at: ref, call: (proxy, first) => proxy.sendAnalyticsPurchase({ ...ref, ...first }) },
    marketing_tags: { at: ref, call: (proxy, first) => proxy.tagCustomer({ ...ref, ...first }) },
    status_mail: { at: paid, call: (proxy, first) => proxy.sendStatusMail({ ...paid, statusId: null, ...first }) },
  };
  const outsideLeft = (effect: OutsideClearingEffect) => slow(effect, () => outsideEffect(outside[effect].at, effect, outside[effect].call, localSteps));
  const steps = localSteps;
  const invoice = slow('invoice', () => runEffect(ref, 'invoice', () => activitiesOf<OrderEffectActivities>(steps.orderEffect).issueInvoice(ref), steps));
  const codes = slow('download_codes', () => runEffect(ref, 'download_codes', () => activitiesOf<OrderEffectActivities>(steps.orderEffect).createDownloadCodes(ref), steps));
  await Promise.all([
    startOpened(ref, step),
    ...step.handOn.map((effect) => handedOnEffect(outside[effect].at, effect, outside[effect].call, steps)),
    invoice.then(() => Promise.all([slow('cleared_webhooks', () => notifyShopWebhooks(ref, 'order_cleared', steps)), slow('club_webhook', () => notifyClub(ref, null, steps))])),
    Promise.all([invoice, codes]).then(() => Promise.all([outsideLeft('status_mail'), slow('paid_webhooks', () => notifyShopWebhooks(paid, 'order_status_changed', steps))])),
    outsideLeft('analytics_purchase'),
    outsideLeft('marketing_tags'),
    slow('course_access', () => grantShopCourseAccess(ref, steps)),
    slow('mail_sequence', () => startOrderMailSequences(ref, null, steps)),
    slow('subscription', () => activateSubscriptions(ref, steps)),
    slow('automatic_statuses', () => scheduleAutomaticStatuses({ ...ref, source: 'clear' }, steps)),
  ]);
}

/** The step; when it fails for good (its retries spent), every part is left to its own steps. */
async function clearingStep(input: Parameters<typeof clearing.clearOrderInOneStep>[0]): Promise<ClearingStepResult> {
  try {
    return await clearing.clearOrderInOneStep(input);
  } catch (error) {
    if (!(error instanceof ActivityFailure) && !(error instanceof ApplicationFailure)) throw error;
    return { deferred: [...CLEARING_PARTS], handOn: [], deliveries: [], club: null, courseAccess: {}, sequences: null, subscriptions: null, automaticStatuses: [] };
  }
}

/** The workflows of what the step opened or planned, each once under its id. */
async function startOpened(ref: OrderRef, step: ClearingStepResult): Promise<void> {
  const { shopId, orderId } = ref;
  // The deliveries' first attempts are this workflow's own (DESIGN.md section 4, "Deliveries").
  const deliver = patched('shop-webhook-inline-first') ? deliverInlineFirst : startShopDelivery;
  await Promise.all([
    ...step.deliveries.map(({ source, webhookId, type, eventId, occurredAt, deliveryId }) => deliver({ shopId, orderId, source, webhookId, type, eventId, occurredAt, deliveryId })),
    step.club && startClubDelivery(shopId, orderId, step.club),
    startAccessWorkflows(step.courseAccess),
    step.sequences && startMailSequences(shopId, step.sequences, step.sequences.sequenceIds, { kind: 'order_status', statusId: step.sequences.statusId, orderId }),
    step.subscriptions &&
      (async ({ subscriberIds, entries, reloadIds }) => {
        await startSubscribers(shopId, subscriberIds);
        await startEntryMailSequences(shopId, entries);
        await signalSubscribersToReload(shopId, reloadIds);
      })(step.subscriptions),
    startAutomaticStatuses({ shopId, orderId, source: 'clear' }, step.automaticStatuses),
  ]);
}

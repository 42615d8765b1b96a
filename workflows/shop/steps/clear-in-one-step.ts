import { ActivityFailure, ApplicationFailure, patched, uuid4 } from '@temporalio/workflow';
import type { ClearingEvent, ClearingStepResult } from '../../../activities/shop/clearing-step.ts';
import { CLEARING_PARTS, callOutside, planOf, webhooksOf, type ClearingPart, type OutsideClearingEffect } from '../../../domain/shop/clearing-plan.ts';
import { activateSubscriptions, startSubscribers } from './activate-subscriptions.ts';
import { grantShopCourseAccess, startAccessWorkflows } from './course-access.ts';
import { notifyClub, startClubDelivery } from './notify-club.ts';
import { deliverInlineFirst, notifyShopWebhooks, startShopDelivery } from './notify-shop-webhooks.ts';
import { handedOnEffect, localSteps, outsideEffect, runEffect, type OrderEffects, type OrderRef } from './run-effect.ts';
import { scheduleAutomaticStatuses, startAutomaticStatuses } from './schedule-automatic-statuses.ts';
import { signalSubscribersToReload } from './signal-subscribers.ts';
import { startEntryMailSequences, startMailSequences, startOrderMailSequences } from './start-mail-sequences.ts';
import type { ClearingStepActivities } from '../../../activities/shop/clearing-transaction.ts';
import type { ClearingOutsideActivities, ClearingOutsideResult } from '../../../activities/shop/clearing-outside.ts';
import type { OrderEffectActivities } from '../../../activities/shop/order-effects.ts';
import { activitiesOf } from '../../shared/activities-of.ts';
import { CLEARING_OUTSIDE, LOCAL_CLEARING_OUTSIDE, LOCAL_ORDER_EFFECT } from '../../shared/activity-profiles.ts';

const clearing = activitiesOf<ClearingStepActivities>(LOCAL_ORDER_EFFECT);
const orderEffects = activitiesOf<OrderEffectActivities>(localSteps.orderEffect);
const outside = activitiesOf<ClearingOutsideActivities>(LOCAL_CLEARING_OUTSIDE);
const outsideAsActivity = activitiesOf<ClearingOutsideActivities>(CLEARING_OUTSIDE);

/** The call of an outside part for the order under its part's source, through the proxy it is asked under. */
const outsideCall = (effect: OutsideClearingEffect, at: OrderRef) => (proxy: OrderEffects, first: { localFirst?: true }) => callOutside(proxy, effect, { ...at, ...first });

/** Each part run by its own local steps, when the one step left it (its failure may pass with a retry). */
const LEFT: Record<ClearingPart, (at: OrderRef) => Promise<unknown>> = {
  invoice: (at) => runEffect(at, 'invoice', () => orderEffects.issueInvoice(at), localSteps),
  download_codes: (at) => runEffect(at, 'download_codes', () => orderEffects.createDownloadCodes(at), localSteps),
  analytics_purchase: (at) => outsideEffect(at, 'analytics_purchase', outsideCall('analytics_purchase', at), localSteps),
  marketing_tags: (at) => outsideEffect(at, 'marketing_tags', outsideCall('marketing_tags', at), localSteps),
  course_access: (at) => grantShopCourseAccess(at, localSteps),
  mail_sequence: (at) => startOrderMailSequences(at, null, localSteps),
  subscription: (at) => activateSubscriptions(at, localSteps),
  automatic_statuses: (at) => scheduleAutomaticStatuses({ ...at, source: 'clear' }, localSteps),
  cleared_webhooks: (at) => notifyShopWebhooks(at, webhooksOf('cleared_webhooks').type, localSteps),
  club_webhook: (at) => notifyClub(at, null, localSteps),
  status_mail: (at) => outsideEffect(at, 'status_mail', outsideCall('status_mail', at), localSteps),
  paid_webhooks: (at) => notifyShopWebhooks(at, webhooksOf('paid_webhooks').type, localSteps),
};

/**
 * The order parts start in, as the commands of the histories were issued: the parts others wait
 * for, then what the step opened, then the parts that wait (each once what it waits for is over),
 * then the rest.
 */
const waitedFor = (part: ClearingPart): boolean => CLEARING_PARTS.some((other) => planOf(other).waitsFor.includes(part));
const waits = (part: ClearingPart): boolean => !waitedFor(part) && planOf(part).waitsFor.length > 0;
const neither = (part: ClearingPart): boolean => !waitedFor(part) && !waits(part);

/**
 * The clearing with its database work in one local activity (issue 26 item 1, `clearing-one-step`),
 * by the plan of domain/shop/clearing-plan.ts: `clearOrderInOneStep` does every database part in
 * one transaction and records its rows; the workflow then starts what it opened (the access
 * order's workflow, sequences, subscribers, timers) and makes its calls to the outside world (the
 * deliveries' first attempts, the parts handed on) in one local activity (`sendOutside`). A part the
 * step left runs by its own local steps (`LEFT`),
 * after the parts it waits for, and with it the parts that wait for it.
 */
export async function clearInOneStep(ref: OrderRef): Promise<void> {
  // Workflow code: uuid4 and the clock are recorded, so a repeated task passes the same events.
  const event = (): ClearingEvent => ({ eventId: uuid4(), occurredAt: new Date().toISOString() });
  const step = await clearingStep({ shopId: ref.shopId, orderId: ref.orderId, events: { cleared: event(), paid: event(), club: event() } });
  const left = new Set(step.deferred);
  const at = (part: ClearingPart): OrderRef => ({ ...ref, source: planOf(part).source });
  const runs = new Map<ClearingPart, Promise<unknown>>();
  const start = (part: ClearingPart): Promise<unknown> => {
    const run = () => (left.has(part) ? LEFT[part](at(part)) : Promise.resolve());
    const before = planOf(part).waitsFor.map((other) => runs.get(other) ?? Promise.resolve());
    const started = before.length === 0 ? run() : before.length === 1 ? before[0]!.then(run) : Promise.all(before).then(run);
    runs.set(part, started);
    return started;
  };
  const first = CLEARING_PARTS.filter(waitedFor).map(start);
  // The outside calls in one local activity (`clearing-outside-local`); in runs begun before, in
  // one activity (`clearing-outside-one-activity`), or each delivery's first attempt its own
  // activity and each handed-on part its own.
  const opened = patched('clearing-outside-local')
    ? [startOpened(ref, step, 'workflows only'), sendOutside(ref, step, at, outside)]
    : patched('clearing-outside-one-activity')
      ? [startOpened(ref, step, 'workflows only'), sendOutside(ref, step, at, outsideAsActivity)]
      : [startOpened(ref, step, 'with deliveries'), ...step.handOn.map((effect) => handedOnEffect(at(effect), effect, outsideCall(effect, at(effect)), localSteps))];
  const waiting = CLEARING_PARTS.filter(waits).map(start);
  const rest = CLEARING_PARTS.filter(neither).map(start);
  await Promise.all([...opened, ...first, ...waiting, ...rest]);
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

/**
 * The clearing's calls to the outside world (DESIGN.md section 4, "Deliveries"): the first attempt
 * of every delivery the step opened and the parts it handed on, in one (local) activity; what that
 * leaves goes on in the part's own retried activity or the delivery's workflow. When it fails for
 * good (out of time at every retry; as an activity, its worker lost), every call is handed on.
 */
async function sendOutside(ref: OrderRef, step: ClearingStepResult, at: (part: ClearingPart) => OrderRef, proxy: typeof outside): Promise<void> {
  const { shopId, orderId } = ref;
  const { handOn, deliveries, club } = step;
  if (handOn.length === 0 && deliveries.length === 0 && !club) return;
  const everything: ClearingOutsideResult = { retry: handOn, deliveries: deliveries.map(({ deliveryId }) => ({ deliveryId })), club: club && { deliveryId: club.deliveryId } };
  const left = await proxy.sendClearingOutside({ shopId, orderId, handOn, deliveries, club }).catch((error: unknown) => {
    if (!(error instanceof ActivityFailure)) throw error;
    return everything;
  });
  const opened = new Map(deliveries.map((delivery) => [delivery.deliveryId, delivery]));
  await Promise.all([
    ...left.retry.map((effect) => handedOnEffect(at(effect), effect, outsideCall(effect, at(effect)), localSteps)),
    ...left.deliveries.map(({ deliveryId, nextAttemptInMs }) => startShopDelivery({ shopId, orderId, ...opened.get(deliveryId)!, ...(nextAttemptInMs === undefined ? {} : { nextAttemptInMs }) })),
    left.club && club && startClubDelivery(shopId, orderId, club, left.club.nextAttemptInMs),
  ]);
}

/** The workflows of what the step opened or planned, each once under its id; in runs begun before `clearing-outside-one-activity`, the deliveries too. */
async function startOpened(ref: OrderRef, step: ClearingStepResult, what: 'workflows only' | 'with deliveries'): Promise<void> {
  const { shopId, orderId } = ref;
  const withDeliveries = what === 'with deliveries';
  // The deliveries' first attempts are this workflow's own (DESIGN.md section 4, "Deliveries").
  const deliver = withDeliveries && patched('shop-webhook-inline-first') ? deliverInlineFirst : startShopDelivery;
  await Promise.all([
    ...(withDeliveries ? step.deliveries : []).map(({ source, webhookId, type, eventId, occurredAt, deliveryId }) => deliver({ shopId, orderId, source, webhookId, type, eventId, occurredAt, deliveryId })),
    withDeliveries && step.club && startClubDelivery(shopId, orderId, step.club),
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

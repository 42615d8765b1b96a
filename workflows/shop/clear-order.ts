import { patched } from '@temporalio/workflow';
import { notifyClub } from './steps/notify-club.ts';
import type { ClearOrderInput } from './contracts.ts';
import { activateSubscriptions } from './steps/activate-subscriptions.ts';
import { grantShopCourseAccess } from './steps/course-access.ts';
import { activitySteps, localSteps, outsideEffect, runEffect, type OrderRef } from './steps/run-effect.ts';
import { scheduleAutomaticStatuses } from './steps/schedule-automatic-statuses.ts';
import { startOrderMailSequences } from './steps/start-mail-sequences.ts';
import { clearInOneStep } from './steps/clear-in-one-step.ts';
import { notifyShopWebhooks } from './steps/notify-shop-webhooks.ts';
import type { OrderEffectActivities } from '../../activities/shop/order-effects.ts';
import { activitiesOf } from '../shared/activities-of.ts';

export type { ClearOrderInput };

/**
 * Order: placed, unpaid -> placed, paid (spec: States and transitions). The API has already
 * marked the order paid and set its Paid status; this runs what "also happens", every effect with
 * its own retries and its own line in the effect log: invoice, download codes, analytics purchase,
 * marketing tags, course access on the linked platform (its access order a child workflow), the
 * shop webhooks subscribed to `order_cleared` (after the invoice), the sequences, subscriptions
 * and automatic statuses; and beside them what a change to the Paid status runs (source
 * `clear:paid`): its status mail, written once the download codes exist so `{{LINKI_DO_POBRANIA}}`
 * holds them, and the `order_status_changed` webhooks (the Paid status's club webhook, sequences
 * and automatic statuses are the clearing's own, run once).
 *
 * The effects that only touch our database run as local activities inside the clearing's workflow
 * task (issue 26 item 1: no activity task and no workflow task of their own); analytics, marketing
 * tags and the status mail stay activities, the webhook deliveries children. Clearings begun before
 * (`clearing-local-steps` unpatched) run every step as its own activity, as they were recorded.
 * Since `clearing-one-step` those local steps are one (workflows/shop/steps/clear-in-one-step.ts):
 * one transaction a clearing; the separate steps stay for what the one step leaves and old histories.
 */
export async function clearOrder({ shopId, orderId }: ClearOrderInput): Promise<void> {
  // Clearings begun after issue 26 item 1's second step: the database work in one local activity.
  if (patched('clearing-one-step')) return clearInOneStep({ shopId, orderId, source: 'clear' });
  const steps = patched('clearing-local-steps') ? localSteps : activitySteps;
  const ref: OrderRef = { shopId, orderId, source: 'clear' };
  const paid: OrderRef = { shopId, orderId, source: 'clear:paid' };
  const invoice = runEffect(ref, 'invoice', () => activitiesOf<OrderEffectActivities>(steps.orderEffect).issueInvoice(ref), steps);
  const codes = runEffect(ref, 'download_codes', () => activitiesOf<OrderEffectActivities>(steps.orderEffect).createDownloadCodes(ref), steps);
  await Promise.all([
    // The webhooks (the club's too: clearing sets the Paid status) go once the invoice is settled, so their body carries its number.
    invoice.then(() => Promise.all([notifyShopWebhooks(ref, 'order_cleared', steps), notifyClub(ref, null, steps)])),
    Promise.all([invoice, codes]).then(() =>
      Promise.all([outsideEffect(paid, 'status_mail', (proxy, first) => proxy.sendStatusMail({ ...paid, statusId: null, ...first }), steps), notifyShopWebhooks(paid, 'order_status_changed', steps)]),
    ),
    outsideEffect(ref, 'analytics_purchase', (proxy, first) => proxy.sendAnalyticsPurchase({ ...ref, ...first }), steps),
    outsideEffect(ref, 'marketing_tags', (proxy, first) => proxy.tagCustomer({ ...ref, ...first }), steps),
    grantShopCourseAccess(ref, steps),
    startOrderMailSequences(ref, null, steps),
    activateSubscriptions(ref, steps),
    scheduleAutomaticStatuses(ref, steps),
  ]);
}

import { orderEffect } from '../shared/activity-proxies.ts';
import { notifyClub } from './steps/notify-club.ts';
import type { ClearOrderInput } from './contracts.ts';
import { activateSubscriptions } from './steps/activate-subscriptions.ts';
import { grantShopCourseAccess } from './steps/course-access.ts';
import { runEffect, type OrderRef } from './steps/run-effect.ts';
import { scheduleAutomaticStatuses } from './steps/schedule-automatic-statuses.ts';
import { startOrderMailSequences } from './steps/start-mail-sequences.ts';
import { notifyShopWebhooks } from './steps/notify-shop-webhooks.ts';

export type { ClearOrderInput };

/**
 * Order: placed, unpaid -> placed, paid (spec: States and transitions). The API has already
 * marked the order paid and set its Paid status; this runs what "also happens", every effect its
 * own activity with its own retries and its own line in the effect log: invoice, download codes,
 * analytics purchase, marketing tags, course access on the linked platform (its access order a
 * child workflow), the shop webhooks subscribed to `order_cleared` (after the invoice), the
 * sequences, subscriptions and automatic statuses; and beside them what a change to the Paid
 * status runs (source `clear:paid`): its status mail, written once the download codes exist so
 * `{{LINKI_DO_POBRANIA}}` holds them, and the `order_status_changed` webhooks (the Paid status's
 * club webhook, sequences and automatic statuses are the clearing's own, run once).
 */
export async function clearOrder({ shopId, orderId }: ClearOrderInput): Promise<void> {
  const ref: OrderRef = { shopId, orderId, source: 'clear' };
  const paid: OrderRef = { shopId, orderId, source: 'clear:paid' };
  const invoice = runEffect(ref, 'invoice', () => orderEffect.issueInvoice(ref));
  const codes = runEffect(ref, 'download_codes', () => orderEffect.createDownloadCodes(ref));
  await Promise.all([
    // The webhooks (the club's too: clearing sets the Paid status) go once the invoice is settled, so their body carries its number.
    invoice.then(() => Promise.all([notifyShopWebhooks(ref, 'order_cleared'), notifyClub(ref, null)])),
    Promise.all([invoice, codes]).then(() =>
      Promise.all([runEffect(paid, 'status_mail', () => orderEffect.sendStatusMail({ ...paid, statusId: null })), notifyShopWebhooks(paid, 'order_status_changed')]),
    ),
    runEffect(ref, 'analytics_purchase', () => orderEffect.sendAnalyticsPurchase(ref)),
    runEffect(ref, 'marketing_tags', () => orderEffect.tagCustomer(ref)),
    grantShopCourseAccess(ref),
    startOrderMailSequences(ref, null),
    activateSubscriptions(ref),
    scheduleAutomaticStatuses(ref),
  ]);
}

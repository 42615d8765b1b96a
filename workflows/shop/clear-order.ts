import { orderEffect } from '../shared/activity-proxies.ts';
import { scheduleAutomaticStatuses } from './automatic-status.ts';
import { notifyClub } from './club-webhook.ts';
import { grantShopCourseAccess } from './course-access.ts';
import { startOrderMailSequences } from './mail-sequence.ts';
import { runEffect, type OrderRef } from './order-effects.ts';
import { activateSubscriptions } from './subscription-effect.ts';
import { notifyShopWebhooks } from './webhooks.ts';

export interface ClearOrderInput {
  shopId: string;
  orderId: number;
}

/**
 * Order: placed, unpaid -> placed, paid (spec: States and transitions). The API has already
 * marked the order paid; this runs what "also happens", every effect its own activity with its
 * own retries and its own line in the effect log: invoice, download codes, analytics purchase,
 * marketing tags, course access on the linked platform (its access order a child workflow), the
 * shop webhooks subscribed to `order_cleared` (after the invoice), then the hook points the later
 * features fill (sequences, subscriptions).
 */
export async function clearOrder({ shopId, orderId }: ClearOrderInput): Promise<void> {
  const ref: OrderRef = { shopId, orderId, source: 'clear' };
  await Promise.all([
    // The webhooks (the club's too: clearing sets the Paid status) go once the invoice is settled, so their body carries its number.
    runEffect(ref, 'invoice', () => orderEffect.issueInvoice(ref)).then(() => Promise.all([notifyShopWebhooks(ref, 'order_cleared'), notifyClub(ref, null)])),
    runEffect(ref, 'download_codes', () => orderEffect.createDownloadCodes(ref)),
    runEffect(ref, 'analytics_purchase', () => orderEffect.sendAnalyticsPurchase(ref)),
    runEffect(ref, 'marketing_tags', () => orderEffect.tagCustomer(ref)),
    grantShopCourseAccess(ref),
    startOrderMailSequences(ref, null),
    activateSubscriptions(ref),
    scheduleAutomaticStatuses(ref),
  ]);
}

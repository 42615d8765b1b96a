import { orderEffect } from '../shared/activity-proxies.ts';
import { grantShopCourseAccess } from './course-access.ts';
import { runEffect, skipEffect, type OrderRef } from './order-effects.ts';

export interface ClearOrderInput {
  shopId: string;
  orderId: number;
}

/**
 * Order: placed, unpaid -> placed, paid (spec: States and transitions). The API has already
 * marked the order paid; this runs what "also happens", every effect its own activity with its
 * own retries and its own line in the effect log: invoice, download codes, analytics purchase,
 * marketing tags, course access on the linked platform (its access order a child workflow), then
 * the hook points the later features fill (webhooks, sequences, subscriptions).
 */
export async function clearOrder({ shopId, orderId }: ClearOrderInput): Promise<void> {
  const ref: OrderRef = { shopId, orderId, source: 'clear' };
  await Promise.all([
    runEffect(ref, 'invoice', () => orderEffect.issueInvoice(ref)),
    runEffect(ref, 'download_codes', () => orderEffect.createDownloadCodes(ref)),
    runEffect(ref, 'analytics_purchase', () => orderEffect.sendAnalyticsPurchase(ref)),
    runEffect(ref, 'marketing_tags', () => orderEffect.tagCustomer(ref)),
    grantShopCourseAccess(ref),
    skipEffect(ref, 'webhook', 'no shop webhook subscribed to order_cleared'),
    skipEffect(ref, 'mail_sequence', 'no mail sequence starts at the paid status'),
    skipEffect(ref, 'subscription', 'no product of an automatic subscription plan'),
  ]);
}

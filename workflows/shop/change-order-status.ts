import { statusSource } from '../../domain/shop/effects.ts';
import { orderEffect } from '../shared/activity-proxies.ts';
import { withdrawShopCourseAccess } from './course-access.ts';
import { runEffect, skipEffect, type OrderRef } from './order-effects.ts';
import { notifyShopWebhooks } from './webhooks.ts';

export interface ChangeOrderStatusInput {
  shopId: string;
  orderId: number;
  /** The recorded status change: the key of this run's effects. */
  changeId: number;
  statusId: number;
}

/**
 * Order: any -> the status set through `PATCH /orders/:id/status`, with the panel's side effects,
 * each its own activity recorded in the effect log: the status mail, the course access withdrawn
 * at a canceled or returned status, the shop webhooks subscribed to `order_status_changed`, then
 * the hook points of the club webhook and the mail sequences.
 */
export async function changeOrderStatus({ shopId, orderId, changeId, statusId }: ChangeOrderStatusInput): Promise<void> {
  const ref: OrderRef = { shopId, orderId, source: statusSource(changeId) };
  await Promise.all([
    runEffect(ref, 'status_mail', () => orderEffect.sendStatusMail({ ...ref, statusId })),
    withdrawShopCourseAccess(ref, statusId),
    notifyShopWebhooks(ref, 'order_status_changed'),
    skipEffect(ref, 'club_webhook', 'no club integration at this status'),
    skipEffect(ref, 'mail_sequence', 'no mail sequence starts at this status'),
  ]);
}

import { statusSource } from '../../domain/shop/effects.ts';
import { orderEffect } from '../shared/activity-proxies.ts';
import { scheduleAutomaticStatuses } from './automatic-status.ts';
import { notifyClub } from './club-webhook.ts';
import { withdrawShopCourseAccess } from './course-access.ts';
import { startOrderMailSequences } from './mail-sequence.ts';
import { runEffect, type OrderRef } from './order-effects.ts';
import { stopOrderSubscriptions } from './subscription-effect.ts';
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
 * and the subscriptions stopped at a canceled or returned status, the shop webhooks subscribed to `order_status_changed`, then
 * the club webhook at its status, and the mail sequences the status starts.
 */
export async function changeOrderStatus({ shopId, orderId, changeId, statusId }: ChangeOrderStatusInput): Promise<void> {
  const ref: OrderRef = { shopId, orderId, source: statusSource(changeId) };
  await Promise.all([
    runEffect(ref, 'status_mail', () => orderEffect.sendStatusMail({ ...ref, statusId })),
    withdrawShopCourseAccess(ref, statusId),
    stopOrderSubscriptions(ref, statusId),
    notifyShopWebhooks(ref, 'order_status_changed'),
    notifyClub(ref, statusId),
    startOrderMailSequences(ref, statusId),
    scheduleAutomaticStatuses(ref),
  ]);
}

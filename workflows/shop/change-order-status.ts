import { patched } from '@temporalio/workflow';
import { statusSource } from '../../domain/shop/effects.ts';
import { notifyClub } from './steps/notify-club.ts';
import type { ChangeOrderStatusInput } from './contracts.ts';
import { withdrawShopCourseAccess } from './steps/course-access.ts';
import { correctOrderInvoice } from './steps/correct-order-invoice.ts';
import { outsideEffect, type OrderRef } from './steps/run-effect.ts';
import { scheduleAutomaticStatuses } from './steps/schedule-automatic-statuses.ts';
import { startOrderMailSequences } from './steps/start-mail-sequences.ts';
import { stopOrderSubscriptions } from './steps/stop-order-subscriptions.ts';
import { notifyShopWebhooks } from './steps/notify-shop-webhooks.ts';

export type { ChangeOrderStatusInput };

/**
 * Order: any -> the status set through `PATCH /orders/:id/status`, with the panel's side effects,
 * each its own activity recorded in the effect log: the status mail, the course access withdrawn
 * and the subscriptions stopped at a canceled or returned status, the shop webhooks subscribed to `order_status_changed`, then
 * the club webhook at its status, the mail sequences the status starts, and the correction of the
 * invoice of an order canceled or returned (issue 39 item 3; histories from before it replay without).
 */
export async function changeOrderStatus({ shopId, orderId, changeId, statusId }: ChangeOrderStatusInput): Promise<void> {
  const ref: OrderRef = { shopId, orderId, source: statusSource(changeId) };
  await Promise.all([
    outsideEffect(ref, 'status_mail', (proxy) => proxy.sendStatusMail({ ...ref, statusId })),
    withdrawShopCourseAccess(ref, statusId),
    stopOrderSubscriptions(ref, statusId),
    notifyShopWebhooks(ref, 'order_status_changed'),
    notifyClub(ref, statusId),
    startOrderMailSequences(ref, statusId),
    scheduleAutomaticStatuses(ref),
    ...(patched('order-invoice-correction') ? [correctOrderInvoice(ref, statusId)] : []),
  ]);
}

import { patched } from '@temporalio/workflow';
import { statusSource } from '../../domain/shop/effects.ts';
import type { ChangeOrderStatusInput } from './contracts.ts';
import { withdrawShopCourseAccess } from './steps/course-access.ts';
import { correctOrderInvoice } from './steps/correct-order-invoice.ts';
import type { OrderRef } from './steps/run-effect.ts';
import { scheduleAutomaticStatuses } from './steps/schedule-automatic-statuses.ts';
import { statusEffects } from './steps/status-effects.ts';
import { stopOrderSubscriptions } from './steps/stop-order-subscriptions.ts';

export type { ChangeOrderStatusInput };

/**
 * Order: any -> the status set through `PATCH /orders/:id/status`, with the panel's side effects,
 * each its own activity recorded in the effect log: the status's own effects (steps/status-effects.ts,
 * webhooks of `order_status_changed`), the course access withdrawn and the subscriptions stopped at
 * a canceled or returned status, the automatic statuses after it, and the correction of the
 * invoice of an order canceled or returned (issue 39 item 3; histories from before it replay without).
 */
export async function changeOrderStatus({ shopId, orderId, changeId, statusId }: ChangeOrderStatusInput): Promise<void> {
  const ref: OrderRef = { shopId, orderId, source: statusSource(changeId) };
  await Promise.all([
    ...statusEffects(ref, statusId, 'order_status_changed', () => [withdrawShopCourseAccess(ref, statusId), stopOrderSubscriptions(ref, statusId)]),
    scheduleAutomaticStatuses(ref),
    ...(patched('order-invoice-correction') ? [correctOrderInvoice(ref, statusId)] : []),
  ]);
}

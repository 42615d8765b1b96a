import { sleep } from '@temporalio/workflow';
import { automaticStatusWorkflowId, orderStatusWorkflowId } from '../../domain/shop/workflow-ids.ts';
import { db } from '../shared/activity-proxies.ts';
import { startChildOnce } from '../shared/start-child-once.ts';
import { changeOrderStatus } from './change-order-status.ts';
import { fulfilZeroTotalOrder } from './fulfil-zero-total.ts';
import type { OrderRef } from './order-effects.ts';
import type { AutomaticStatusSource } from '../../domain/shop/automatic-status.ts';

export interface AutomaticOrderStatusInput {
  shopId: string;
  orderId: number;
  fromStatusId: number;
  /** The change that put the order at `fromStatusId` when the timer was planned (null: none recorded). */
  expectedChangeId: number | null;
  toStatusId: number;
  /** ISO instant the status is due. */
  dueAt: string;
}

/**
 * Order at status A -> status B after B's `automatically_set` offset (docs/decisions.md). Sleeps
 * until the due instant it was given (so tests pass instants milliseconds away), then sets B only
 * when the order is still at A by the same change; a status change in between makes the timer
 * obsolete, and it ends without a change. The change then runs exactly like one made through the
 * API: its own `changeOrderStatus` workflow with the same effects (mail, webhooks, ...).
 */
export async function automaticOrderStatus(input: AutomaticOrderStatusInput): Promise<{ changeId: number | null }> {
  // Workflow time is deterministic (recorded in history).
  const wait = Date.parse(input.dueAt) - Date.now();
  if (wait > 0) await sleep(wait);
  const { shopId, orderId, toStatusId } = input;
  const applied = await db.applyAutomaticStatus({ shopId, orderId, toStatusId, fromStatusId: input.fromStatusId, expectedChangeId: input.expectedChangeId });
  if (!applied) return { changeId: null };
  const { changeId } = applied;
  await startChildOnce(changeOrderStatus, {
    workflowId: orderStatusWorkflowId({ shopId, orderId, changeId }),
    args: [{ shopId, orderId, changeId, statusId: toStatusId }],
    workflowIdReusePolicy: 'REJECT_DUPLICATE',
  });
  return { changeId };
}

/**
 * The automatic statuses due after the order reached its status by `ref.source` (the clearing or a
 * status change): one timer workflow per target status, `shop/<s>/order/<o>/auto-status/<source>/to/<B>`,
 * outliving the transition's workflow; a repeated transition workflow starts none twice.
 */
export async function scheduleAutomaticStatuses(ref: Omit<OrderRef, 'source'> & { source: AutomaticStatusSource }): Promise<void> {
  const planned = await db.planAutomaticStatuses(ref);
  await Promise.all(
    planned.map((p) =>
      startChildOnce(automaticOrderStatus, {
        workflowId: automaticStatusWorkflowId({ shopId: ref.shopId, orderId: ref.orderId, source: ref.source, toStatusId: p.toStatusId }),
        args: [{ shopId: ref.shopId, orderId: ref.orderId, ...p }],
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
      }),
    ),
  );
}

/**
 * A placed order (at New): the statuses set automatically after New, and a zero-total order's
 * fulfilment (workflows/shop/fulfil-zero-total.ts). Started by the placement; its timers and
 * access orders are children. Id `shop/<s>/order/<o>/placed`.
 */
export async function orderPlaced(p: { shopId: string; orderId: number }): Promise<void> {
  await Promise.all([scheduleAutomaticStatuses({ ...p, source: 'placed' }), fulfilZeroTotalOrder({ ...p, source: 'placed' })]);
}

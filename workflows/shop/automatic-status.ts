import { sleep } from '@temporalio/workflow';
import { orderStatusWorkflowId } from '../../domain/shop/workflow-ids.ts';
import { startChildOnce } from '../shared/start-child-once.ts';
import type { AutomaticOrderStatusInput } from './contracts.ts';
import type { AutomaticStatusActivities } from '../../activities/shop/automatic-status.ts';
import { activitiesOf } from '../shared/activities-of.ts';
import { DB_STEP } from '../shared/activity-profiles.ts';

const automaticStatuses = activitiesOf<AutomaticStatusActivities>(DB_STEP);

export type { AutomaticOrderStatusInput };

/**
 * Order at status A -> status B after B's `automatically_set` offset (docs/decisions/). Sleeps
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
  const applied = await automaticStatuses.applyAutomaticStatus({ shopId, orderId, toStatusId, fromStatusId: input.fromStatusId, expectedChangeId: input.expectedChangeId });
  if (!applied) return { changeId: null };
  const { changeId } = applied;
  await startChildOnce('changeOrderStatus', {
    workflowId: orderStatusWorkflowId({ shopId, orderId, changeId }),
    args: [{ shopId, orderId, changeId, statusId: toStatusId }],
    workflowIdReusePolicy: 'REJECT_DUPLICATE',
  });
  return { changeId };
}

import type { PlannedAutomaticStatus } from '../../../activities/shop/automatic-status.ts';
import type { AutomaticStatusSource } from '../../../domain/shop/automatic-status.ts';
import { automaticStatusWorkflowId } from '../../../domain/shop/workflow-ids.ts';
import { startChildOnce } from '../../shared/start-child-once.ts';
import { activitySteps, type EffectSteps, type OrderRef } from './run-effect.ts';
import type { AutomaticStatusActivities } from '../../../activities/shop/automatic-status.ts';
import { activitiesOf } from '../../shared/activities-of.ts';

/**
 * The automatic statuses due after the order reached its status by `ref.source` (the clearing or a
 * status change): one timer workflow per target status, `shop/<s>/order/<o>/auto-status/<source>/to/<B>`,
 * outliving the transition's workflow; a repeated transition workflow starts none twice.
 */
export async function scheduleAutomaticStatuses(ref: Omit<OrderRef, 'source'> & { source: AutomaticStatusSource }, steps: EffectSteps = activitySteps): Promise<void> {
  await startAutomaticStatuses(ref, await activitiesOf<AutomaticStatusActivities>(steps.dbStep).planAutomaticStatuses(ref));
}

/** The timer workflows of the planned automatic statuses, each once. */
export async function startAutomaticStatuses(ref: Omit<OrderRef, 'source'> & { source: AutomaticStatusSource }, planned: readonly PlannedAutomaticStatus[]): Promise<void> {
  await Promise.all(
    planned.map((p) =>
      startChildOnce('automaticOrderStatus', {
        workflowId: automaticStatusWorkflowId({ shopId: ref.shopId, orderId: ref.orderId, source: ref.source, toStatusId: p.toStatusId }),
        args: [{ shopId: ref.shopId, orderId: ref.orderId, ...p }],
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
      }),
    ),
  );
}

import type { CourseAccessStep } from '../../../activities/shop/course-access.ts';
import { orderWorkflowId } from '../../../domain/shared/workflow-ids.ts';
import { startChildOnce } from '../../shared/start-child-once.ts';
import { activitySteps, runEffect, type EffectSteps, type OrderRef } from './run-effect.ts';
import type { OrderEffectActivities } from '../../../activities/shop/order-effects.ts';
import type { ShopCourseAccessActivities } from '../../../activities/shop/course-access.ts';
import { activitiesOf } from '../../shared/activities-of.ts';
import { ORDER_EFFECT } from '../../shared/activity-profiles.ts';

const shopCourseAccess = activitiesOf<ShopCourseAccessActivities>(ORDER_EFFECT);

/**
 * The `course_access` effect (issue 14): the activity registers or cancels the access order on the
 * shop's linked platform; the access workflow it names (the same fulfilOrder and cancelOrder that
 * `POST /api/orders` and `DELETE /api/orders/:id` start, under the same one-shot ids) is started
 * here, as a child of the shop's workflow, before the outcome is recorded.
 */
async function courseAccessEffect(ref: OrderRef, step: () => Promise<CourseAccessStep>, steps: EffectSteps): Promise<void> {
  await runEffect(ref, 'course_access', async () => {
    const { outcome, ...workflows } = await step();
    await startAccessWorkflows(workflows);
    await activitiesOf<OrderEffectActivities>(steps.dbStep).recordOrderEffect({ ...ref, effect: 'course_access', outcome });
    return outcome;
  }, steps);
}

/** The access workflow a course access step names, once under its one-shot id. */
export async function startAccessWorkflows({ fulfil, cancel }: Omit<CourseAccessStep, 'outcome'>): Promise<void> {
  if (fulfil) {
    await startChildOnce('fulfilOrder', { workflowId: orderWorkflowId({ ...fulfil, step: 'fulfil' }), args: [fulfil], workflowIdReusePolicy: 'REJECT_DUPLICATE' });
  }
  if (cancel) {
    await startChildOnce('cancelOrder', { workflowId: orderWorkflowId({ ...cancel, step: 'cancel' }), args: [cancel], workflowIdReusePolicy: 'REJECT_DUPLICATE' });
  }
}

/** Clearing: the order's courses granted on the linked platform. */
export function grantShopCourseAccess(ref: OrderRef, steps: EffectSteps = activitySteps): Promise<void> {
  return courseAccessEffect(ref, () => activitiesOf<ShopCourseAccessActivities>(steps.orderEffect).registerCourseAccessOrder(ref), steps);
}

/** A status change: a canceled or returned order's access order cancelled. */
export function withdrawShopCourseAccess(ref: OrderRef, statusId: number): Promise<void> {
  return courseAccessEffect(ref, () => shopCourseAccess.cancelCourseAccessOrder({ ...ref, statusId }), activitySteps);
}

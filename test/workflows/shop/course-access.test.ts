import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/activity';
import { afterEach, describe, expect, it } from 'vitest';
import type { Activities } from '../../../activities/index.ts';
import type { CourseAccessStep } from '../../../activities/shop/course-access.ts';
import { orderWorkflowId } from '../../../domain/shared/workflow-ids.ts';
import type { EffectOutcome } from '../../../domain/shop/effects.ts';
import type { changeOrderStatus, clearOrder } from '../../../workflows/index.ts';
import { useFakeWorker } from '../../helpers/fake-worker.ts';
import { quietClearing } from '../../../scripts/histories/quiet-clearing.ts';
import { uniqueTaskQueue } from '../../helpers/stack.ts';

/**
 * The `course_access` effect in the order workflows, with fake activities: the access workflow the
 * activity names is started as a child of the shop's workflow under the access order's one-shot
 * id (the id `POST /api/orders` and `DELETE /api/orders/:id` use), then the outcome is recorded.
 * The children themselves run here against missing activities and are terminated by the test.
 */
const taskQueue = uniqueTaskQueue('shop-course-access-wf');
const recorded: { effect: string; outcome: EffectOutcome; source: string }[] = [];
let nextRegistration: () => CourseAccessStep = () => ({ outcome: { status: 'skipped', detail: 'no product of this order sells courses' } });
let nextCancellation: () => CourseAccessStep = () => ({ outcome: { status: 'skipped', detail: 'this status does not withdraw course access' } });

// The other effects of the same workflows have nothing to do here.
const fakeActivities: Partial<Activities> = {
  ...quietClearing,
  async registerCourseAccessOrder() {
    return nextRegistration();
  },
  async cancelCourseAccessOrder() {
    return nextCancellation();
  },
  async recordOrderEffect({ effect, outcome, source }) {
    recorded.push({ effect, outcome, source });
  },
};
const temporal = useFakeWorker(taskQueue, fakeActivities);
const children: string[] = [];
afterEach(async () => {
  await Promise.all(children.splice(0).map((id) => temporal.client().workflow.getHandle(id).terminate('test done').catch(() => undefined)));
  recorded.length = 0;
});

const courseAccessRows = () => recorded.filter((r) => r.effect === 'course_access');

describe('clearOrder', () => {
  it('starts fulfilOrder as its child under the access order\'s id, then records the outcome', async () => {
    const platformId = randomUUID();
    const orderId = randomUUID();
    const fulfil = { platformId, orderId, email: 'buyer@example.com', courses: [{ courseId: randomUUID(), accessLevel: 1 as const }], seq: 1 };
    nextRegistration = () => ({ outcome: { status: 'done', detail: `access order ${orderId}` }, fulfil });
    const clearId = `test/${randomUUID()}`;
    await temporal.client().workflow.execute<typeof clearOrder>('clearOrder', { taskQueue, workflowId: clearId, args: [{ shopId: 's1', orderId: 7 }] });

    expect(courseAccessRows()).toEqual([{ effect: 'course_access', source: 'clear', outcome: { status: 'done', detail: `access order ${orderId}` } }]);
    const childId = orderWorkflowId({ platformId, orderId, step: 'fulfil' });
    children.push(childId);
    const child = await temporal.client().workflow.getHandle(childId).describe();
    expect(child.type).toBe('fulfilOrder');
    expect(child.parentExecution?.workflowId).toBe(clearId);
  });

  it('starts no child when there is nothing to grant, and records the skip', async () => {
    nextRegistration = () => ({ outcome: { status: 'skipped', detail: 'the shop is not linked to a course platform' } });
    await temporal.client().workflow.execute<typeof clearOrder>('clearOrder', { taskQueue, workflowId: `test/${randomUUID()}`, args: [{ shopId: 's1', orderId: 8 }] });
    expect(courseAccessRows()).toEqual([{ effect: 'course_access', source: 'clear', outcome: { status: 'skipped', detail: 'the shop is not linked to a course platform' } }]);
  });

  it('records a registration that gives up as failed, without failing the clearing', async () => {
    nextRegistration = () => {
      throw ApplicationFailure.nonRetryable('order 9 not found', 'OrderNotFound');
    };
    await temporal.client().workflow.execute<typeof clearOrder>('clearOrder', { taskQueue, workflowId: `test/${randomUUID()}`, args: [{ shopId: 's1', orderId: 9 }] });
    expect(courseAccessRows()).toEqual([{ effect: 'course_access', source: 'clear', outcome: { status: 'failed', detail: 'order 9 not found' } }]);
  });
});

describe('changeOrderStatus', () => {
  it('starts cancelOrder as its child under the access order\'s cancel id at a canceled or returned status', async () => {
    const platformId = randomUUID();
    const orderId = randomUUID();
    nextCancellation = () => ({ outcome: { status: 'done', detail: `access order ${orderId} cancelled` }, cancel: { platformId, orderId } });
    const statusId = `test/${randomUUID()}`;
    await temporal
      .client()
      .workflow.execute<typeof changeOrderStatus>('changeOrderStatus', { taskQueue, workflowId: statusId, args: [{ shopId: 's1', orderId: 7, changeId: 5, statusId: 4 }] });

    expect(courseAccessRows()).toEqual([{ effect: 'course_access', source: 'status:5', outcome: { status: 'done', detail: `access order ${orderId} cancelled` } }]);
    const childId = orderWorkflowId({ platformId, orderId, step: 'cancel' });
    children.push(childId);
    const child = await temporal.client().workflow.getHandle(childId).describe();
    expect(child.type).toBe('cancelOrder');
    expect(child.parentExecution?.workflowId).toBe(statusId);
  });
});

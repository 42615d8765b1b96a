import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Activities } from '../../../activities/index.ts';
import type { AttemptResult } from '../../../activities/webhooks/delivery.ts';
import { webhookDeliveryWorkflowId } from '../../../domain/shared/workflow-ids.ts';
import type { deliverWebhook, revokeCourseAccess } from '../../../workflows/index.ts';
import { useFakeWorker } from '../../helpers/fake-worker.ts';
import { eventually, uniqueTaskQueue } from '../../helpers/stack.ts';

/** The dispatch step and the delivery workflow on the real server, with activities replaced by fakes. */
const taskQueue = uniqueTaskQueue('webhook-wf');
const platformId = `p-${randomUUID()}`;
const opened: string[] = [];
const attempts = new Map<string, number>();
const scripted = new Map<string, AttemptResult[]>();

const fakeActivities: Partial<Activities> = {
  async withdrawCourseAccess() {
    return { outcome: 'applied', accessLevel: null, events: [{ id: 'event-1', type: 'access_revoked', payload: {}, occurredAt: '2026-01-01T00:00:00.000Z' }] };
  },
  async webhookTargets({ types }) {
    expect(types).toEqual(['access_revoked']);
    return [
      { webhookId: 'hook-a', events: ['access_revoked', 'access_granted'] },
      { webhookId: 'hook-b', events: ['access_revoked'] },
      { webhookId: 'hook-c', events: ['access_granted'] },
    ];
  },
  async openWebhookDelivery({ webhookId, eventId }) {
    opened.push(`${webhookId}/${eventId}`);
    return { deliveryId: `${webhookId}/${eventId}` };
  },
  async attemptWebhookDelivery({ deliveryId }) {
    attempts.set(deliveryId, (attempts.get(deliveryId) ?? 0) + 1);
    return scripted.get(deliveryId)?.shift() ?? { status: 'succeeded', statusCode: 200, nextAttemptInMs: null };
  },
};

const temporal = useFakeWorker(taskQueue, fakeActivities);

const revoke = () =>
  temporal.client().workflow.execute<typeof revokeCourseAccess>('revokeCourseAccess', { taskQueue, workflowId: `test/${randomUUID()}`, args: [{ platformId, courseId: 'c1', email: 'a@example.com', seq: 1 }] });

describe('dispatchEvents', () => {
  it('starts one delivery per (event, subscribed webhook), once, even when the same events are dispatched again', async () => {
    const result = await revoke();
    expect(result.events.map((e) => e.id)).toEqual(['event-1']);
    await revoke();
    const ids = ['hook-a', 'hook-b'].map((webhookId) => webhookDeliveryWorkflowId({ platformId, webhookId, eventId: 'event-1' }));
    for (const id of ids) expect(await temporal.client().workflow.getHandle(id).result()).toMatchObject({ status: 'succeeded' });
    await eventually(async () => expect([...opened].sort()).toEqual(['hook-a/event-1', 'hook-b/event-1']));
    expect(opened.some((o) => o.startsWith('hook-c'))).toBe(false);
  });
});

describe('deliverWebhook', () => {
  it('sleeps the wait each attempt asks for and stops when the delivery is over', async () => {
    const deliveryId = 'hook-x/event-retry';
    scripted.set(deliveryId, [
      { status: 'pending', statusCode: 500, nextAttemptInMs: 50 },
      { status: 'pending', statusCode: null, nextAttemptInMs: 50 },
      { status: 'failed', statusCode: 500, nextAttemptInMs: null },
    ]);
    const result = await temporal.client().workflow.execute<typeof deliverWebhook>('deliverWebhook', {
      taskQueue,
      workflowId: `test/${randomUUID()}`,
      args: [{ platformId, webhookId: 'hook-x', eventId: 'event-retry' }],
    });
    expect(result).toEqual({ deliveryId, status: 'failed' });
    expect(attempts.get(deliveryId)).toBe(3);
  });
});

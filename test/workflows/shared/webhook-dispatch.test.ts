import { randomUUID } from 'node:crypto';
import { WorkflowNotFoundError } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import type { Activities } from '../../../activities/index.ts';
import type { AttemptResult } from '../../../activities/webhooks/delivery.ts';
import { webhookDeliveryWorkflowId } from '../../../domain/shared/workflow-ids.ts';
import type { deliverWebhook, revokeCourseAccess } from '../../../workflows/index.ts';
import { useFakeWorker } from '../../helpers/fake-worker.ts';
import { uniqueTaskQueue } from '../../helpers/stack.ts';
import { commandsOf } from '../../helpers/workflow-commands.ts';

/** The dispatch step and the delivery workflow on the real server, with activities replaced by fakes. */
const taskQueue = uniqueTaskQueue('webhook-wf');
const platformId = `p-${randomUUID()}`;
const opened: string[] = [];
const attempts = new Map<string, number>();
const scripted = new Map<string, AttemptResult[]>();

const fakeActivities: Partial<Activities> = {
  async withdrawCourseAccess() {
    return { outcome: 'applied', accessLevel: null, events: [{ id: 'event-1', type: 'access_revoked', occurredAt: '2026-01-01T00:00:00.000Z' }] };
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
    return attemptFake(deliveryId);
  },
  async openAndAttemptWebhookDelivery({ webhookId, eventId }) {
    const deliveryId = `${webhookId}/${eventId}`;
    opened.push(deliveryId);
    return { deliveryId, ...attemptFake(deliveryId) };
  },
};

/** Deliveries over: an attempt on one answers from the record and sends nothing (activities/webhooks/attempt.ts). */
const over = new Set<string>();
function attemptFake(deliveryId: string): AttemptResult {
  if (over.has(deliveryId)) return { status: 'succeeded', statusCode: null, nextAttemptInMs: null };
  attempts.set(deliveryId, (attempts.get(deliveryId) ?? 0) + 1);
  const result = scripted.get(deliveryId)?.shift() ?? { status: 'succeeded', statusCode: 200, nextAttemptInMs: null };
  if (result.nextAttemptInMs === null) over.add(deliveryId);
  return result;
}

const temporal = useFakeWorker(taskQueue, fakeActivities);

const revoke = () =>
  temporal.client().workflow.execute<typeof revokeCourseAccess>('revokeCourseAccess', { taskQueue, workflowId: `test/${randomUUID()}`, args: [{ platformId, courseId: 'c1', email: 'a@example.com', seq: 1 }] });

describe('dispatchEvents', () => {
  it('attempts each (event, subscribed webhook) first itself; only a delivery to retry starts its workflow; a repeat delivers nothing twice', async () => {
    // hook-b answers the first attempt with a 500: its retry is its delivery workflow's.
    scripted.set('hook-b/event-1', [{ status: 'pending', statusCode: 500, nextAttemptInMs: 40 }]);
    const result = await revoke();
    expect(result.events.map((e) => e.id)).toEqual(['event-1']);
    const [a, b] = ['hook-a', 'hook-b'].map((webhookId) => temporal.client().workflow.getHandle(webhookDeliveryWorkflowId({ platformId, webhookId, eventId: 'event-1' })));
    await expect(a!.describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);
    expect(await b!.result()).toEqual({ deliveryId: 'hook-b/event-1', status: 'succeeded' });
    expect(await commandsOf(b!)).toEqual(['timer 40', 'activity attemptWebhookDelivery']);
    expect([...opened].sort()).toEqual(['hook-a/event-1', 'hook-b/event-1']);
    expect(opened.some((o) => o.startsWith('hook-c'))).toBe(false);

    await revoke();
    expect(attempts.get('hook-a/event-1')).toBe(1);
    expect(attempts.get('hook-b/event-1')).toBe(2);
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

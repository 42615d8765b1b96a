import { randomUUID } from 'node:crypto';
import { WorkflowFailedError, WorkflowNotFoundError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { temporal as proto } from '@temporalio/proto';
import { describe, expect, it } from 'vitest';
import type { Activities } from '../../../activities/index.ts';
import type { AttemptResult } from '../../../activities/webhooks/delivery.ts';
import type { EffectOutcome } from '../../../domain/shop/effects.ts';
import { clubWebhookWorkflowId, shopWebhookDeliveryWorkflowId } from '../../../domain/shop/workflow-ids.ts';
import type { changeOrderStatus, clearOrder, deliverShopWebhook, redeliverShopWebhook } from '../../../workflows/index.ts';
import { useFakeWorker } from '../../helpers/fake-worker.ts';
import { commandsOf } from '../../helpers/workflow-commands.ts';
import { onTaskQueue, workflowsSettled } from '../../helpers/workflows-settled.ts';
import { uniqueTaskQueue } from '../../helpers/stack.ts';

/** The shop webhook effect and its delivery workflow on the real server, with fake activities. */
const taskQueue = uniqueTaskQueue('shop-webhook-wf');
const shopId = `s-${randomUUID()}`;
const recorded: { effect: string; target?: string; outcome: EffectOutcome; source: string; provisional?: boolean }[] = [];
/** The deliveries whose outcome the delivery workflow recorded, in order, with the manual flag of their attempts. */
const outcomes: string[] = [];
const manualAttempts: string[] = [];
const opened: { webhookId: string; source: string; type: string; eventId: string; occurredAt: string }[] = [];
const attempts = new Map<string, number>();
const scripted = new Map<string, AttemptResult[]>();
const ok = (detail: string): EffectOutcome => ({ status: 'done', detail });
const unreachableOnce = new Set<string>();
/** The orders of each status mail sent (not the local step's question whether there is one). */
const statusMails: number[] = [];

/** Deliveries over: an attempt on one answers from the record and sends nothing (activities/webhooks/attempt.ts). */
const over = new Set<string>();

/** One attempt as scripted (delivered when nothing is); the attempt that ends a delivery records its outcome when asked to. */
function attemptFake(deliveryId: string, manual: boolean | undefined, recordOutcome: boolean | undefined): AttemptResult {
  if (over.has(deliveryId) && !manual) return { status: 'succeeded', statusCode: null, nextAttemptInMs: null };
  attempts.set(deliveryId, (attempts.get(deliveryId) ?? 0) + 1);
  if (manual) manualAttempts.push(deliveryId);
  const result = scripted.get(deliveryId)?.shift() ?? { status: 'succeeded', statusCode: 200, nextAttemptInMs: null };
  if (result.nextAttemptInMs === null) over.add(deliveryId);
  if (recordOutcome && result.nextAttemptInMs === null) outcomes.push(deliveryId);
  return result;
}

/** The course access effect of the same workflows (issue 14), with nothing to do here. */
const courseAccessFakes = {
  registerCourseAccessOrder: async () => ({ outcome: { status: 'skipped' as const, detail: 'no course products' } }),
  cancelCourseAccessOrder: async () => ({ outcome: { status: 'skipped' as const, detail: 'no course products' } }),
};

const fakeActivities: Partial<Activities> = {
  issueInvoice: async () => ok('FV/2026/1'),
  createDownloadCodes: async () => ok('none'),
  async sendAnalyticsPurchase({ orderId, localFirst }) {
    // Order 23's analytics tool refuses the purchase for good.
    if (orderId !== 23) return ok('sent');
    if (localFirst) return { handOn: true };
    throw ApplicationFailure.nonRetryable('GA4 answered 400', 'IntegrationRefused');
  },
  tagCustomer: async () => ok('customer'),
  async sendStatusMail({ orderId, localFirst }) {
    if (localFirst) return { handOn: true };
    statusMails.push(orderId);
    // Order 21's relay is down at the first call: the mail's own retried activity sends it.
    if (orderId === 21 && statusMails.filter((o) => o === 21).length === 1) throw ApplicationFailure.retryable('the relay is down', 'MailDeliveryFailed');
    return ok('sent');
  },
  ...courseAccessFakes,
  // Orders 21 and 22 hold a club product: the step opens the club webhook's delivery.
  openClubWebhookDelivery: async ({ orderId }) => ([21, 22].includes(orderId) ? { deliveryId: `club/${orderId}`, host: 'club.example.com', statusId: 2 } : { skipped: 'no club integration' }),
  async attemptClubWebhookDelivery({ deliveryId, manual }) {
    return attemptFake(deliveryId, manual, false);
  },
  async recordClubWebhookOutcome({ deliveryId }) {
    outcomes.push(deliveryId);
    return { status: 'done', detail: `${deliveryId} delivered` };
  },
  async shopWebhookTargets({ type }) {
    // hook-a takes both events, hook-b only clearings; order 99 has none.
    return type === 'order_cleared'
      ? [
          { webhookId: 'hook-a', host: 'a.example.com' },
          { webhookId: 'hook-b', host: 'b.example.com' },
        ]
      : [{ webhookId: 'hook-a', host: 'a.example.com' }];
  },
  async openShopWebhookDelivery(input) {
    opened.push(input);
    return { deliveryId: `${input.webhookId}/${input.orderId}/${input.source}` };
  },
  async attemptShopWebhookDelivery({ deliveryId, manual, recordOutcome }) {
    // Order 23's first attempt at hook-b cannot be made (the database went away).
    if (deliveryId === 'hook-b/23/clear' && !unreachableOnce.has(deliveryId)) {
      unreachableOnce.add(deliveryId);
      throw new Error('connection terminated');
    }
    return attemptFake(deliveryId, manual, recordOutcome);
  },
  async openAndAttemptShopWebhookDelivery(input) {
    // Order 13 is gone: a refusal no retry changes.
    if (input.orderId === 13) throw ApplicationFailure.nonRetryable('order 13 not found', 'OrderNotFound');
    opened.push(input);
    const deliveryId = `${input.webhookId}/${input.orderId}/${input.source}`;
    return { deliveryId, ...attemptFake(deliveryId, false, true) };
  },
  async recordOrderEffect({ effect, outcome, source, target, provisional }) {
    recorded.push({ effect, outcome, source, target, provisional });
  },
  async recordShopWebhookOutcome({ deliveryId }) {
    outcomes.push(deliveryId);
    return { status: 'done', detail: `${deliveryId} delivered` };
  },
  // No automatic status follows (test/workflows/shop/automatic-status.test.ts has them).
  async planAutomaticStatuses() {
    return [];
  },
};

// Mail sequences (workflows/shop/mail-sequence.ts): no sequence starts in these tests.
Object.assign(fakeActivities, { orderMailSequences: async () => ({ email: 'buyer@example.com', statusId: 0, sequenceIds: [] }) });
// Subscriptions (workflows/shop/subscription-effect.ts): no order here holds an automatic-plan product.
Object.assign(fakeActivities, { activateSubscriptions: async () => ({ outcome: { status: 'skipped', detail: 'no product of an automatic subscription plan' }, subscriberIds: [], endedIds: [] }) });
// Status changes that stop no subscription (issue 22; test/e2e/shop/order-lifecycle.test.ts has a cancellation).
Object.assign(fakeActivities, { stopOrderSubscriptions: async () => ({ outcome: null, endedIds: [] }), correctOrderInvoice: async () => null });
const temporal = useFakeWorker(taskQueue, fakeActivities);
const clear = async (orderId: number, workflowId = `test/${randomUUID()}`) =>
  temporal.client().workflow.execute<typeof clearOrder>('clearOrder', { taskQueue, workflowId, args: [{ shopId, orderId }] });

const deliveryWorkflow = (webhookId: string, orderId: number, source: 'clear' | 'clear:paid' | `status:${number}`) =>
  temporal.client().workflow.getHandle(shopWebhookDeliveryWorkflowId({ shopId, webhookId, orderId, source }));

describe('the webhook effect of clearOrder', () => {
  it('attempts each subscribed webhook itself first; only a delivery that needs a retry starts its workflow; a repeat doubles nothing', async () => {
    // hook-b answers the first attempt with a 500: its retry is its delivery workflow's.
    scripted.set('hook-b/7/clear', [{ status: 'pending', statusCode: 500, nextAttemptInMs: 50 }]);
    await clear(7);
    expect(shopWebhookDeliveryWorkflowId({ shopId, webhookId: 'hook-a', orderId: 7, source: 'clear' })).toBe(`shop/${shopId}/webhook/hook-a/order/7/clear`);
    // hook-a took the first attempt: no workflow of its own; its outcome recorded by that attempt.
    await expect(deliveryWorkflow('hook-a', 7, 'clear').describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);
    expect(await deliveryWorkflow('hook-b', 7, 'clear').result()).toMatchObject({ status: 'succeeded' });
    expect(attempts.get('hook-a/7/clear')).toBe(1);
    expect(attempts.get('hook-b/7/clear')).toBe(2);
    // Its delivery workflow waited what the first attempt asked for before its own.
    expect(await commandsOf(deliveryWorkflow('hook-b', 7, 'clear'))).toEqual(['timer 50', 'activity attemptShopWebhookDelivery']);
    expect(outcomes.filter((d) => d.endsWith('/7/clear')).sort()).toEqual(['hook-a/7/clear', 'hook-b/7/clear']);
    // The step opened both "under way" (provisional: never over an outcome recorded first); the attempt that ended each recorded its outcome (above).
    const effects = recorded.filter((r) => r.effect === 'webhook' && r.source === 'clear');
    expect(effects.map((e) => e.target).sort()).toEqual(['hook-a', 'hook-b']);
    expect(effects.every((e) => e.outcome.status === 'done' && e.outcome.detail.endsWith('under way') && e.provisional === true)).toBe(true);
    expect(effects.find((e) => e.target === 'hook-b')!.outcome.detail).toContain('b.example.com');

    const first = opened.filter((o) => o.source === 'clear');
    expect(first).toHaveLength(2);
    // One event: the same id and time for every webhook it goes to.
    expect(new Set(first.map((o) => o.eventId)).size).toBe(1);
    expect(new Set(first.map((o) => o.occurredAt)).size).toBe(1);
    expect(first[0]!.type).toBe('order_cleared');
    // The Paid status the clearing set: order_status_changed under its own source (issue 22), delivered by its first attempt.
    expect(shopWebhookDeliveryWorkflowId({ shopId, webhookId: 'hook-a', orderId: 7, source: 'clear:paid' })).toBe(`shop/${shopId}/webhook/hook-a/order/7/clear/paid`);
    expect(opened.filter((o) => o.source === 'clear:paid').map((o) => [o.webhookId, o.type])).toEqual([['hook-a', 'order_status_changed']]);
    expect(outcomes).toContain('hook-a/7/clear:paid');

    // The same transition dispatched again (a repeated or replayed run): every delivery is over, nothing is sent again.
    await clear(7);
    // The repeated run is over; so is every workflow it could have started (all on this file's queue).
    await workflowsSettled(temporal.client(), onTaskQueue(taskQueue));
    expect(attempts.get('hook-a/7/clear')).toBe(1);
    expect(attempts.get('hook-b/7/clear')).toBe(2);
    expect(attempts.get('hook-a/7/clear:paid')).toBe(1);
  });
});

describe("a clearing's calls to the outside world", () => {
  it('are one local activity in the clearing\'s one workflow task: every first attempt and the status mail side by side, no workflow for a delivery answered at once', async () => {
    const workflowId = `test/${randomUUID()}`;
    await clear(22, workflowId);
    // The step and the outside calls, each a local activity: hook-a (both events), hook-b and the club webhook delivered at their first attempts.
    expect(await commandsOf(temporal.client().workflow.getHandle(workflowId))).toEqual(['local activity', 'local activity']);
    const { events } = await temporal.client().workflow.getHandle(workflowId).fetchHistory();
    const count = (type: proto.api.enums.v1.EventType) => (events ?? []).filter((e) => e.eventType === type).length;
    expect(count(proto.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED)).toBe(1);
    expect(count(proto.api.enums.v1.EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED)).toBe(0);
    expect(['hook-a/22/clear', 'hook-b/22/clear', 'hook-a/22/clear:paid', 'club/22'].map((d) => attempts.get(d))).toEqual([1, 1, 1, 1]);
    expect(outcomes).toEqual(expect.arrayContaining(['hook-a/22/clear', 'hook-b/22/clear', 'hook-a/22/clear:paid', 'club/22']));
    expect(statusMails.filter((o) => o === 22)).toEqual([22]);
    await expect(temporal.client().workflow.getHandle(clubWebhookWorkflowId({ shopId, orderId: 22, statusId: 2 })).describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);
  });

  it('hand on what the local activity could not finish: the status mail to its own retried activity, the club webhook to its delivery workflow after the wait its first attempt asked for', async () => {
    scripted.set('club/21', [{ status: 'pending', statusCode: 503, nextAttemptInMs: 40 }]);
    const workflowId = `test/${randomUUID()}`;
    await clear(21, workflowId);
    const club = temporal.client().workflow.getHandle(clubWebhookWorkflowId({ shopId, orderId: 21, statusId: 2 }));
    expect(await club.result()).toEqual({ deliveryId: 'club/21', status: 'succeeded' });
    expect(await commandsOf(club)).toEqual(['timer 40', 'activity attemptClubWebhookDelivery', 'activity recordClubWebhookOutcome']);
    expect(attempts.get('club/21')).toBe(2);
    expect(await commandsOf(temporal.client().workflow.getHandle(workflowId))).toEqual(['local activity', 'local activity', 'activity sendStatusMail', `child deliverClubWebhook ${clubWebhookWorkflowId({ shopId, orderId: 21, statusId: 2 })}`]);
    // The relay's failure was retried by the mail's own activity, which sent it.
    expect(statusMails.filter((o) => o === 21)).toEqual([21, 21]);
    expect(recorded.filter((r) => r.effect === 'status_mail')).toEqual([]);
  });
});

describe("a clearing's outside calls meeting failures", () => {
  it('records a refusal no retry changes as failed, and hands a delivery whose first attempt could not be made to its workflow, which makes it', async () => {
    const workflowId = `test/${randomUUID()}`;
    await clear(23, workflowId);
    expect(recorded.filter((r) => r.effect === 'analytics_purchase')).toEqual([{ effect: 'analytics_purchase', source: 'clear', outcome: { status: 'failed', detail: 'GA4 answered 400' }, target: undefined, provisional: undefined }]);
    const delivery = deliveryWorkflow('hook-b', 23, 'clear');
    expect(await commandsOf(temporal.client().workflow.getHandle(workflowId))).toEqual(['local activity', 'local activity', `child deliverShopWebhook ${shopWebhookDeliveryWorkflowId({ shopId, webhookId: 'hook-b', orderId: 23, source: 'clear' })}`]);
    expect(await delivery.result()).toEqual({ deliveryId: 'hook-b/23/clear', status: 'succeeded' });
    // No wait: the first attempt is the delivery workflow's own.
    expect(await commandsOf(delivery)).toEqual(['activity attemptShopWebhookDelivery']);
    expect(attempts.get('hook-b/23/clear')).toBe(1);
    expect(outcomes).toContain('hook-b/23/clear');
  });
});

describe('the webhook effect of changeOrderStatus', () => {
  it("notifies the webhooks subscribed to order_status_changed under the change's own source, by its own first attempt", async () => {
    await temporal.client().workflow.execute<typeof changeOrderStatus>('changeOrderStatus', {
      taskQueue,
      workflowId: `test/${randomUUID()}`,
      args: [{ shopId, orderId: 8, changeId: 42, statusId: 3 }],
    });
    expect(shopWebhookDeliveryWorkflowId({ shopId, webhookId: 'hook-a', orderId: 8, source: 'status:42' })).toBe(`shop/${shopId}/webhook/hook-a/order/8/status/42`);
    expect(opened.filter((o) => o.source === 'status:42').map((o) => [o.webhookId, o.type])).toEqual([['hook-a', 'order_status_changed']]);
    expect(outcomes).toContain('hook-a/8/status:42');
    await expect(deliveryWorkflow('hook-a', 8, 'status:42').describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);
    // Delivered at once: no "under way" line; the attempt recorded the outcome.
    expect(recorded.filter((r) => r.effect === 'webhook' && r.source === 'status:42')).toEqual([]);
  });
});

describe('deliverShopWebhook', () => {
  it('runs the platform\'s attempt loop: sleeps the wait each attempt asks for and stops when the delivery is over', async () => {
    const deliveryId = 'hook-x/9/clear';
    scripted.set(deliveryId, [
      { status: 'pending', statusCode: 500, nextAttemptInMs: 50 },
      { status: 'pending', statusCode: null, nextAttemptInMs: 50 },
      { status: 'failed', statusCode: null, nextAttemptInMs: null },
    ]);
    const result = await temporal.client().workflow.execute<typeof deliverShopWebhook>('deliverShopWebhook', {
      taskQueue,
      workflowId: `test/${randomUUID()}`,
      args: [{ shopId, orderId: 9, source: 'clear', webhookId: 'hook-x', type: 'order_cleared', eventId: randomUUID(), occurredAt: new Date().toISOString() }],
    });
    expect(result).toEqual({ deliveryId, status: 'failed' });
    expect(attempts.get(deliveryId)).toBe(3);
    // Once it is over, the order's effect says what happened.
    expect(outcomes.filter((d) => d === deliveryId)).toHaveLength(1);
  });
});

describe('an inline first attempt refused for good', () => {
  it('fails only the delivery\'s own workflow, never the status change that raised the event', async () => {
    const change = await temporal.client().workflow.execute<typeof changeOrderStatus>('changeOrderStatus', {
      taskQueue,
      workflowId: `test/${randomUUID()}`,
      args: [{ shopId, orderId: 13, changeId: 43, statusId: 3 }],
    });
    expect(change).toBeUndefined();
    const delivery = deliveryWorkflow('hook-a', 13, 'status:43');
    await expect(delivery.result()).rejects.toBeInstanceOf(WorkflowFailedError);
  });
});

describe('deliverShopWebhook after the raising workflow\'s first attempt', () => {
  it('waits the wait that attempt asked for and attempts until the delivery is over, opening nothing', async () => {
    const deliveryId = 'hook-z/12/clear';
    scripted.set(deliveryId, [{ status: 'pending', statusCode: 503, nextAttemptInMs: 40 }]);
    const workflowId = `test/${randomUUID()}`;
    const input = { shopId, orderId: 12, source: 'clear' as const, webhookId: 'hook-z', type: 'order_cleared' as const, eventId: randomUUID(), occurredAt: new Date().toISOString(), deliveryId, nextAttemptInMs: 30 };
    const result = await temporal.client().workflow.execute<typeof deliverShopWebhook>('deliverShopWebhook', { taskQueue, workflowId, args: [input] });
    expect(result).toEqual({ deliveryId, status: 'succeeded' });
    expect(attempts.get(deliveryId)).toBe(2);
    expect(opened.filter((o) => o.eventId === input.eventId)).toEqual([]);
    expect(await commandsOf(temporal.client().workflow.getHandle(workflowId))).toEqual(['timer 30', 'activity attemptShopWebhookDelivery', 'timer 40', 'activity attemptShopWebhookDelivery']);
    expect(outcomes.filter((d) => d === deliveryId)).toHaveLength(1);
  });
});

describe('deliverShopWebhook answered at once', () => {
  it('opens the delivery, attempts and records the outcome in one activity: no local step, one activity task', async () => {
    const workflowId = `test/${randomUUID()}`;
    const input = { shopId, orderId: 11, source: 'clear' as const, webhookId: 'hook-y', type: 'order_cleared' as const, eventId: randomUUID(), occurredAt: new Date().toISOString() };
    const result = await temporal.client().workflow.execute<typeof deliverShopWebhook>('deliverShopWebhook', { taskQueue, workflowId, args: [input] });
    expect(result).toEqual({ deliveryId: 'hook-y/11/clear', status: 'succeeded' });
    expect(opened.filter((o) => o.eventId === input.eventId)).toHaveLength(1);
    expect(outcomes.filter((d) => d === 'hook-y/11/clear')).toHaveLength(1);
    const { events } = await temporal.client().workflow.getHandle(workflowId).fetchHistory();
    const count = (type: proto.api.enums.v1.EventType) => (events ?? []).filter((e) => e.eventType === type).length;
    expect(count(proto.api.enums.v1.EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED)).toBe(1);
    expect(count(proto.api.enums.v1.EventType.EVENT_TYPE_MARKER_RECORDED)).toBe(1); // the patch marker: no local step
    expect(count(proto.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED)).toBe(2);
  });
});

describe('redeliverShopWebhook', () => {
  it('makes one manual attempt, never retried, then records the outcome', async () => {
    const deliveryId = 'hook-x/10/clear';
    scripted.set(deliveryId, [{ status: 'failed', statusCode: 500, nextAttemptInMs: null }]);
    const result = await temporal.client().workflow.execute<typeof redeliverShopWebhook>('redeliverShopWebhook', {
      taskQueue,
      workflowId: `test/${randomUUID()}`,
      args: [{ shopId, deliveryId }],
    });
    expect(result).toEqual({ deliveryId, status: 'failed' });
    expect(attempts.get(deliveryId)).toBe(1);
    expect(manualAttempts.filter((d) => d === deliveryId)).toHaveLength(1);
    expect(outcomes.filter((d) => d === deliveryId)).toHaveLength(1);
  });
});

import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/activity';
import { describe, expect, it } from 'vitest';
import type { Activities } from '../../../activities/index.ts';
import type { OpenClubDeliveryInput } from '../../../activities/shop/club-webhook.ts';
import type { AttemptResult } from '../../../activities/webhooks/delivery.ts';
import type { EffectOutcome } from '../../../domain/shop/effects.ts';
import { clubWebhookWorkflowId } from '../../../domain/shop/workflow-ids.ts';
import type { changeOrderStatus, clearOrder, deliverClubWebhook } from '../../../workflows/index.ts';
import { useFakeWorker } from '../../helpers/fake-worker.ts';
import { quietClearing } from '../../../scripts/histories/quiet-clearing.ts';
import { onTaskQueue, workflowsSettled } from '../../helpers/workflows-settled.ts';
import { eventually, uniqueTaskQueue } from '../../helpers/stack.ts';

/** The club_webhook effect of the order workflows and its delivery workflow, with fake activities. */
const taskQueue = uniqueTaskQueue('shop-club-wf');
const shopId = `s-${randomUUID()}`;
const CLUB_STATUS = 5;
const recorded: { effect: string; target?: string; outcome: EffectOutcome; source: string; orderId: number }[] = [];
const opened: OpenClubDeliveryInput[] = [];
const attempts = new Map<string, number>();
const scripted = new Map<string, AttemptResult[]>();
/** Deliveries whose outcome was recorded, with the attempts made by then. */
const settled: { deliveryId: string; attemptsBefore: number }[] = [];

const fakeActivities: Partial<Activities> = {
  ...quietClearing,
  /**
   * The club is at status 5 (the Paid status too, which clearing reaches: statusId null); order 404
   * is gone. Like the real activity, the delivery of (order, status) is made once: a later
   * transition to the same status is skipped, a repeat of the same transition finds its own.
   */
  async openClubWebhookDelivery(input) {
    opened.push(input);
    if (input.orderId === 404) throw ApplicationFailure.nonRetryable('order 404 not found', 'OrderNotFound');
    const statusId = input.statusId ?? CLUB_STATUS;
    if (statusId !== CLUB_STATUS) return { skipped: `the club webhook goes at order status ${CLUB_STATUS}, not ${statusId}` };
    const first = opened.find((o) => o.orderId === input.orderId && (o.statusId ?? CLUB_STATUS) === statusId)!;
    if (first.source !== input.source) return { skipped: `sent once per order and status: already at ${first.source}` };
    return { deliveryId: `club/${input.orderId}/${statusId}`, host: 'club.example.com', statusId };
  },
  async attemptClubWebhookDelivery({ deliveryId }) {
    attempts.set(deliveryId, (attempts.get(deliveryId) ?? 0) + 1);
    return scripted.get(deliveryId)?.shift() ?? { status: 'succeeded', statusCode: 200, nextAttemptInMs: null };
  },
  async recordClubWebhookOutcome({ deliveryId }) {
    settled.push({ deliveryId, attemptsBefore: attempts.get(deliveryId) ?? 0 });
    return { status: 'done', detail: 'fake' };
  },
  async recordOrderEffect({ effect, outcome, source, target, orderId }) {
    recorded.push({ effect, outcome, source, target, orderId });
  },
};
const temporal = useFakeWorker(taskQueue, fakeActivities);
const changeStatus = (orderId: number, changeId: number, statusId: number) =>
  temporal.client().workflow.execute<typeof changeOrderStatus>('changeOrderStatus', { taskQueue, workflowId: `test/${randomUUID()}`, args: [{ shopId, orderId, changeId, statusId }] });
const clubEffects = (orderId: number) => recorded.filter((r) => r.effect === 'club_webhook' && r.orderId === orderId);

describe('the club_webhook effect of changeOrderStatus', () => {
  it('at the club status: starts one delivery workflow per order and status, recorded done with the host', async () => {
    await changeStatus(1, 10, CLUB_STATUS);
    const id = clubWebhookWorkflowId({ shopId, orderId: 1, statusId: CLUB_STATUS });
    expect(id).toBe(`shop/${shopId}/order/1/club-webhook/at-status/${CLUB_STATUS}`);
    expect(await temporal.client().workflow.getHandle(id).result()).toEqual({ deliveryId: `club/1/${CLUB_STATUS}`, status: 'succeeded' });
    expect(opened.filter((o) => o.orderId === 1)).toEqual([expect.objectContaining({ shopId, source: 'status:10', statusId: CLUB_STATUS, eventId: expect.any(String) })]);
    expect(clubEffects(1)).toEqual([expect.objectContaining({ source: 'status:10', outcome: { status: 'done', detail: 'club webhook to club.example.com under way' } })]);
  });

  it('the same transition again (a repeated or replayed run) sends nothing twice', async () => {
    await changeStatus(1, 10, CLUB_STATUS);
    // The repeated run is over; so is every workflow it could have started (all on this file's queue).
    await workflowsSettled(temporal.client(), onTaskQueue(taskQueue));
    expect(attempts.get(`club/1/${CLUB_STATUS}`)).toBe(1);
  });

  it('the order reaching the club status again by another change is skipped: once per order and status', async () => {
    await changeStatus(1, 11, 6);
    await changeStatus(1, 12, CLUB_STATUS);
    expect(clubEffects(1).filter((e) => e.source !== 'status:10')).toEqual([
      expect.objectContaining({ source: 'status:11', outcome: expect.objectContaining({ status: 'skipped', detail: expect.stringContaining('not 6') }) }),
      expect.objectContaining({ source: 'status:12', outcome: { status: 'skipped', detail: 'sent once per order and status: already at status:10' } }),
    ]);
    expect(attempts.get(`club/1/${CLUB_STATUS}`)).toBe(1);
  });

  it('an order that cannot be read records club_webhook as failed and the transition still ends', async () => {
    await changeStatus(404, 13, CLUB_STATUS);
    expect(clubEffects(404)).toEqual([expect.objectContaining({ outcome: { status: 'failed', detail: 'order 404 not found' } })]);
  });
});

describe('the club_webhook effect of clearOrder', () => {
  it('clearing reaches the Paid status (statusId null: the activity resolves it) and sends the club webhook', async () => {
    await temporal.client().workflow.execute<typeof clearOrder>('clearOrder', { taskQueue, workflowId: `test/${randomUUID()}`, args: [{ shopId, orderId: 2 }] });
    expect(opened.filter((o) => o.orderId === 2)).toEqual([expect.objectContaining({ source: 'clear', statusId: null })]);
    await eventually(async () => expect(attempts.get(`club/2/${CLUB_STATUS}`)).toBe(1));
    expect(clubEffects(2)).toEqual([expect.objectContaining({ source: 'clear', outcome: expect.objectContaining({ status: 'done' }) })]);
  });
});

describe('deliverClubWebhook', () => {
  it('runs the platform\'s attempt loop: waits as each attempt asks and stops when the delivery is over', async () => {
    const deliveryId = 'club/9/5';
    scripted.set(deliveryId, [
      { status: 'pending', statusCode: 503, nextAttemptInMs: 50 },
      { status: 'pending', statusCode: null, nextAttemptInMs: 50 },
      { status: 'succeeded', statusCode: 200, nextAttemptInMs: null },
    ]);
    const result = await temporal.client().workflow.execute<typeof deliverClubWebhook>('deliverClubWebhook', { taskQueue, workflowId: `test/${randomUUID()}`, args: [{ shopId, deliveryId }] });
    expect(result).toEqual({ deliveryId, status: 'succeeded' });
    expect(attempts.get(deliveryId)).toBe(3);
    // The effect log learns what happened once, after the last attempt.
    expect(settled.filter((s) => s.deliveryId === deliveryId)).toEqual([{ deliveryId, attemptsBefore: 3 }]);
  });
});

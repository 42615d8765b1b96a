import { WorkflowNotFoundError } from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Activities } from '../../../activities/index.ts';
import type { ErasureRef } from '../../../activities/shared/personal-data.ts';
import { webhookDeliveryWorkflowId } from '../../../domain/shared/workflow-ids.ts';
import { customerErasedDeliveryWorkflowId, subscriberWorkflowId } from '../../../domain/shop/workflow-ids.ts';
import type { deliverCustomerErased, erasePersonalData } from '../../../workflows/index.ts';
import { useFakeWorker } from '../../helpers/fake-worker.ts';
import { uniqueTaskQueue } from '../../helpers/stack.ts';
import { commandsOf, starter } from '../../helpers/workflow-commands.ts';

/**
 * One person's erasure and the shop's `customer_erased` delivery with fake activities (issue 42
 * item 6; the real steps: test/e2e/access/participant-data.test.ts and
 * test/e2e/shop/customer-data.test.ts). Steps in the registry's
 * order; the integrators told only when the run changed something; a run not completed (a request
 * came meanwhile) goes round again.
 */
const taskQueue = uniqueTaskQueue('personal-data-erasure-wf');
const platformId = `p-${randomUUID()}`;
const shopId = `s-${randomUUID()}`;
const calls: string[] = [];
/** Rows each kind changes per erasure id (nothing left: 0). */
const changes: Record<string, Record<string, number>> = {
  first: { enrolments: 2, participant: 1 },
  repeat: { enrolments: 0, participant: 0 },
  shop: { orders: 3, subscribers: 1 },
  racing: { orders: 1, subscribers: 0 },
};
const kindsOf = (ref: ErasureRef) => Object.keys(changes[ref.erasureId]!);

const fakeActivities: Partial<Activities> = {
  async beginErasure(ref) {
    calls.push(`beginErasure ${ref.erasureId}`);
    return { generation: calls.filter((c) => c === `beginErasure ${ref.erasureId}`).length, kinds: kindsOf(ref) };
  },
  async erasePersonalDataKind({ erasureId, kind }) {
    calls.push(`erase ${erasureId} ${kind}`);
    return changes[erasureId]![kind]!;
  },
  async erasedSubscriberIds() {
    return [41];
  },
  async recordParticipantErased({ erasureId, generation }) {
    return [{ id: `erased-${erasureId}-${generation}`, type: 'participant_erased', payload: {}, occurredAt: '2026-01-01T00:00:00.000Z' }];
  },
  webhookTargets: async () => [{ webhookId: 'hook-p', events: ['participant_erased'] }],
  openWebhookDelivery: async ({ webhookId, eventId }) => ({ deliveryId: `${webhookId}/${eventId}` }),
  attemptWebhookDelivery: async () => ({ status: 'succeeded', statusCode: 200, nextAttemptInMs: null }),
  async openAndAttemptWebhookDelivery({ webhookId, eventId }) {
    calls.push(`delivered ${webhookId}/${eventId}`);
    return { deliveryId: `${webhookId}/${eventId}`, status: 'succeeded', statusCode: 200, nextAttemptInMs: null };
  },
  shopWebhookTargets: async () => [{ webhookId: 'hook-s', host: 's.example.com' }],
  async openCustomerErasedDelivery({ webhookId, erasureId, generation }) {
    calls.push(`openCustomerErasedDelivery ${webhookId} ${erasureId} ${generation}`);
    return { deliveryId: `${webhookId}/${erasureId}/${generation}` };
  },
  async attemptShopWebhookDelivery({ deliveryId }) {
    calls.push(`attempt ${deliveryId}`);
    return calls.filter((c) => c === `attempt ${deliveryId}`).length === 1
      ? { status: 'pending', statusCode: 503, nextAttemptInMs: 100 }
      : { status: 'succeeded', statusCode: 200, nextAttemptInMs: null };
  },
  async completeErasure({ erasureId, generation }) {
    calls.push(`completeErasure ${erasureId} ${generation}`);
    // `racing`: a request came during the first run (the generation rose), so it is not completed yet.
    const completed = !(erasureId === 'racing' && generation === 1);
    return { completed, counts: completed ? { ...changes[erasureId] } : {} };
  },
};

const temporal = useFakeWorker(taskQueue, fakeActivities);
const run = starter(temporal.client, taskQueue);
const erase = (ref: ErasureRef) => run<typeof erasePersonalData>('erasePersonalData', [ref]);

describe('erasePersonalData', () => {
  it("a participant: each kind in order, then participant_erased to the platform's webhooks, then completes with the counts", async () => {
    const handle = await erase({ tenant: 'platform', tenantId: platformId, erasureId: 'first' });
    expect(await handle.result()).toEqual({ counts: { enrolments: 2, participant: 1 } });
    const delivery = webhookDeliveryWorkflowId({ platformId, webhookId: 'hook-p', eventId: 'erased-first-1' });
    expect(await commandsOf(handle)).toEqual([
      'activity beginErasure',
      'activity erasePersonalDataKind',
      'activity erasePersonalDataKind',
      'activity recordParticipantErased',
      'activity webhookTargets',
      'activity openAndAttemptWebhookDelivery',
      'activity completeErasure',
    ]);
    expect(calls.filter((c) => c.includes(' first'))).toEqual(['beginErasure first', 'erase first enrolments', 'erase first participant', 'completeErasure first 1']);
    // Delivered by its first attempt, the erasure's own: no delivery workflow.
    expect(calls).toContain('delivered hook-p/erased-first-1');
    await expect(temporal.client().workflow.getHandle(delivery).describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);
  });

  it('a run that changes nothing tells no one', async () => {
    const handle = await erase({ tenant: 'platform', tenantId: platformId, erasureId: 'repeat' });
    expect(await handle.result()).toEqual({ counts: { enrolments: 0, participant: 0 } });
    expect(await commandsOf(handle)).toEqual(['activity beginErasure', 'activity erasePersonalDataKind', 'activity erasePersonalDataKind', 'activity completeErasure']);
  });

  it("a shop customer: each kind, the subscribers' renewals woken, customer_erased to each shop webhook, then completes", async () => {
    const handle = await erase({ tenant: 'shop', tenantId: shopId, erasureId: 'shop' });
    expect(await handle.result()).toEqual({ counts: { orders: 3, subscribers: 1 } });
    const delivery = customerErasedDeliveryWorkflowId({ shopId, webhookId: 'hook-s', erasureId: 'shop', generation: 1 });
    expect(await commandsOf(handle)).toEqual([
      'activity beginErasure',
      'activity erasePersonalDataKind',
      'activity erasePersonalDataKind',
      'activity erasedSubscriberIds',
      `signal subscriberItemsChanged ${subscriberWorkflowId({ shopId, subscriberId: 41 })}`,
      'activity shopWebhookTargets',
      `child deliverCustomerErased ${delivery}`,
      'activity completeErasure',
    ]);
    expect(await temporal.client().workflow.getHandle(delivery).result()).toEqual({ deliveryId: 'hook-s/shop/1', status: 'succeeded' });
  });

  it('a run not completed (a request came meanwhile) goes round again, and tells the webhooks of each round that changed something', async () => {
    const handle = await erase({ tenant: 'shop', tenantId: shopId, erasureId: 'racing' });
    expect(await handle.result()).toEqual({ counts: { orders: 1, subscribers: 0 } });
    expect(calls.filter((c) => c.includes('racing') && !c.startsWith('attempt') && !c.startsWith('open'))).toEqual([
      'beginErasure racing',
      'erase racing orders',
      'erase racing subscribers',
      'completeErasure racing 1',
      'beginErasure racing',
      'erase racing orders',
      'erase racing subscribers',
      'completeErasure racing 2',
    ]);
    const children = (await commandsOf(handle)).filter((c) => c.startsWith('child'));
    expect(children).toEqual([1, 2].map((generation) => `child deliverCustomerErased ${customerErasedDeliveryWorkflowId({ shopId, webhookId: 'hook-s', erasureId: 'racing', generation })}`));
  });
});

describe('deliverCustomerErased', () => {
  it('opens the delivery once, then attempts until it is over, waiting as each attempt asks', async () => {
    const handle = await run<typeof deliverCustomerErased>('deliverCustomerErased', [
      { tenant: 'shop', tenantId: shopId, erasureId: 'direct', webhookId: 'hook-d', generation: 3, eventId: 'e1', occurredAt: '2026-01-01T00:00:00.000Z' },
    ]);
    expect(await handle.result()).toEqual({ deliveryId: 'hook-d/direct/3', status: 'succeeded' });
    expect(await commandsOf(handle)).toEqual(['activity openCustomerErasedDelivery', 'activity attemptShopWebhookDelivery', 'timer 100', 'activity attemptShopWebhookDelivery']);
    expect(calls.filter((c) => c.includes('direct'))).toEqual(['openCustomerErasedDelivery hook-d direct 3', 'attempt hook-d/direct/3', 'attempt hook-d/direct/3']);
  });
});

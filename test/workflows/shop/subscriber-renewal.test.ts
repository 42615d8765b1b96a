import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Activities } from '../../../activities/index.ts';
import type { SubscriptionActivation } from '../../../activities/shop/subscriber-renewal.ts';
import { REMINDER_KINDS } from '../../../domain/shop/subscription-periods.ts';
import { clearOrderWorkflowId, orderPlacedWorkflowId, subscriberWorkflowId } from '../../../domain/shop/workflow-ids.ts';
import type { clearOrder, subscriberRenewal } from '../../../workflows/index.ts';
import {
  subscriberPausedSignal,
  subscriberPeriodMovedSignal,
  subscriberResumedSignal,
  subscriberStateQuery,
} from '../../../workflows/shop/subscription-signals.ts';
import { fakeSubscribers } from '../../../scripts/histories/fake-subscribers.ts';
import { bundleWorkflows } from '../../../worker/create-worker.ts';
import { quietClearing } from '../../../scripts/histories/quiet-clearing.ts';
import { connectTemporal, eventually, startTestWorker, uniqueTaskQueue, type RunningWorker } from '../../helpers/stack.ts';

/**
 * The renewal workflow with fake activities over an in-memory subscriber (scripts/histories/fake-subscribers.ts,
 * the history recorder's too), on the real server with
 * periods of seconds (no time skipping here, docs/decisions/): the fake is the database the
 * workflow reads through `loadRenewalSchedule`, and the test changes it before signalling, as
 * the API does. Load-proof (issue 28): a step the test must see before the next one has seconds
 * of room or waits behind an instant an hour away that the test moves itself; "not charged" is
 * read from the run's history and state, never from a quiet pause; outcomes are polled with
 * deadlines of a minute or more (upper bounds only); times are checked as lower bounds.
 */
const subscribers = fakeSubscribers();
const sub = subscribers.get;

// The renewal orders' clearing runs as a child (workflows/shop/clear-order.ts); its effects have nothing to do here.
// An unpaid renewal order's placing (workflows/shop/order-placed.ts) likewise.
const fakeActivities: Partial<Activities> = {
  ...subscribers.activities,
  ...quietClearing,
  activateSubscriptions: async () => nextActivation(),
  placingFacts: async () => ({ newStatusId: 1, needsNoClearing: false }),
};
let nextActivation = (): SubscriptionActivation => ({ outcome: { status: 'skipped', detail: 'a renewal order' }, subscriberIds: [], endedIds: [] });

const newSubscriber = (over: Parameters<typeof subscribers.add>[0]) => subscribers.add(over);

const HOUR = 3_600_000;
const SLOW = { timeoutMs: 90_000 };
const what = (id: number) => sub(id).events.map((e) => e.what);
const count = (id: number, name: string) => what(id).filter((w) => w === name).length;

const taskQueue = uniqueTaskQueue('shop-subscriber-renewal-wf');
const shopId = randomUUID();
let client: Client;
let worker: RunningWorker;
const started: string[] = [];

beforeAll(async () => {
  client = await connectTemporal();
  worker = await startTestWorker({ taskQueue, activities: fakeActivities });
});
afterAll(async () => {
  // The renewal orders' clearings (children with no fake activities here) end with the file.
  const clearings = [...subscribers.all.values()].flatMap((s) => [...s.renewed.keys()].map((chargeId) => clearOrderWorkflowId({ shopId, orderId: 1000 + chargeId })));
  await Promise.all([...started, ...clearings].map((id) => client.workflow.getHandle(id).terminate('test over').catch(() => undefined)));
  await worker?.stop();
  await client?.connection.close();
});

/** The activities the run scheduled so far, by type, from its history (current run). */
async function scheduled(handle: Awaited<ReturnType<typeof start>>, type: string): Promise<number> {
  const history = await handle.fetchHistory();
  return (history.events ?? []).filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === type).length;
}

async function start(subscriberId: number, activated = true) {
  const workflowId = subscriberWorkflowId({ shopId, subscriberId });
  started.push(workflowId);
  return client.workflow.start<typeof subscriberRenewal>('subscriberRenewal', { taskQueue, workflowId, args: [{ shopId, subscriberId, activated }] });
}

// Independent subscribers: their periods run side by side.
describe('subscriberRenewal', { concurrent: true, timeout: 240_000 }, () => {
  it('runs twelve renewals with both reminders each period, then ends at the renewal limit', async () => {
    const id = newSubscriber({
      // Two seconds between the steps of a period: on a loaded machine each reminder still goes
      // before the later one is due (a reminder found late then is dropped, nextRenewalStep).
      intervalMs: 6000,
      // A longer first period: the worker's first task of the file may take a while.
      period: { start: Date.now(), end: Date.now() + 8000 },
      renewalsLimit: 12,
      reminders: [...REMINDER_KINDS],
      reminderOffsetsMs: { expires_in_one_week: 4000, expires_in_one_day: 2000 },
    });
    const handle = await start(id);
    await expect(handle.result()).resolves.toBe('ended');

    const s = sub(id);
    expect(s.renewalsDone).toBe(12);
    expect(count(id, 'renewed')).toBe(12);
    expect(count(id, 'charge 1 approved')).toBe(12);
    expect(count(id, 'mail activation')).toBe(1);
    expect(count(id, 'mail renewal')).toBe(12);
    expect(what(id).at(-1)).toBe('end ended');
    // Every charge at or after the end of the period it renews; a reminder of each period before it.
    for (const charge of s.charges.values()) expect(charge.at).toBeGreaterThanOrEqual(charge.periodEnd);
    // Every period's two reminders, one week then one day, before its charge (the last period: before its end).
    for (let period = 1; period <= 13; period += 1) {
      const events = s.events.filter((e) => e.periodId === period && !['mail renewal', 'mail activation', 'renewed'].includes(e.what));
      expect(events.map((e) => e.what), `period ${period}`).toEqual(['mail expires_in_one_week', 'mail expires_in_one_day', period === 13 ? 'end ended' : 'charge 1 approved']);
    }
    // One run per period: continued-as-new after each renewal.
    const description = await handle.describe();
    expect(description.runId).not.toBe(handle.firstExecutionRunId);
    // Each renewal order's clearing started once, as a child of the run that renewed.
    const firstClearing = await client.workflow.getHandle(clearOrderWorkflowId({ shopId, orderId: 1000 + [...s.renewed.keys()][0]! })).describe();
    expect(firstClearing).toMatchObject({ type: 'clearOrder', parentExecution: { workflowId: handle.workflowId } });
    await client.workflow.getHandle(firstClearing.workflowId).result();
  });

  it('sends the one-week reminder, then the one-day reminder, then charges at the end', async () => {
    // Ten seconds between the steps: each reminder is due long before the next step (a reminder
    // whose time passed when the later one is due is dropped, nextRenewalStep).
    const id = newSubscriber({
      // The renewed period lasts a second: the run ends with it, at the limit.
      intervalMs: 1000,
      period: { start: Date.now(), end: Date.now() + 30_000 },
      renewalsLimit: 1,
      reminders: [...REMINDER_KINDS],
      reminderOffsetsMs: { expires_in_one_week: 20_000, expires_in_one_day: 10_000 },
    });
    const { end } = sub(id).period;
    const handle = await start(id, false);
    await expect(handle.result()).resolves.toBe('ended');
    const first = sub(id).events.filter((e) => e.periodId === 1);
    expect(first.map((e) => e.what)).toEqual(['mail expires_in_one_week', 'mail expires_in_one_day', 'charge 1 approved']);
    expect(first[0]!.at).toBeGreaterThanOrEqual(end - 20_000);
    expect(first[1]!.at).toBeGreaterThanOrEqual(end - 10_000);
    expect(first[2]!.at).toBeGreaterThanOrEqual(end);
  });

  it('does not charge a paused subscriber, keeps its state, and charges once resumed', async () => {
    // The first period ends in an hour; the renewed one lasts a second (the run ends with it at the limit).
    const id = newSubscriber({ intervalMs: 1000, period: { start: Date.now(), end: Date.now() + HOUR }, renewalsLimit: 1 });
    const handle = await start(id, false);
    await eventually(async () => expect((await handle.query(subscriberStateQuery)).nextChargeAt).toBe(new Date(sub(id).period.end).toISOString()), SLOW);
    sub(id).paused = true;
    await handle.signal(subscriberPausedSignal);
    await eventually(async () => expect(await handle.query(subscriberStateQuery)).toMatchObject({ status: 'paused', nextChargeAt: null }), SLOW);
    // The period ends while paused (moved into the past, as the API does): due, yet not charged.
    sub(id).period.end = Date.now() - 1000;
    await handle.signal(subscriberPeriodMovedSignal, { activeUntil: new Date(sub(id).period.end).toISOString() });
    // Once the run has read the past end, it has also decided its next step with it (same workflow task).
    await eventually(
      async () => expect(await handle.query(subscriberStateQuery)).toMatchObject({ paused: true, nextChargeAt: null, renewalsDone: 0, periodEnd: new Date(sub(id).period.end).toISOString() }),
      SLOW,
    );
    expect(await scheduled(handle, 'chargeRenewal')).toBe(0);
    expect(what(id)).toEqual([]);

    sub(id).paused = false;
    await handle.signal(subscriberResumedSignal);
    await expect(handle.result()).resolves.toBe('ended');
    expect(what(id).filter((w) => !w.startsWith('mail'))).toEqual(['charge 1 approved', 'renewed', 'end ended']);
    expect(await handle.query(subscriberStateQuery)).toMatchObject({ paused: false, renewalsDone: 1, status: 'finished' });
  });

  it('moves the pending charge with the period end', async () => {
    const id = newSubscriber({ intervalMs: 1000, period: { start: Date.now(), end: Date.now() + HOUR }, renewalsLimit: 1 });
    const handle = await start(id, false);
    const original = sub(id).period.end;
    await eventually(async () => expect((await handle.query(subscriberStateQuery)).nextChargeAt).toBe(new Date(original).toISOString()), SLOW);

    const later = original + HOUR;
    sub(id).period.end = later;
    await handle.signal(subscriberPeriodMovedSignal, { activeUntil: new Date(later).toISOString() });
    await eventually(async () => expect((await handle.query(subscriberStateQuery)).nextChargeAt).toBe(new Date(later).toISOString()), SLOW);
    expect(what(id)).toEqual([]);

    // Moved to a second from now: only a charge that moved with it can come before the test's end.
    const soon = Date.now() + 1000;
    sub(id).period.end = soon;
    await handle.signal(subscriberPeriodMovedSignal, { activeUntil: new Date(soon).toISOString() });
    await expect(handle.result()).resolves.toBe('ended');
    expect(what(id).filter((w) => !w.startsWith('mail'))).toEqual(['charge 1 approved', 'renewed', 'end ended']);
    expect([...sub(id).charges.values()][0]!.at).toBeGreaterThanOrEqual(soon);
  });

  it('retries a declined charge on the dunning schedule with one notice, then expires with the expiration mail', async () => {
    // The last retry an hour after the end holds the run in dunning for the state check; then the
    // schedule (fake database) shortens it, and a signal makes the run read it again.
    const id = newSubscriber({ intervalMs: 300, gatewayAfter: 'decline', dunningMs: [1000, 2000, HOUR] });
    const handle = await start(id, false);
    const end = sub(id).period.end;
    await eventually(async () => expect(await handle.query(subscriberStateQuery)).toMatchObject({ status: 'dunning', failedAttempts: 3, nextChargeAt: new Date(end + HOUR).toISOString() }), SLOW);
    expect(what(id)).toEqual(['charge 1 declined', 'mail payment_failed', 'charge 2 declined', 'charge 3 declined']);

    sub(id).dunningMs = [1000, 2000, 3000];
    await handle.signal(subscriberPeriodMovedSignal, { activeUntil: new Date(end).toISOString() });
    await expect(handle.result()).resolves.toBe('expired');

    expect(what(id)).toEqual([
      'charge 1 declined',
      'mail payment_failed',
      'charge 2 declined',
      'charge 3 declined',
      'charge 4 declined',
      'end expired',
      'mail expired',
    ]);
    const attempts = [...sub(id).charges.values()].map((c) => c.at - end);
    [0, 1000, 2000, 3000].forEach((offset, i) => expect(attempts[i]).toBeGreaterThanOrEqual(offset));
    expect(await handle.query(subscriberStateQuery)).toMatchObject({ status: 'expired', failedAttempts: 4 });
  });

  it('without a gateway: places the renewal order once (its placing a child), sends no payment notice, and expires when it stays unpaid through the dunning days', async () => {
    const id = newSubscriber({ intervalMs: 300, gatewayAfter: 'none', dunningMs: [1000, 2000] });
    const handle = await start(id, false);
    await expect(handle.result()).resolves.toBe('expired');
    expect(what(id)).toEqual(['charge 1 unpaid', 'charge 2 unpaid', 'charge 3 unpaid', 'end expired', 'mail expired']);
    // One placing run for the one renewal order (every attempt asks; REJECT_DUPLICATE keeps one).
    const placed = orderPlacedWorkflowId({ shopId, orderId: subscribers.unpaidOrderId(id, 1) });
    started.push(placed);
    const history = await handle.fetchHistory();
    const children = (history.events ?? []).filter((e) => e.startChildWorkflowExecutionInitiatedEventAttributes?.workflowType?.name === 'orderPlaced');
    expect(children.map((e) => e.startChildWorkflowExecutionInitiatedEventAttributes?.workflowId)).toEqual([placed, placed, placed]);
    const runs: string[] = [];
    for await (const run of client.workflow.list({ query: `WorkflowId = "${placed}"` })) runs.push(run.runId);
    expect(runs).toHaveLength(1);
  });
});

// Stops the file's worker and changes the activation the clearings see: after the others.
describe('subscriberRenewal, alone', { timeout: 240_000 }, () => {
  it('continues on a new worker after the first one stops mid-way, and its history replays', async () => {
    const id = newSubscriber({ intervalMs: 1500, renewalsLimit: 4 });
    const handle = await start(id, false);
    await eventually(() => Promise.resolve(expect(count(id, 'renewed')).toBeGreaterThanOrEqual(1)), SLOW);
    await worker.stop();
    // No worker, no step: nothing moves even once the run has a step due (its timer fired, or an
    // activity was cut off by the stop: a workflow or activity task waits for a worker).
    const stoppedAt = count(id, 'renewed');
    await eventually(async () => {
      const { raw } = await handle.describe();
      expect(raw.pendingWorkflowTask || raw.pendingActivities?.length).toBeTruthy();
    }, SLOW);
    expect(count(id, 'renewed')).toBe(stoppedAt);
    worker = await startTestWorker({ taskQueue, activities: fakeActivities });

    await expect(handle.result()).resolves.toBe('ended');
    expect(count(id, 'renewed')).toBe(4);
    expect(count(id, 'charge 1 approved')).toBe(4);
    // The last run's history replays on fresh workflow code without a nondeterminism error.
    const history = await handle.fetchHistory();
    await Worker.runReplayHistory({ workflowBundle: await bundleWorkflows() }, history);
  });

  it('is started by the clearing\'s subscription effect (activation mail), and one ended by a superseding plan stops', async () => {
    const superseded = newSubscriber({ intervalMs: HOUR });
    const supersededRun = await start(superseded, false);
    await eventually(async () => expect((await supersededRun.query(subscriberStateQuery)).status).toBe('active'), SLOW);
    const activated = newSubscriber({ intervalMs: HOUR });
    started.push(subscriberWorkflowId({ shopId, subscriberId: activated }));
    nextActivation = () => {
      sub(superseded).status = 'ended';
      return { outcome: { status: 'done', detail: `subscriber ${activated}` }, subscriberIds: [activated], endedIds: [superseded] };
    };
    const clearingId = `test/${randomUUID()}`;
    try {
      await client.workflow.execute<typeof clearOrder>('clearOrder', { taskQueue, workflowId: clearingId, args: [{ shopId, orderId: 77 }] });
    } finally {
      nextActivation = () => ({ outcome: { status: 'skipped', detail: 'a renewal order' }, subscriberIds: [], endedIds: [] });
    }
    await expect(supersededRun.result()).resolves.toBe('ended');
    const child = client.workflow.getHandle(subscriberWorkflowId({ shopId, subscriberId: activated }));
    expect(await child.describe()).toMatchObject({ type: 'subscriberRenewal', parentExecution: { workflowId: clearingId } });
    await eventually(() => Promise.resolve(expect(what(activated)).toEqual(['mail activation'])), SLOW);
    expect(await child.query(subscriberStateQuery)).toMatchObject({ status: 'active', nextChargeAt: new Date(sub(activated).period.end).toISOString() });
  });
});

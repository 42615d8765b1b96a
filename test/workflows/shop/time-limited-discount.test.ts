import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Activities } from '../../../activities/index.ts';
import type { timeLimitedDiscount } from '../../../workflows/index.ts';
import {
  discountChangedSignal,
  discountPriceStateQuery,
  discountRemovedSignal,
  type DiscountSchedule,
} from '../../../workflows/shop/time-limited-discount-signals.ts';
import { useFakeWorker } from '../../helpers/fake-worker.ts';
import { eventually, uniqueTaskQueue } from '../../helpers/stack.ts';

/**
 * The price schedule of a time-limited price-history discount, with fake activities: apply at the
 * start, restore at the end, a change inside the window re-applies in one step (no full-price gap),
 * a removal restores and ends. Load-proof (issue 28): a window the test does not close itself ends
 * ten minutes away, so no busy CPU can make a timer fire before the step the test waits for; the
 * test waits for an outcome (polls up to 90 s, an upper bound only) and checks the order of the
 * steps, and only lower bounds of their times (a step never comes before its instant).
 */
const taskQueue = uniqueTaskQueue('shop-time-limited-discount-wf');
const calls: { step: 'apply' | 'restore' | 'reapply'; discountId: number; at: number }[] = [];
let failApplyOnce = false;
/** Far beyond any delay a loaded machine adds: a window end the test never waits for. */
const LATER = 10 * 60_000;
const SLOW = { timeoutMs: 90_000 };

const fakeActivities: Partial<Activities> = {
  async applyDiscountPrices({ discountId }) {
    if (failApplyOnce) {
      failApplyOnce = false;
      throw new Error('database hiccup');
    }
    calls.push({ step: 'apply', discountId, at: Date.now() });
    return 1;
  },
  async restoreDiscountPrices({ discountId }) {
    calls.push({ step: 'restore', discountId, at: Date.now() });
    return 1;
  },
  async reapplyDiscountPrices({ discountId }) {
    calls.push({ step: 'reapply', discountId, at: Date.now() });
    return 1;
  },
};

const temporal = useFakeWorker(taskQueue, fakeActivities);
// The first workflow task of a file loads the bundle: warm up once.
beforeAll(async () => {
  await temporal.client().workflow.execute<typeof timeLimitedDiscount>('timeLimitedDiscount', {
    taskQueue,
    workflowId: `test/${randomUUID()}/time-limited-discount/warm-up`,
    args: [{ shopId: 's1', discountId: 0, schedule: schedule(-2000, -1000) }],
  });
});

let nextId = 1;
const schedule = (startInMs: number, endInMs: number, revision = 1): DiscountSchedule => ({
  startDate: new Date(Date.now() + startInMs).toISOString(),
  endDate: new Date(Date.now() + endInMs).toISOString(),
  revision,
});

function start(s: DiscountSchedule) {
  const discountId = nextId++;
  return {
    discountId,
    handle: temporal.client().workflow.start<typeof timeLimitedDiscount>('timeLimitedDiscount', {
      taskQueue,
      workflowId: `test/${randomUUID()}/time-limited-discount/${discountId}`,
      args: [{ shopId: 's1', discountId, schedule: s }],
    }),
  };
}
const steps = (discountId: number) => calls.filter((c) => c.discountId === discountId).map((c) => c.step);
const stepsAt = (discountId: number) => calls.filter((c) => c.discountId === discountId);
/** The window closes a second from now (a newer revision: the workflow may re-apply before it restores). */
const endingSoon = (s: DiscountSchedule): DiscountSchedule => ({ ...s, endDate: new Date(Date.now() + 1000).toISOString(), revision: s.revision + 1 });
type Handle = Awaited<ReturnType<typeof start>['handle']>;
/** Closes the window of an applied discount and waits for the run to end: the last step is the restore, at or after the end. */
async function closeWindow(h: Handle, discountId: number, s: DiscountSchedule) {
  const closing = endingSoon(s);
  await h.signal(discountChangedSignal, closing);
  await h.result();
  // Before the new end the run re-applies the newer revision; on a machine slow enough to see the
  // signal after the end, it restores at once. Either way nothing follows the restore.
  expect(steps(discountId).at(-1)).toBe('restore');
  expect(steps(discountId).filter((step) => step === 'restore')).toHaveLength(1);
  expect(stepsAt(discountId).at(-1)!.at).toBeGreaterThanOrEqual(Date.parse(closing.endDate));
}

describe('timeLimitedDiscount', { timeout: 180_000 }, () => {
  it('applies the prices at the start and restores them at the end, then completes', async () => {
    const s = schedule(1000, LATER);
    const { discountId, handle } = start(s);
    const h = await handle;
    await eventually(async () => expect(steps(discountId)).toEqual(['apply']), SLOW);
    expect(stepsAt(discountId)[0]!.at).toBeGreaterThanOrEqual(Date.parse(s.startDate));
    expect((await h.query(discountPriceStateQuery)).appliedRevision).toBe(1);
    await closeWindow(h, discountId, s);
    expect(steps(discountId)[0]).toBe('apply');
  });

  it('does nothing for a window already over', async () => {
    const { discountId, handle } = start(schedule(-2000, -1000));
    await (await handle).result();
    expect(steps(discountId)).toEqual([]);
  });

  it('a change while applied re-applies in one step (never a bare restore in between); a moved end restores then', async () => {
    const { discountId, handle } = start(schedule(0, LATER));
    const h = await handle;
    await eventually(async () => expect(steps(discountId)).toEqual(['apply']), SLOW);
    const changed = schedule(-1, LATER, 2);
    await h.signal(discountChangedSignal, changed);
    await eventually(async () => expect(steps(discountId)).toEqual(['apply', 'reapply']), SLOW);
    expect((await h.query(discountPriceStateQuery)).appliedRevision).toBe(2);
    await closeWindow(h, discountId, changed);
    expect(steps(discountId).slice(0, 2)).toEqual(['apply', 'reapply']);
    expect(steps(discountId).slice(2, -1).every((step) => step === 'reapply')).toBe(true);
  });

  it('a start moved before it came changes nothing yet and applies at the new start', async () => {
    const { discountId, handle } = start(schedule(LATER, 2 * LATER));
    const h = await handle;
    const moved = schedule(1000, LATER, 2);
    await h.signal(discountChangedSignal, moved);
    // Without the move nothing would happen for ten minutes.
    await eventually(async () => expect(steps(discountId)).toEqual(['apply']), SLOW);
    expect(stepsAt(discountId)[0]!.at).toBeGreaterThanOrEqual(Date.parse(moved.startDate));
    await h.signal(discountRemovedSignal);
    await h.result();
    expect(steps(discountId)).toEqual(['apply', 'restore']);
  });

  it('ignores a late signal with an older revision', async () => {
    const current = schedule(0, LATER, 5);
    const { discountId, handle } = start(current);
    const h = await handle;
    await eventually(async () => expect(steps(discountId)).toEqual(['apply']), SLOW);
    // Taken, the older revision would restore and end the run (a type without price history).
    await h.signal(discountChangedSignal, { ...schedule(0, LATER, 4), priceHistory: false });
    // A query after a signal is answered once the signal was handled.
    expect(await h.query(discountPriceStateQuery)).toMatchObject({ schedule: current, appliedRevision: 5, removed: false });
    expect((await h.describe()).status.name).toBe('RUNNING');
    expect(steps(discountId)).toEqual(['apply']);
    await h.signal(discountRemovedSignal);
    await h.result();
    expect(steps(discountId)).toEqual(['apply', 'restore']);
  });

  it('a change to a type without price history restores what was applied and ends', async () => {
    const { discountId, handle } = start(schedule(0, LATER));
    const h = await handle;
    await eventually(async () => expect(steps(discountId)).toEqual(['apply']), SLOW);
    await h.signal(discountChangedSignal, { ...schedule(0, LATER, 2), priceHistory: false });
    await h.result();
    expect(steps(discountId)).toEqual(['apply', 'restore']);
  });

  it('a removal restores what was applied and ends at once', async () => {
    const { discountId, handle } = start(schedule(0, LATER));
    const h = await handle;
    await eventually(async () => expect(steps(discountId)).toEqual(['apply']), SLOW);
    await h.signal(discountRemovedSignal);
    await h.result();
    expect(steps(discountId)).toEqual(['apply', 'restore']);
  });

  it('a removal before the start applies nothing (restore is a safe no-op) and ends', async () => {
    const { discountId, handle } = start(schedule(LATER, 2 * LATER));
    const h = await handle;
    await h.signal(discountRemovedSignal);
    await h.result();
    expect(steps(discountId)).toEqual(['restore']);
  });

  it('a failed apply is retried, and the prices are still restored at the end', async () => {
    failApplyOnce = true;
    const s = schedule(0, LATER);
    const { discountId, handle } = start(s);
    const h = await handle;
    await eventually(async () => expect(steps(discountId)).toEqual(['apply']), SLOW);
    expect(failApplyOnce).toBe(false);
    await closeWindow(h, discountId, s);
  });
});

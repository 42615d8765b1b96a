import { randomUUID } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
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
 * The price schedule of a time-limited price-history discount, with fake activities and schedules
 * of a few hundred milliseconds (production: days): apply at the start, restore at the end, a
 * change inside the window re-applies in one step (no full-price gap), a removal restores and ends.
 */
const taskQueue = uniqueTaskQueue('shop-time-limited-discount-wf');
const calls: { step: 'apply' | 'restore' | 'reapply'; discountId: number; at: number }[] = [];
let failApplyOnce = false;

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
afterEach(() => {
  calls.length = 0;
});
// The first workflow task of a file loads the bundle: warm up once so the windows below measure the workflow, not the start.
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

describe('timeLimitedDiscount', () => {
  it('applies the prices at the start and restores them at the end, then completes', async () => {
    const s = schedule(1000, 2500);
    const { discountId, handle } = start(s);
    const h = await handle;
    await h.result();
    expect(steps(discountId)).toEqual(['apply', 'restore']);
    const [apply, restore] = calls.filter((c) => c.discountId === discountId);
    expect(apply!.at).toBeGreaterThanOrEqual(Date.parse(s.startDate));
    expect(restore!.at).toBeGreaterThanOrEqual(Date.parse(s.endDate));
  });

  it('does nothing for a window already over', async () => {
    const { discountId, handle } = start(schedule(-2000, -1000));
    await (await handle).result();
    expect(steps(discountId)).toEqual([]);
  });

  it('a change while applied re-applies in one step (never a bare restore in between); a moved end restores then', async () => {
    const { discountId, handle } = start(schedule(0, 60_000));
    const h = await handle;
    await eventually(async () => expect(steps(discountId)).toEqual(['apply']));
    const later = schedule(-1, 4000, 2);
    await h.signal(discountChangedSignal, later);
    await eventually(async () => expect(steps(discountId)).toEqual(['apply', 'reapply']));
    expect((await h.query(discountPriceStateQuery)).appliedRevision).toBe(2);
    await h.result();
    expect(steps(discountId)).toEqual(['apply', 'reapply', 'restore']);
    expect(calls.filter((c) => c.discountId === discountId).at(-1)!.at).toBeGreaterThanOrEqual(Date.parse(later.endDate));
  });

  it('a start moved before it came changes nothing yet and applies at the new start', async () => {
    const { discountId, handle } = start(schedule(10_000, 60_000));
    const h = await handle;
    const moved = schedule(1000, 2000, 2);
    await h.signal(discountChangedSignal, moved);
    await h.result();
    expect(steps(discountId)).toEqual(['apply', 'restore']);
    expect(calls.find((c) => c.discountId === discountId && c.step === 'apply')!.at).toBeGreaterThanOrEqual(Date.parse(moved.startDate));
  });

  it('ignores a late signal with an older revision', async () => {
    const { discountId, handle } = start(schedule(0, 3000, 5));
    const h = await handle;
    await eventually(async () => expect(steps(discountId)).toEqual(['apply']));
    await h.signal(discountChangedSignal, schedule(0, 60_000, 4));
    await h.result();
    expect(steps(discountId)).toEqual(['apply', 'restore']);
  });

  it('a change to a type without price history restores what was applied and ends', async () => {
    const { discountId, handle } = start(schedule(0, 60_000));
    const h = await handle;
    await eventually(async () => expect(steps(discountId)).toEqual(['apply']));
    await h.signal(discountChangedSignal, { ...schedule(0, 60_000, 2), priceHistory: false });
    await h.result();
    expect(steps(discountId)).toEqual(['apply', 'restore']);
  });

  it('a removal restores what was applied and ends at once', async () => {
    const { discountId, handle } = start(schedule(0, 60_000));
    const h = await handle;
    await eventually(async () => expect(steps(discountId)).toEqual(['apply']));
    await h.signal(discountRemovedSignal);
    await h.result();
    expect(steps(discountId)).toEqual(['apply', 'restore']);
  });

  it('a removal before the start applies nothing (restore is a safe no-op) and ends', async () => {
    const { discountId, handle } = start(schedule(60_000, 120_000));
    const h = await handle;
    await h.signal(discountRemovedSignal);
    await h.result();
    expect(steps(discountId)).toEqual(['restore']);
  });

  it('a failed apply is retried, and the prices are still restored at the end', async () => {
    failApplyOnce = true;
    const { discountId, handle } = start(schedule(0, 2500));
    await (await handle).result();
    expect(steps(discountId)).toEqual(['apply', 'restore']);
  });
});

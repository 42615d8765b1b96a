import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  intervalProblem,
  latestPeriod,
  MAX_INTERVAL_DAYS,
  periodEndProblem,
  planLinkProblems,
  renewalItemsProblems,
  renewalItemView,
  signalsFor,
  subscriberIsActive,
  supersededPlanProblem,
} from '../../../domain/shop/subscription-rules.ts';

const DAY = 86_400_000;

describe('intervalProblem', () => {
  it('accepts exactly the whole days from 1 to 36500', () => {
    fc.assert(
      fc.property(fc.integer({ min: -100_000, max: 100_000 }), (days) => {
        expect(intervalProblem(days) === null).toBe(days >= 1 && days <= MAX_INTERVAL_DAYS);
      }),
    );
    expect(intervalProblem(1.5)).not.toBeNull();
  });
});

describe('planLinkProblems', () => {
  it('names the interval, the renewal limit and a product linked twice by index', () => {
    expect(
      planLinkProblems([
        { product_id: 1, interval: 30, renewals_limit: 0 },
        { product_id: 2, interval: 0, renewals_limit: -1 },
        { product_id: 1, interval: 36_501, renewals_limit: 3 },
      ]).map((p) => p.field),
    ).toEqual(['products.1.interval', 'products.1.renewals_limit', 'products.2.product_id', 'products.2.interval']);
  });

  it('accepts the bounds: interval 1 and 36500, renewals_limit 0 (no limit)', () => {
    expect(planLinkProblems([{ product_id: 1, interval: 1, renewals_limit: 0 }, { product_id: 2, interval: 36_500, renewals_limit: 12 }])).toEqual([]);
  });
});

describe('supersededPlanProblem', () => {
  it('refuses the plan itself only', () => {
    expect(supersededPlanProblem(5, 5)).toMatch(/itself/);
    expect(supersededPlanProblem(5, 6)).toBeNull();
    expect(supersededPlanProblem(null, 6)).toBeNull();
    expect(supersededPlanProblem(5, null)).toBeNull();
  });
});

describe('renewalItemsProblems', () => {
  it('refuses an explicitly empty list', () => {
    expect(renewalItemsProblems([])).toEqual([{ field: 'renewal_items', message: expect.stringMatching(/at least one/) }]);
  });

  it('names a product twice and a quantity out of 1..10000', () => {
    expect(
      renewalItemsProblems([
        { product_id: 1, quantity: 1 },
        { product_id: 1, quantity: 0 },
        { product_id: 2, quantity: 10_001 },
      ]).map((p) => p.field),
    ).toEqual(['renewal_items.1.product_id', 'renewal_items.1.quantity', 'renewal_items.2.quantity']);
  });
});

describe('renewalItemView', () => {
  const prices = new Map([[7, '49.90']]);
  it('an own price is an override', () => {
    expect(renewalItemView({ product_id: 7, quantity: 2, price: '10.00' }, prices)).toEqual({ product_id: 7, quantity: 2, price: '10.00', price_source: 'override' });
  });
  it('an omitted price shows the current catalogue price', () => {
    expect(renewalItemView({ product_id: 7, quantity: 1, price: null }, prices)).toEqual({ product_id: 7, quantity: 1, price: '49.90', price_source: 'catalogue' });
  });
});

describe('periodEndProblem', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  const start = new Date('2025-12-01T00:00:00Z');

  it('accepts any end from the period start to 36500 days from now, refuses the rest', () => {
    fc.assert(
      fc.property(fc.integer({ min: -400 * DAY, max: 36_600 * DAY }), (offset) => {
        const end = new Date(now.getTime() + offset);
        const ok = end >= start && offset <= 36_500 * DAY;
        expect(periodEndProblem(end, start, now) === null).toBe(ok);
      }),
    );
  });

  it('takes the start itself and the horizon itself', () => {
    expect(periodEndProblem(start, start, now)).toBeNull();
    expect(periodEndProblem(new Date(now.getTime() + 36_500 * DAY), start, now)).toBeNull();
    expect(periodEndProblem(new Date(start.getTime() - 1), start, now)).toMatch(/start/);
    expect(periodEndProblem(new Date(now.getTime() + 36_500 * DAY + 1), start, now)).toMatch(/36500/);
  });
});

describe('latestPeriod', () => {
  it('is the period with the greatest end, the later id on a tie', () => {
    const at = (day: number) => new Date(Date.UTC(2026, 0, day));
    expect(latestPeriod([])).toBeNull();
    expect(latestPeriod([{ id: 1, endsAt: at(10) }, { id: 2, endsAt: at(5) }])!.id).toBe(1);
    expect(latestPeriod([{ id: 3, endsAt: at(10) }, { id: 4, endsAt: at(10) }])!.id).toBe(4);
  });
});

describe('subscriberIsActive', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  it('needs status active and a latest end after now', () => {
    expect(subscriberIsActive('active', new Date(now.getTime() + 1), now)).toBe(true);
    expect(subscriberIsActive('active', now, now)).toBe(false);
    expect(subscriberIsActive('active', null, now)).toBe(false);
    expect(subscriberIsActive('ended', new Date(now.getTime() + DAY), now)).toBe(false);
  });
});

describe('signalsFor', () => {
  it('sends the pause state whenever renewal_paused is sent, items changed for items or interval', () => {
    expect(signalsFor({ itemsSent: false, intervalSent: false })).toEqual([]);
    expect(signalsFor({ renewalPaused: true, itemsSent: false, intervalSent: false })).toEqual(['paused']);
    expect(signalsFor({ renewalPaused: false, itemsSent: false, intervalSent: true })).toEqual(['resumed', 'itemsChanged']);
    expect(signalsFor({ itemsSent: true, intervalSent: true })).toEqual(['itemsChanged']);
  });
});

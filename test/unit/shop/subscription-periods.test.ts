import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  chargeAttemptAt,
  chargeKey,
  chargeKeyPrefix,
  DAY_MS,
  mayRenew,
  nextChargeAt,
  nextPeriod,
  nextRenewalStep,
  REMINDER_KINDS,
  REMINDER_OFFSETS_MS,
  reminderInstants,
  renewalIntervalDays,
  type ReminderKind,
  type RenewalSchedule,
} from '../../../domain/shop/subscription-periods.ts';

const T0 = Date.UTC(2026, 0, 1);
const schedule = (over: Partial<RenewalSchedule> = {}): RenewalSchedule => ({
  period: { start: T0, end: T0 + 30 * DAY_MS },
  paused: false,
  renewalsDone: 0,
  renewalsLimit: 0,
  reminders: REMINDER_KINDS,
  reminderOffsetsMs: REMINDER_OFFSETS_MS,
  dunningMs: [1, 3, 5].map((d) => d * DAY_MS),
  failedAttempts: 0,
  ...over,
});
const none = new Set<ReminderKind>();

describe('nextPeriod', () => {
  it('immediate starts at the payment, continuous at the previous end', () => {
    const previousEnd = T0 + 30 * DAY_MS;
    const paidAt = previousEnd + 3 * DAY_MS; // paid on the second dunning retry
    expect(nextPeriod({ strategy: 'immediate', paidAt, previousEnd, intervalMs: 30 * DAY_MS })).toEqual({ start: paidAt, end: paidAt + 30 * DAY_MS });
    expect(nextPeriod({ strategy: 'continuous', paidAt, previousEnd, intervalMs: 30 * DAY_MS })).toEqual({ start: previousEnd, end: previousEnd + 30 * DAY_MS });
  });

  it('the first period starts at the payment under both strategies', () => {
    for (const strategy of ['immediate', 'continuous'] as const) {
      expect(nextPeriod({ strategy, paidAt: T0, previousEnd: null, intervalMs: DAY_MS })).toEqual({ start: T0, end: T0 + DAY_MS });
    }
  });

  it('always lasts exactly the interval; continuous periods chain without gap or overlap', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 36500 }),
        fc.array(fc.integer({ min: -10 * DAY_MS, max: 10 * DAY_MS }), { minLength: 1, maxLength: 24 }),
        (days, paymentOffsets) => {
          const intervalMs = days * DAY_MS;
          let previous = nextPeriod({ strategy: 'continuous', paidAt: T0, previousEnd: null, intervalMs });
          for (const offset of paymentOffsets) {
            const next = nextPeriod({ strategy: 'continuous', paidAt: previous.end + offset, previousEnd: previous.end, intervalMs });
            expect(next.start).toBe(previous.end);
            expect(next.end - next.start).toBe(intervalMs);
            const immediate = nextPeriod({ strategy: 'immediate', paidAt: previous.end + offset, previousEnd: previous.end, intervalMs });
            expect(immediate).toEqual({ start: previous.end + offset, end: previous.end + offset + intervalMs });
            previous = next;
          }
          expect(previous.end).toBe(T0 + intervalMs * (paymentOffsets.length + 1));
        },
      ),
    );
  });
});

describe('renewal interval and limit', () => {
  it('takes the subscriber\'s own interval before the product link\'s', () => {
    expect(renewalIntervalDays(null, 30)).toBe(30);
    expect(renewalIntervalDays(undefined, 30)).toBe(30);
    expect(renewalIntervalDays(7, 30)).toBe(7);
  });

  it('renews while fewer than renewals_limit renewals were done; 0 is no limit', () => {
    expect(mayRenew(0, 0)).toBe(true);
    expect(mayRenew(5000, 0)).toBe(true);
    expect(mayRenew(11, 12)).toBe(true);
    expect(mayRenew(12, 12)).toBe(false);
  });
});

describe('reminderInstants', () => {
  it('one week and one day before the end, earliest first', () => {
    const period = { start: T0, end: T0 + 30 * DAY_MS };
    expect(reminderInstants(period, ['expires_in_one_day', 'expires_in_one_week'], REMINDER_OFFSETS_MS)).toEqual([
      { kind: 'expires_in_one_week', at: period.end - 7 * DAY_MS },
      { kind: 'expires_in_one_day', at: period.end - DAY_MS },
    ]);
  });

  it('leaves out a reminder that would fall before the period start, and those the plan does not send', () => {
    const period = { start: T0, end: T0 + 3 * DAY_MS };
    expect(reminderInstants(period, REMINDER_KINDS, REMINDER_OFFSETS_MS)).toEqual([{ kind: 'expires_in_one_day', at: period.end - DAY_MS }]);
    expect(reminderInstants({ start: T0, end: T0 + 30 * DAY_MS }, [], REMINDER_OFFSETS_MS)).toEqual([]);
  });
});

describe('chargeAttemptAt (dunning)', () => {
  const dunning = [1, 3, 5].map((d) => d * DAY_MS);
  it('charges at the end, then retries 1, 3 and 5 days after it, then gives up', () => {
    const end = T0 + 30 * DAY_MS;
    expect([0, 1, 2, 3, 4].map((failed) => chargeAttemptAt(end, failed, dunning))).toEqual([end, end + DAY_MS, end + 3 * DAY_MS, end + 5 * DAY_MS, null]);
  });

  it('attempts are never before the period end, strictly later for later attempts, and end after the schedule', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 60 }), { maxLength: 6 }), fc.integer({ min: 0, max: 1e12 }), (days, end) => {
        const delays = [...new Set(days)].sort((a, b) => a - b).map((d) => d * DAY_MS);
        const attempts = Array.from({ length: delays.length + 1 }, (_, failed) => chargeAttemptAt(end, failed, delays)!);
        attempts.forEach((at, i) => {
          expect(at).toBeGreaterThanOrEqual(end);
          if (i > 0) expect(at).toBeGreaterThan(attempts[i - 1]!);
        });
        expect(chargeAttemptAt(end, delays.length + 1, delays)).toBeNull();
      }),
    );
  });
});

describe('nextRenewalStep', () => {
  it('sends the one-week reminder, then the one-day reminder, then charges at the end', () => {
    const s = schedule();
    expect(nextRenewalStep(s, none, T0)).toEqual({ kind: 'reminder', reminder: 'expires_in_one_week', at: s.period.end - 7 * DAY_MS, skip: [] });
    expect(nextRenewalStep(s, new Set(['expires_in_one_week']), T0)).toEqual({ kind: 'reminder', reminder: 'expires_in_one_day', at: s.period.end - DAY_MS, skip: [] });
    expect(nextRenewalStep(s, new Set(REMINDER_KINDS), T0)).toEqual({ kind: 'charge', at: s.period.end, attempt: 1 });
  });

  it('a manual plan (automaticRenewal false) sends its reminders, then finishes at the end: never a charge', () => {
    const s = schedule({ automaticRenewal: false });
    expect(nextRenewalStep(s, none, T0)).toEqual({ kind: 'reminder', reminder: 'expires_in_one_week', at: s.period.end - 7 * DAY_MS, skip: [] });
    expect(nextRenewalStep(s, new Set(REMINDER_KINDS), T0)).toEqual({ kind: 'finish', at: s.period.end });
    expect(nextRenewalStep(s, new Set(REMINDER_KINDS), s.period.end + DAY_MS)).toEqual({ kind: 'finish', at: s.period.end });
    expect(nextChargeAt(s)).toBeNull();
  });

  it('sends only the later reminder when both are overdue, and none after the end', () => {
    const s = schedule();
    expect(nextRenewalStep(s, none, s.period.end - DAY_MS / 2)).toEqual({
      kind: 'reminder',
      reminder: 'expires_in_one_day',
      at: s.period.end - DAY_MS,
      skip: ['expires_in_one_week'],
    });
    expect(nextRenewalStep(s, none, s.period.end)).toEqual({ kind: 'charge', at: s.period.end, attempt: 1 });
  });

  it('a paused subscriber waits: no reminder, no charge', () => {
    expect(nextRenewalStep(schedule({ paused: true }), none, T0)).toEqual({ kind: 'wait' });
    expect(nextRenewalStep(schedule({ paused: true, failedAttempts: 2 }), new Set(REMINDER_KINDS), T0 + 100 * DAY_MS)).toEqual({ kind: 'wait' });
  });

  it('retries on the dunning schedule, then expires', () => {
    const s = schedule({ reminders: [] });
    expect(nextRenewalStep({ ...s, failedAttempts: 1 }, none, T0)).toEqual({ kind: 'charge', at: s.period.end + DAY_MS, attempt: 2 });
    expect(nextRenewalStep({ ...s, failedAttempts: 3 }, none, T0)).toEqual({ kind: 'charge', at: s.period.end + 5 * DAY_MS, attempt: 4 });
    expect(nextRenewalStep({ ...s, failedAttempts: 4 }, none, T0)).toEqual({ kind: 'expire', at: s.period.end });
  });

  it('finishes at the end once renewals_limit renewals were done', () => {
    expect(nextRenewalStep(schedule({ reminders: [], renewalsDone: 12, renewalsLimit: 12 }), none, T0)).toEqual({ kind: 'finish', at: T0 + 30 * DAY_MS });
  });

  it('never schedules anything before the reminder or attempt it names, and every step of a period is reached in time order', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 400 }),
        fc.subarray([...REMINDER_KINDS]),
        fc.integer({ min: 0, max: 4 }),
        fc.integer({ min: 0, max: 500 * DAY_MS }),
        (days, reminders, failedAttempts, elapsed) => {
          const s = schedule({ period: { start: T0, end: T0 + days * DAY_MS }, reminders, failedAttempts });
          const handled = new Set<ReminderKind>();
          let now = T0 + (failedAttempts === 0 ? 0 : elapsed);
          let last = -Infinity;
          for (let i = 0; i < 5; i += 1) {
            const step = nextRenewalStep(s, handled, now);
            if (step.kind !== 'reminder') {
              if (step.kind === 'charge') expect(step.at).toBeGreaterThanOrEqual(s.period.end);
              break;
            }
            expect(step.at).toBeGreaterThanOrEqual(s.period.start);
            expect(step.at).toBeLessThan(s.period.end);
            expect(step.at).toBeGreaterThanOrEqual(last);
            last = step.at;
            handled.add(step.reminder);
            step.skip.forEach((k) => handled.add(k));
            now = Math.max(now, step.at);
          }
        },
      ),
    );
  });
});

describe('chargeKey', () => {
  it('names shop, subscriber, period, its end and the attempt: a moved end has attempts of its own', () => {
    expect(chargeKey({ shopId: 's', subscriberId: 4, periodId: 9, periodEnd: 1000, attempt: 2 })).toBe('shop/s/subscriber/4/period/9/end/1000/attempt/2');
    expect(chargeKey({ shopId: 's', subscriberId: 4, periodId: 9, periodEnd: 1000, attempt: 2 })).toMatch(new RegExp(`^${chargeKeyPrefix({ shopId: 's', subscriberId: 4, periodId: 9, periodEnd: 1000 })}`));
  });
});

describe('nextChargeAt', () => {
  it('is the period end, then each retry, and none when paused, at the limit or after the last retry', () => {
    const end = T0 + 30 * DAY_MS;
    expect(nextChargeAt(schedule())).toBe(end);
    expect(nextChargeAt(schedule({ failedAttempts: 2 }))).toBe(end + 3 * DAY_MS);
    expect(nextChargeAt(schedule({ failedAttempts: 4 }))).toBeNull();
    expect(nextChargeAt(schedule({ paused: true }))).toBeNull();
    expect(nextChargeAt(schedule({ renewalsDone: 3, renewalsLimit: 3 }))).toBeNull();
  });
});

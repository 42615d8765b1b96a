import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { amount, averageOrderValue, bucketKeys, bucketOf, dateRangeProblem, dayNumber, dayText, fillBuckets, REPORT_MAX_DAYS } from '../../../domain/shop/reports.ts';

describe('report dates', () => {
  it('accepts real calendar days only', () => {
    expect(dayNumber('2026-01-31')).not.toBeNull();
    expect(dayNumber('2024-02-29')).not.toBeNull();
    for (const bad of ['2026-02-29', '2026-02-30', '2026-13-01', '2026-00-10', '2026-1-1', '26-01-01', '2026-01-01T00:00:00Z', ' 2026-01-01', '0999-12-31', '', 'today']) {
      expect(dayNumber(bad), bad).toBeNull();
    }
  });

  it('round-trips every day number', () => {
    fc.assert(fc.property(fc.integer({ min: -300_000, max: 2_900_000 }), (day) => dayNumber(dayText(day)) === day));
  });

  it(`allows at most ${REPORT_MAX_DAYS} days counted inclusively, and no reversed range`, () => {
    expect(dateRangeProblem('2026-01-01', '2026-01-01')).toBeNull();
    const last = dayText(dayNumber('2020-01-01')! + REPORT_MAX_DAYS - 1);
    expect(dateRangeProblem('2020-01-01', last)).toBeNull();
    expect(dateRangeProblem('2020-01-01', dayText(dayNumber(last)! + 1))).toMatch(/1830/);
    expect(dateRangeProblem('2026-01-02', '2026-01-01')).toMatch(/before/);
  });
});

describe('report buckets', () => {
  it('weeks start on Monday (ISO), months on the first day', () => {
    expect(bucketOf('2026-03-01', 'week')).toBe('2026-02-23'); // a Sunday
    expect(bucketOf('2026-03-02', 'week')).toBe('2026-03-02'); // a Monday
    expect(bucketOf('2027-01-01', 'week')).toBe('2026-12-28'); // a Friday, ISO week 53 of 2026
    expect(bucketOf('2026-02-28', 'month')).toBe('2026-02-01');
    expect(bucketOf('2026-02-28', 'day')).toBe('2026-02-28');
    expect(bucketOf('2026-02-28', 'total')).toBeNull();
  });

  it('every day falls in a bucket whose key is a Monday no more than six days before it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2_900_000 }), (day) => {
        const key = dayNumber(bucketOf(dayText(day), 'week')!)!;
        return day - key >= 0 && day - key <= 6 && new Date(key * 86_400_000).getUTCDay() === 1;
      }),
    );
  });

  it('lists every bucket of a range, across years', () => {
    expect(bucketKeys('2026-11-15', '2027-02-01', 'month')).toEqual(['2026-11-01', '2026-12-01', '2027-01-01', '2027-02-01']);
    expect(bucketKeys('2026-03-01', '2026-03-09', 'week')).toEqual(['2026-02-23', '2026-03-02', '2026-03-09']);
    expect(bucketKeys('2026-12-30', '2027-01-02', 'day')).toEqual(['2026-12-30', '2026-12-31', '2027-01-01', '2027-01-02']);
    expect(bucketKeys('2026-01-01', '2026-12-31', 'total')).toEqual([]);
    expect(bucketKeys('2020-01-01', dayText(dayNumber('2020-01-01')! + REPORT_MAX_DAYS - 1), 'day')).toHaveLength(REPORT_MAX_DAYS);
  });

  it('fills the buckets without rows with empty ones, in order', () => {
    const rows = [{ date: '2026-03-01', n: 2 }];
    expect(fillBuckets(['2026-02-01', '2026-03-01', '2026-04-01'], rows, (date) => ({ date, n: 0 }))).toEqual([
      { date: '2026-02-01', n: 0 },
      { date: '2026-03-01', n: 2 },
      { date: '2026-04-01', n: 0 },
    ]);
  });
});

describe('report amounts', () => {
  it('are strings with two decimals; the average is rounded half up, 0.00 without orders', () => {
    expect(amount('12.5')).toBe('12.50');
    expect(amount(null)).toBe('0.00');
    expect(averageOrderValue('30.02', 3)).toBe('10.01');
    expect(averageOrderValue('0.05', 2)).toBe('0.03');
    expect(averageOrderValue('0.00', 0)).toBe('0.00');
    expect(averageOrderValue('99999999999.99', 1)).toBe('99999999999.99');
  });
});

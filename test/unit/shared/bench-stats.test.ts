import { describe, expect, it } from 'vitest';
import { median, percentile, round, rounded, summarize } from '../../../scripts/bench/stats.ts';

describe('bench statistics', () => {
  it('percentile interpolates between closest ranks, whatever the input order', () => {
    const values = [40, 10, 30, 20, 50];
    expect(percentile(values, 0)).toBe(10);
    expect(percentile(values, 50)).toBe(30);
    expect(percentile(values, 100)).toBe(50);
    expect(percentile(values, 25)).toBe(20);
    expect(percentile(values, 90)).toBeCloseTo(46);
    expect(percentile([1, 2, 3, 4], 99)).toBeCloseTo(3.97);
  });

  it('does not reorder its input', () => {
    const values = [3, 1, 2];
    percentile(values, 50);
    expect(values).toEqual([3, 1, 2]);
  });

  it('a single value is every percentile; an empty list has none', () => {
    expect(percentile([7], 0)).toBe(7);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBeNaN();
  });

  it('refuses a percentile outside 0..100', () => {
    expect(() => percentile([1], -1)).toThrow(RangeError);
    expect(() => percentile([1], 101)).toThrow(RangeError);
    expect(() => percentile([1], Number.NaN)).toThrow(RangeError);
  });

  it('median of an odd and of an even count', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('summarize gives count, p50 and p99', () => {
    const values = Array.from({ length: 101 }, (_, i) => i);
    expect(summarize(values)).toEqual({ count: 101, p50: 50, p99: 99 });
  });

  it('round keeps JSON valid: NaN and infinities become null', () => {
    expect(round(12.345, 1)).toBe(12.3);
    expect(round(12.5, 0)).toBe(13);
    expect(round(Number.NaN)).toBeNull();
    expect(round(Number.POSITIVE_INFINITY)).toBeNull();
  });

  it('rounds every number of a summary deeply: ratios to 3 decimals, larger figures to 1, NaN to null', () => {
    expect(rounded({ ratio: 0.123456, per_second: 16.1234, p99: [1234.56, Number.NaN], nested: { x: 2.00049 }, label: 'x', flag: true })).toEqual({
      ratio: 0.123,
      per_second: 16.1,
      p99: [1234.6, null],
      nested: { x: 2 },
      label: 'x',
      flag: true,
    });
  });
});

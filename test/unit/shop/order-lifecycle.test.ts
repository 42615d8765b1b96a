import { describe, expect, it } from 'vitest';
import { internalStatusAt, invoicedLines, isLive, lineIdentifiers, needsNoClearing, storedPlacedIp, unitIdentifiers } from '../../../domain/shop/order-lifecycle.ts';

describe('internalStatusAt', () => {
  it('makes the built-in Canceled and Returned statuses canceled and returned, every other status placed', () => {
    expect(internalStatusAt('CanceledDefaultOrderStatus')).toBe('canceled');
    expect(internalStatusAt('ReturnedDefaultOrderStatus')).toBe('returned');
    for (const kind of ['NewDefaultOrderStatus', 'PaidDefaultOrderStatus', 'SentDefaultOrderStatus', 'UserOrderStatus'] as const) expect(internalStatusAt(kind)).toBe('placed');
    expect([isLive('placed'), isLive('canceled'), isLive('returned')]).toEqual([true, false, false]);
  });
});

describe('storedPlacedIp', () => {
  it('keeps no address for orders placed before 29.09.2026, midnight in Warsaw by default', () => {
    expect(storedPlacedIp('203.0.113.9', new Date('2026-09-28T21:59:59.999Z'))).toBeNull();
    expect(storedPlacedIp('203.0.113.9', new Date('2026-09-28T22:00:00Z'))).toBe('203.0.113.9');
    expect(storedPlacedIp(undefined, new Date('2026-11-01T00:00:00Z'))).toBeNull();
  });

  it("takes the cutoff at the shop's own local midnight", () => {
    expect(storedPlacedIp('203.0.113.9', new Date('2026-09-29T03:59:59.999Z'), 'America/New_York')).toBeNull();
    expect(storedPlacedIp('203.0.113.9', new Date('2026-09-29T04:00:00Z'), 'America/New_York')).toBe('203.0.113.9');
    expect(storedPlacedIp('203.0.113.9', new Date('2026-09-29T00:00:00Z'), 'UTC')).toBe('203.0.113.9');
  });
});

describe('needsNoClearing', () => {
  it('is true for a zero total only', () => {
    expect([needsNoClearing('0.00'), needsNoClearing('0.01'), needsNoClearing(12)]).toEqual([true, false, false]);
  });
});

describe('invoicedLines', () => {
  it('leaves out the lines of no_invoice products and keeps lines whose product is gone', () => {
    const lines = [{ id: 1, productId: 5 }, { id: 2, productId: 6 }, { id: 3, productId: null }];
    expect(invoicedLines(lines, new Set([6])).map((l) => l.id)).toEqual([1, 3]);
    expect(invoicedLines([{ productId: 6 }], new Set([6]))).toEqual([]);
  });
});

describe('unitIdentifiers', () => {
  it('gives one distinct identifier per unit', () => {
    expect(unitIdentifiers('sub_a', 1)).toEqual(['sub_a']);
    const two = unitIdentifiers('sub_a', 2);
    expect(two).toHaveLength(2);
    expect(new Set(two).size).toBe(2);
    expect(unitIdentifiers('sub_a', 3)).toEqual(['sub_a-1', 'sub_a-2', 'sub_a-3']);
  });
});

describe('lineIdentifiers', () => {
  it('numbers the units of all lines together, so lines of one product never share an identifier', () => {
    const byLine = lineIdentifiers('sub_b', [{ id: 7, quantity: 2 }, { id: 9, quantity: 1 }]);
    expect(byLine.get(7)).toEqual(['sub_b-1', 'sub_b-2']);
    expect(byLine.get(9)).toEqual(['sub_b-3']);
    expect(lineIdentifiers('sub_c', [{ id: 1, quantity: 1 }]).get(1)).toEqual(['sub_c']);
  });
});

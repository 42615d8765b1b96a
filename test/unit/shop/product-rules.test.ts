import { describe, expect, it } from 'vitest';
import { cloneName, isEan, isGtuCode, isWebUrl, likeContains, lumpCodeOf, minimalPriceProblem, pathId, unknownIds, vatRateOf } from '../../../domain/shop/product-rules.ts';

describe('product write rules', () => {
  it('lump_code: only the listed rates, as number or text, answered as listed', () => {
    expect(lumpCodeOf(17)).toBe('17');
    expect(lumpCodeOf('12.50')).toBe('12.5');
    expect(lumpCodeOf(8.5)).toBe('8.5');
    expect(lumpCodeOf('3.0')).toBe('3');
    for (const bad of [16, '13', '12.4', 'abc', '', '-3', 1e21]) expect(lumpCodeOf(bad), String(bad)).toBeNull();
  });

  it('vat_rate: a whole percentage 0..100 from text or a number', () => {
    expect(vatRateOf('23')).toBe(23);
    expect(vatRateOf(8)).toBe(8);
    expect(vatRateOf('0')).toBe(0);
    expect(vatRateOf('5%')).toBe(5);
    for (const bad of ['101', 23.5, '-1', 'zw', '', '2 3']) expect(vatRateOf(bad), String(bad)).toBeNull();
  });

  it('ean is 13 digits, gtu_code GTU_01..GTU_13, URLs absolute http(s)', () => {
    expect(isEan('5901234123457')).toBe(true);
    expect(isEan('590123412345')).toBe(false);
    expect(isEan('590123412345a')).toBe(false);
    expect(['GTU_01', 'GTU_09', 'GTU_13'].every(isGtuCode)).toBe(true);
    expect(['GTU_00', 'GTU_14', 'GTU_1', 'gtu_01'].some(isGtuCode)).toBe(false);
    expect(isWebUrl('https://shop.example/p')).toBe(true);
    expect(isWebUrl('javascript:alert(1)')).toBe(false);
    expect(isWebUrl('/relative')).toBe(false);
  });

  it('minimal_price: at most the price, zero only when allowed, ignored without allow_price_change', () => {
    const base = { price: '10.00', allowPriceChange: true, minimalPrice: '5.00', allowZeroMinimalPrice: false };
    expect(minimalPriceProblem(base)).toBeNull();
    expect(minimalPriceProblem({ ...base, minimalPrice: '10.01' })).toMatch(/above/);
    expect(minimalPriceProblem({ ...base, minimalPrice: '0.00' })).toMatch(/allow_zero_minimal_price/);
    expect(minimalPriceProblem({ ...base, minimalPrice: '0.00', allowZeroMinimalPrice: true })).toBeNull();
    expect(minimalPriceProblem({ ...base, allowPriceChange: false, minimalPrice: '99.00' })).toBeNull();
  });

  it('ids, names and patterns', () => {
    expect(unknownIds([1, 2, 3], new Set([2]))).toEqual([1, 3]);
    expect(cloneName('Book')).toBe('Kopia: Book');
    expect(cloneName('Book', 'Other')).toBe('Other');
    expect(cloneName('x'.repeat(255))).toHaveLength(255);
    expect(pathId('12')).toBe(12);
    for (const bad of ['0', '-1', '1.5', 'abc', '2147483648', '01', '']) expect(pathId(bad), bad).toBeNull();
    expect(likeContains('50%_a\\b')).toBe('%50\\%\\_a\\\\b%');
  });
});

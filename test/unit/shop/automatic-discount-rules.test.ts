import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { money } from '../../../domain/shared/money.ts';
import {
  automaticDiscountProblems,
  startOfDay,
  typesOf,
  valueDescription,
  windowFlags,
  type AutomaticDiscountSettings,
} from '../../../domain/shop/automatic-discount-rules.ts';
import { discountedPrice, productAffected } from '../../../domain/shop/product-price-discount.ts';

const now = new Date('2026-06-15T12:00:00Z');
const settings = (fields: Partial<AutomaticDiscountSettings> = {}): AutomaticDiscountSettings => ({
  kind: 'newsletter', discountType: 'percentage_discount', value: '10', relationWithProducts: 'all_products', productIds: [], productCategoryIds: [],
  usagesLimit: null, email: null, emailDomain: null, startDate: null, endDate: null, ...fields,
});
const problems = (fields: Partial<AutomaticDiscountSettings>, datesChanged = true) => automaticDiscountProblems(settings(fields), now, datesChanged, 'UTC');
const timeLimited = (fields: Partial<AutomaticDiscountSettings> = {}) =>
  settings({ kind: 'time_limited', startDate: new Date('2026-06-16T00:00:00Z'), endDate: new Date('2026-06-20T00:00:00Z'), ...fields });

describe('automaticDiscountProblems', () => {
  it('accepts a valid discount of each kind', () => {
    expect(problems({})).toEqual({});
    expect(problems({ kind: 'email_address', email: 'a@example.com' })).toEqual({});
    expect(problems({ kind: 'email_domain', emailDomain: 'example.com' })).toEqual({});
    expect(automaticDiscountProblems(timeLimited(), now, true, 'UTC')).toEqual({});
  });

  it('offers the price-history types to time-limited discounts only', () => {
    expect(typesOf('time_limited')).toContain('percentage_product_discount');
    for (const kind of ['email_address', 'email_domain', 'newsletter'] as const) {
      expect(typesOf(kind)).toEqual(['percentage_discount', 'value_discount', 'unit_price_discount']);
      expect(problems({ kind, discountType: 'value_product_discount', email: 'a@b.cd', emailDomain: 'b.cd' })).toHaveProperty('discount_type');
    }
    expect(automaticDiscountProblems(timeLimited({ discountType: 'value_product_discount', value: '5' }), now, true, 'UTC')).toEqual({});
    expect(problems({ discountType: 'free_delivery_discount' })).toHaveProperty('discount_type');
  });

  it('checks the value per type: percent in (0, 100], an amount above 0, a unit price of 0 allowed', () => {
    expect(problems({ value: null })).toEqual({ value: ['is required'] });
    expect(problems({ value: '0' })).toHaveProperty('value');
    expect(problems({ value: '100' })).toEqual({});
    expect(problems({ value: '100.01' })).toHaveProperty('value');
    expect(problems({ discountType: 'value_discount', value: '0' })).toHaveProperty('value');
    expect(problems({ discountType: 'unit_price_discount', value: '0' })).toEqual({});
    expect(automaticDiscountProblems(timeLimited({ discountType: 'percentage_product_discount', value: '100.5' }), now, true, 'UTC')).toHaveProperty('value');
  });

  it('needs ids for the selected and except relations', () => {
    expect(problems({ relationWithProducts: 'selected_products' })).toHaveProperty('product_ids');
    expect(problems({ relationWithProducts: 'products_except', productIds: [1] })).toEqual({});
    expect(problems({ relationWithProducts: 'selected_categories' })).toHaveProperty('product_category_ids');
    expect(problems({ relationWithProducts: 'categories_except', productCategoryIds: [2] })).toEqual({});
  });

  it('needs the own required fields', () => {
    expect(problems({ kind: 'email_address' })).toEqual({ email: ['is required'] });
    expect(problems({ kind: 'email_domain' })).toEqual({ email_domain: ['is required'] });
  });

  it('time-limited: both dates, the end after the start, the start not before today, no usage limit', () => {
    expect(automaticDiscountProblems(timeLimited({ startDate: null, endDate: null }), now, true, 'UTC')).toEqual({ start_date: ['is required'], end_date: ['is required'] });
    const start = new Date('2026-06-16T00:00:00Z');
    expect(automaticDiscountProblems(timeLimited({ endDate: start }), now, true, 'UTC')).toHaveProperty('end_date');
    expect(automaticDiscountProblems(timeLimited({ startDate: startOfDay(now, 'UTC') }), now, true, 'UTC')).toEqual({});
    const yesterday = new Date(startOfDay(now, 'UTC').getTime() - 1);
    expect(automaticDiscountProblems(timeLimited({ startDate: yesterday }), now, true, 'UTC')).toEqual({ start_date: ['must not be earlier than today'] });
    // A running discount keeps its past start when other fields change.
    expect(automaticDiscountProblems(timeLimited({ startDate: yesterday }), now, false, 'UTC')).toEqual({});
    expect(automaticDiscountProblems(timeLimited({ usagesLimit: 3 }), now, true, 'UTC')).toHaveProperty('usages_limit');
  });

  it('"today" is the shop\'s calendar day in its time zone, not the UTC day', () => {
    const lateEvening = new Date('2026-06-15T23:30:00Z'); // 01:30 on the 16th in Warsaw
    expect(startOfDay(lateEvening, 'Europe/Warsaw').toISOString()).toBe('2026-06-15T22:00:00.000Z');
    const warsawYesterday = new Date('2026-06-15T21:00:00Z'); // 23:00 on the 15th in Warsaw
    expect(automaticDiscountProblems(timeLimited({ startDate: warsawYesterday, endDate: new Date('2026-06-20T00:00:00Z') }), lateEvening, true, 'Europe/Warsaw')).toHaveProperty('start_date');
    const earlyUtc = new Date('2026-06-15T00:30:00Z'); // 20:30 on the 14th in New York
    const newYorkToday = new Date('2026-06-14T23:00:00Z');
    expect(automaticDiscountProblems(timeLimited({ startDate: newYorkToday, endDate: new Date('2026-06-20T00:00:00Z') }), earlyUtc, true, 'America/New_York')).toEqual({});
  });

  it('email-address dates are optional, but the end must follow the start', () => {
    expect(problems({ kind: 'email_address', email: 'a@b.cd', startDate: new Date('2020-01-02'), endDate: new Date('2020-01-01') })).toEqual({ end_date: ['must be after start_date'] });
    expect(problems({ kind: 'email_address', email: 'a@b.cd', startDate: new Date('2020-01-01') })).toEqual({});
  });
});

describe('windowFlags', () => {
  it('future before the start, past from the end on, neither inside', () => {
    const start = new Date('2026-06-15T12:00:00Z');
    const end = new Date('2026-06-16T12:00:00Z');
    expect(windowFlags(start, end, new Date(start.getTime() - 1))).toEqual({ future: true, past: false });
    expect(windowFlags(start, end, start)).toEqual({ future: false, past: false });
    expect(windowFlags(start, end, end)).toEqual({ future: false, past: true });
  });
});

describe('valueDescription', () => {
  it('says what each type gives', () => {
    expect(valueDescription('percentage_discount', '12.50')).toBe('12.5% off the order');
    expect(valueDescription('value_discount', '5')).toBe('5.00 off the order');
    expect(valueDescription('unit_price_discount', '19.9')).toBe('unit price 19.90');
    expect(valueDescription('percentage_product_discount', '30.00')).toBe('30% off the product prices');
    expect(valueDescription('value_product_discount', '3')).toBe('3.00 off each product price');
  });
});

describe('discountedPrice', () => {
  it('takes the percent off and rounds the new price to cents half up', () => {
    expect(discountedPrice('10.00', 'percentage_product_discount', '15')).toBe('8.50');
    expect(discountedPrice('0.05', 'percentage_product_discount', '50')).toBe('0.03');
    expect(discountedPrice('19.99', 'percentage_product_discount', '33.33')).toBe('13.33');
    expect(discountedPrice('10.00', 'percentage_product_discount', '100')).toBe('0.00');
  });

  it('takes the amount off, never below zero', () => {
    expect(discountedPrice('10.00', 'value_product_discount', '2.50')).toBe('7.50');
    expect(discountedPrice('10.00', 'value_product_discount', '12')).toBe('0.00');
  });

  const cents = fc.integer({ min: 0, max: 10_000_000 }).map((c) => (c / 100).toFixed(2));
  it('property: the new price is between 0 and the old price, with two decimals', () => {
    fc.assert(
      fc.property(cents, fc.integer({ min: 1, max: 10_000 }).map((c) => (c / 100).toFixed(2)), fc.boolean(), (price, value, percent) => {
        const after = discountedPrice(price, percent ? 'percentage_product_discount' : 'value_product_discount', value);
        expect(after).toMatch(/^\d+\.\d{2}$/);
        expect(money(after).greaterThanOrEqualTo(0)).toBe(true);
        expect(money(after).lessThanOrEqualTo(price)).toBe(true);
      }),
    );
  });

  it('property: a percentage keeps (100 - p)% of the price within half a cent', () => {
    fc.assert(
      fc.property(cents, fc.integer({ min: 1, max: 10_000 }).map((c) => (c / 100).toFixed(2)), (price, percent) => {
        const exact = money(price).times(money(100).minus(percent)).dividedBy(100);
        expect(money(discountedPrice(price, 'percentage_product_discount', percent)).minus(exact).abs().lessThanOrEqualTo('0.005')).toBe(true);
      }),
    );
  });

  it('property: an amount off is exact down to zero', () => {
    fc.assert(
      fc.property(cents, cents, (price, value) => {
        const expected = money(price).minus(value);
        expect(discountedPrice(price, 'value_product_discount', value)).toBe((expected.lessThan(0) ? money(0) : expected).toFixed(2));
      }),
    );
  });
});

describe('productAffected', () => {
  const product = { id: 7, productCategoryIds: [3, 4] };
  it('follows the relation: all, selected and except products and categories', () => {
    const rule = (relationWithProducts: Parameters<typeof productAffected>[0]['relationWithProducts'], productIds: number[] = [], productCategoryIds: number[] = []) =>
      productAffected({ relationWithProducts, productIds, productCategoryIds }, product);
    expect(rule('all_products')).toBe(true);
    expect(rule('selected_products', [7])).toBe(true);
    expect(rule('selected_products', [8])).toBe(false);
    expect(rule('products_except', [7])).toBe(false);
    expect(rule('products_except', [8])).toBe(true);
    expect(rule('selected_categories', [], [4])).toBe(true);
    expect(rule('selected_categories', [], [5])).toBe(false);
    expect(rule('categories_except', [], [3])).toBe(false);
    expect(rule('categories_except', [], [5])).toBe(true);
  });
});

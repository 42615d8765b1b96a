import { describe, expect, it } from 'vitest';
import { automaticAdjustments, automaticDiscountApplies, type AutomaticDiscountSnapshot, type Buyer } from '../../../domain/shop/automatic-discount-pricing.ts';
import type { DiscountCart } from '../../../domain/shop/discount-code-pricing.ts';
import { automatic } from '../../helpers/pricing-snapshots.ts';

const now = new Date('2026-06-15T12:00:00Z');
const buyer: Buyer = { email: 'anna.kowalska@example.com', newsletter: false };
const cart: DiscountCart = { lines: [], productsCost: '100.00', delivery: null };
const applies = (d: AutomaticDiscountSnapshot, who: Partial<Buyer> = {}, productsCost = '100.00') =>
  automaticDiscountApplies(d, { ...buyer, ...who }, { productsCost }, now);

describe('email-address discounts', () => {
  it('apply to the address, ignoring case', () => {
    expect(applies(automatic('email_address', 'percentage_discount', '10', { email: 'Anna.Kowalska@Example.com' }))).toBe(true);
    expect(applies(automatic('email_address', 'percentage_discount', '10', { email: 'jan@example.com' }))).toBe(false);
  });

  it('apply only within their optional dates [start, end)', () => {
    const d = (fields: Partial<AutomaticDiscountSnapshot>) => automatic('email_address', 'value_discount', '5', { email: buyer.email, ...fields });
    expect(applies(d({ startDate: now }))).toBe(true);
    expect(applies(d({ startDate: new Date(now.getTime() + 1) }))).toBe(false);
    expect(applies(d({ endDate: now }))).toBe(false);
    expect(applies(d({ endDate: new Date(now.getTime() + 1) }))).toBe(true);
  });
});

describe('email-domain discounts', () => {
  it('apply to an address in the domain, ignoring case and a leading @', () => {
    expect(applies(automatic('email_domain', 'percentage_discount', '10', { emailDomain: 'EXAMPLE.com' }))).toBe(true);
    expect(applies(automatic('email_domain', 'percentage_discount', '10', { emailDomain: '@example.com' }))).toBe(true);
  });

  it('a subdomain or a suffix is another domain', () => {
    expect(applies(automatic('email_domain', 'percentage_discount', '10', { emailDomain: 'ample.com' }))).toBe(false);
    expect(applies(automatic('email_domain', 'percentage_discount', '10', { emailDomain: 'example.com' }), { email: 'a@mail.example.com' })).toBe(false);
  });
});

describe('newsletter discounts', () => {
  const d = automatic('newsletter', 'value_discount', '5', { minimumOrderValue: '100.00' });
  it('apply with the buyer\'s consent from minimum_order_value on (equal passes)', () => {
    expect(applies(d, { newsletter: true }, '100.00')).toBe(true);
    expect(applies(d, { newsletter: true }, '99.99')).toBe(false);
  });

  it('never without consent', () => {
    expect(applies(d, { newsletter: false }, '500.00')).toBe(false);
  });

  it('without a minimum from any amount', () => {
    expect(applies(automatic('newsletter', 'value_discount', '5'), { newsletter: true }, '0.01')).toBe(true);
  });
});

describe('time-limited discounts', () => {
  const d = (start: number, end: number, type = 'percentage_discount') =>
    automatic('time_limited', type, '10', { startDate: new Date(now.getTime() + start), endDate: new Date(now.getTime() + end) });
  it('apply within [start, end)', () => {
    expect(applies(d(0, 1000))).toBe(true);
    expect(applies(d(1, 1000))).toBe(false);
    expect(applies(d(-1000, 0))).toBe(false);
  });

  it.each(['percentage_product_discount', 'value_product_discount'])('never apply the price-history type %s again at checkout', (type) => {
    expect(applies(d(-1000, 1000, type))).toBe(false);
  });
});

describe('every kind', () => {
  it('does not apply when inactive or used up', () => {
    expect(applies(automatic('email_domain', 'value_discount', '5', { emailDomain: 'example.com', active: false }))).toBe(false);
    expect(applies(automatic('email_domain', 'value_discount', '5', { emailDomain: 'example.com', usagesLimit: 2, usages: 2 }))).toBe(false);
    expect(applies(automatic('email_domain', 'value_discount', '5', { emailDomain: 'example.com', usagesLimit: 2, usages: 1 }))).toBe(true);
  });
});

describe('automaticAdjustments: the best one per line', () => {
  const lines: DiscountCart['lines'] = [
    { productId: 1, categoryIds: [10], quantity: 1, price: '100.00' },
    { productId: 2, categoryIds: [20], quantity: 2, price: '20.00' },
  ];
  const on = { ...cart, lines };

  it('gives each line the discount that takes the most off it, never two', () => {
    const percent = automatic('newsletter', 'percentage_discount', '10', { id: 1 });
    const unit = automatic('email_domain', 'unit_price_discount', '4.00', { id: 2, relationWithProducts: 'selected_products', productIds: [2] });
    expect(automaticAdjustments([percent, unit], on)).toEqual([
      { action: 'addItemAdjustment', line: 0, amount: '10.00', code: 'auto:newsletter:1' },
      { action: 'addItemAdjustment', line: 1, amount: '12.00', code: 'auto:email_domain:2' },
    ]);
  });

  it('an order value keeps its pro rata share on the lines it wins only', () => {
    const value = automatic('time_limited', 'value_discount', '12.00', { id: 1 });
    const percent = automatic('newsletter', 'percentage_discount', '50', { id: 2, relationWithProducts: 'selected_categories', productCategoryIds: [20] });
    // value: 10.00 on line 0, 2.00 on line 1; percent: 10.00 on line 1
    expect(automaticAdjustments([value, percent], on).map((a) => [a.line, a.amount, a.code])).toEqual([
      [0, '10.00', 'auto:time_limited:1'],
      [1, '10.00', 'auto:newsletter:2'],
    ]);
  });

  it('on a tie the lower id wins; the order given does not matter', () => {
    const a = automatic('newsletter', 'value_discount', '5', { id: 7, relationWithProducts: 'selected_products', productIds: [1] });
    const b = automatic('email_domain', 'value_discount', '5', { id: 3, relationWithProducts: 'selected_products', productIds: [1] });
    expect(automaticAdjustments([a, b], on)).toEqual([{ action: 'addItemAdjustment', line: 0, amount: '5.00', code: 'auto:email_domain:3' }]);
  });

  it('a unit target above the unit price takes nothing (a cheaper product never becomes dearer); the quantity multiplies', () => {
    expect(automaticAdjustments([automatic('newsletter', 'unit_price_discount', '15.00')], on).map((a) => [a.line, a.amount])).toEqual([[0, '85.00']]);
    expect(automaticAdjustments([automatic('newsletter', 'unit_price_discount', '7.50')], on).map((a) => [a.line, a.amount])).toEqual([[0, '92.50'], [1, '5.00']]);
  });

  it.each([
    ['selected_products', { productIds: [2] }, [1]],
    ['products_except', { productIds: [2] }, [0]],
    ['selected_categories', { productCategoryIds: [10] }, [0]],
    ['categories_except', { productCategoryIds: [10] }, [1]],
  ] as const)('follows the relation %s', (relation, ids, discounted) => {
    const d = automatic('newsletter', 'percentage_discount', '10', { relationWithProducts: relation, ...ids });
    expect(automaticAdjustments([d], on).map((a) => a.line)).toEqual(discounted);
  });
});

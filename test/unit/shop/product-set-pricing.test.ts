import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { money, toMoneyString } from '../../../domain/shared/money.ts';
import { productSetLines, type ProductSetSnapshot, type SetOrder } from '../../../domain/shop/product-set-pricing.ts';

function set(fields: Partial<ProductSetSnapshot> = {}): ProductSetSnapshot {
  return {
    id: 5, price: '100.00', active: true, linkOnlyDiscount: false, autoCalculatePrices: true, poolMode: false, poolPickCount: null, customPaymentTypes: false, paymentTypeIds: [],
    items: [{ productId: 1, quantity: 1, customPrice: null }, { productId: 2, quantity: 2, customPrice: null }],
    ...fields,
  };
}

const catalogue = new Map([[1, '60.00'], [2, '30.00'], [3, '10.00']]);
const order = (s: ProductSetSnapshot, fields: Partial<SetOrder> = {}): SetOrder => ({ set: s, picks: [], viaLink: false, paymentTypeId: null, catalogue, ...fields });
const linesOf = (o: SetOrder) => {
  const result = productSetLines(o);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.lines.map((l) => [l.productId, l.quantity, l.setPrice]);
};
const fieldsOf = (o: SetOrder) => {
  const result = productSetLines(o);
  return result.ok ? [] : result.errors.map((e) => e.field);
};

describe('a set priced as a set', () => {
  it('auto_calculate_prices spreads the set price by the catalogue prices × quantity', () => {
    // weights 60 and 60: 50.00 each
    expect(linesOf(order(set()))).toEqual([[1, 1, '50.00'], [2, 2, '50.00']]);
  });

  it('the shares add up to the set price to the cent (largest remainder)', () => {
    const s = set({ price: '10.00', items: [{ productId: 1, quantity: 1, customPrice: null }, { productId: 2, quantity: 1, customPrice: null }, { productId: 3, quantity: 1, customPrice: null }] });
    // 60:30:10 of 10.00
    expect(linesOf(order(s))).toEqual([[1, 1, '6.00'], [2, 1, '3.00'], [3, 1, '1.00']]);
    const odd = set({ price: '0.10', items: [{ productId: 2, quantity: 1, customPrice: null }, { productId: 2, quantity: 1, customPrice: null }, { productId: 2, quantity: 1, customPrice: null }] });
    expect(linesOf(order(odd)).map((l) => l[2])).toEqual(['0.04', '0.03', '0.03']);
  });

  it('without auto_calculate_prices each line costs its custom_price × quantity', () => {
    const s = set({ autoCalculatePrices: false, items: [{ productId: 1, quantity: 1, customPrice: '70.00' }, { productId: 2, quantity: 2, customPrice: '15.00' }] });
    expect(linesOf(order(s))).toEqual([[1, 1, '70.00'], [2, 2, '30.00']]);
  });

  it('a set of free products spreads its price over the units', () => {
    const free = new Map([[1, '0.00'], [2, '0.00']]);
    expect(linesOf(order(set({ price: '9.00' }), { catalogue: free }))).toEqual([[1, 1, '3.00'], [2, 2, '6.00']]);
  });

  it('reports every set line on product_set_id', () => {
    const result = productSetLines(order(set()));
    expect(result.ok && result.lines.map((l) => l.field)).toEqual(['product_set_id', 'product_set_id']);
  });
});

describe('pool mode', () => {
  const pool = set({
    poolMode: true, poolPickCount: 2, price: '50.00',
    items: [{ productId: 1, quantity: 1, customPrice: null }, { productId: 2, quantity: 2, customPrice: null }, { productId: 3, quantity: 1, customPrice: null }],
  });
  const pick = (productId: number, fields = {}) => ({ productId, quantity: 1, ...fields });

  it('prices the buyer\'s picks at the set price, each with its set item\'s quantity', () => {
    // weights 60 and 10 of 50.00 (2 × 30.00 is 60 too)
    expect(linesOf(order(pool, { picks: [pick(1), pick(3)] }))).toEqual([[1, 1, '42.86'], [3, 1, '7.14']]);
    expect(linesOf(order(pool, { picks: [pick(2, { quantity: 2 }), pick(3)] }))).toEqual([[2, 2, '42.86'], [3, 1, '7.14']]);
  });

  it('needs exactly pool_pick_count picks', () => {
    expect(fieldsOf(order(pool, { picks: [pick(1)] }))).toEqual(['items']);
    expect(fieldsOf(order(pool, { picks: [pick(1), pick(2), pick(3)] }))).toEqual(['items']);
  });

  it('refuses a product outside the set, a product picked twice, a price of the buyer and another quantity', () => {
    expect(fieldsOf(order(pool, { picks: [pick(1), pick(9)] }))).toEqual(['items.1.product_id']);
    expect(fieldsOf(order(pool, { picks: [pick(1), pick(1)] }))).toEqual(['items.1.product_id']);
    expect(fieldsOf(order(pool, { picks: [pick(1), pick(3, { price: '1.00' })] }))).toEqual(['items.1.price']);
    expect(fieldsOf(order(pool, { picks: [pick(1), pick(2, { quantity: 3 })] }))).toEqual(['items.1.quantity']);
  });

  it('reports each pick on its items.N.product_id', () => {
    const result = productSetLines(order(pool, { picks: [pick(3), pick(1)] }));
    expect(result.ok && result.lines.map((l) => l.field)).toEqual(['items.0.product_id', 'items.1.product_id']);
  });
});

describe('refusals', () => {
  it('an inactive set, on product_set_id', () => {
    expect(fieldsOf(order(set({ active: false })))).toEqual(['product_set_id']);
  });

  it('a link-only set without the direct link; with it the set is ordered', () => {
    expect(fieldsOf(order(set({ linkOnlyDiscount: true })))).toEqual(['product_set_id']);
    expect(fieldsOf(order(set({ linkOnlyDiscount: true }), { viaLink: true }))).toEqual([]);
  });

  it('a set holding a product no longer available', () => {
    expect(fieldsOf(order(set(), { catalogue: new Map([[1, '60.00']]) }))).toEqual(['product_set_id']);
  });

  it('items sent with a set not in pool mode', () => {
    expect(fieldsOf(order(set(), { picks: [{ productId: 1, quantity: 1 }] }))).toEqual(['items']);
  });

  it('custom_payment_types: a payment type outside the set\'s list, on payment_type_id', () => {
    const s = set({ customPaymentTypes: true, paymentTypeIds: [7] });
    expect(fieldsOf(order(s, { paymentTypeId: 8 }))).toEqual(['payment_type_id']);
    expect(fieldsOf(order(s, { paymentTypeId: 7 }))).toEqual([]);
    expect(fieldsOf(order(set({ paymentTypeIds: [7] }), { paymentTypeId: 8 }))).toEqual([]);
  });
});

describe('properties', () => {
  const cents = (max: number) => fc.integer({ min: 0, max }).map((c) => toMoneyString(money(c).dividedBy(100)));
  it('the lines add up to the set price to the cent, none negative', () => {
    fc.assert(
      fc.property(
        cents(1_000_000),
        fc.array(fc.record({ price: cents(100_000), quantity: fc.integer({ min: 1, max: 10 }), custom: cents(100_000) }), { minLength: 2, maxLength: 8 }),
        fc.boolean(),
        (price, items, auto) => {
          const prices = new Map(items.map((item, i) => [i + 1, item.price]));
          const s = set({ price, autoCalculatePrices: auto, items: items.map((item, i) => ({ productId: i + 1, quantity: item.quantity, customPrice: item.custom })) });
          const result = productSetLines(order(s, { catalogue: prices }));
          if (!result.ok) return false;
          const sum = result.lines.reduce((total, l) => total.plus(l.setPrice), money(0));
          return toMoneyString(sum) === price && result.lines.every((l) => money(l.setPrice).greaterThanOrEqualTo(0));
        },
      ),
    );
  });
});

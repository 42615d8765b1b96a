import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toMoneyString } from '../../../domain/shared/money.ts';
import {
  customPriceTotal,
  freeSlug,
  productSetProblems,
  setPieces,
  setSlugBase,
  type ProductSetDraft,
  type SetItemDraft,
} from '../../../domain/shop/product-set-rules.ts';

const item = (productId: number, quantity = 1, customPrice: string | null = null): SetItemDraft => ({ productId, quantity, customPrice });
const draft = (fields: Partial<ProductSetDraft> = {}): ProductSetDraft => ({
  price: '50.00',
  autoCalculatePrices: true,
  poolMode: false,
  poolPickCount: null,
  customPaymentTypes: false,
  paymentTypeIds: [],
  exposeInFeeds: false,
  feedDescription: '',
  items: [item(1), item(2)],
  ...fields,
});

describe('productSetProblems', () => {
  it('accepts two different products, or one product twice', () => {
    expect(productSetProblems(draft())).toEqual({});
    expect(productSetProblems(draft({ items: [item(1, 2)] }))).toEqual({});
  });

  it('refuses fewer than two pieces in total', () => {
    expect(productSetProblems(draft({ items: [item(1)] })).items).toHaveLength(1);
    expect(productSetProblems(draft({ items: [] })).items).toHaveLength(1);
    expect(setPieces([item(1, 3), item(2, 4)])).toBe(7);
  });

  it('pool mode: pool_pick_count is required and between 2 and the number of items', () => {
    const items = [item(1), item(2), item(3)];
    expect(productSetProblems(draft({ poolMode: true, items })).pool_pick_count).toEqual(['is required in pool mode']);
    expect(productSetProblems(draft({ poolMode: true, poolPickCount: 1, items })).pool_pick_count).toHaveLength(1);
    expect(productSetProblems(draft({ poolMode: true, poolPickCount: 4, items })).pool_pick_count).toHaveLength(1);
    expect(productSetProblems(draft({ poolMode: true, poolPickCount: 2, items }))).toEqual({});
    expect(productSetProblems(draft({ poolMode: true, poolPickCount: 3, items }))).toEqual({});
    expect(productSetProblems(draft({ poolMode: false, poolPickCount: 9, items }))).toEqual({});
  });

  it('pool mode: at least two different products', () => {
    const problems = productSetProblems(draft({ poolMode: true, poolPickCount: 2, items: [item(1), item(1)] }));
    expect(problems.items).toEqual(['a pool holds at least 2 different products']);
  });

  it('without auto_calculate_prices every item needs custom_price, named by its index', () => {
    const problems = productSetProblems(draft({ autoCalculatePrices: false, items: [item(1, 1, '20.00'), item(2)] }));
    expect(problems['items.1.custom_price']).toHaveLength(1);
    expect(problems['items.0.custom_price']).toBeUndefined();
    expect(problems.price).toBeUndefined();
  });

  it('without auto_calculate_prices the custom prices times quantity sum to the price', () => {
    expect(productSetProblems(draft({ autoCalculatePrices: false, price: '50.00', items: [item(1, 2, '10.00'), item(2, 1, '30.00')] }))).toEqual({});
    expect(productSetProblems(draft({ autoCalculatePrices: false, price: '50.01', items: [item(1, 2, '10.00'), item(2, 1, '30.00')] })).price).toHaveLength(1);
    expect(productSetProblems(draft({ autoCalculatePrices: true, price: '1.00', items: [item(1, 2, '10.00'), item(2, 1, '30.00')] }))).toEqual({});
  });

  it('custom payment types need payment types; a feed needs a description', () => {
    expect(productSetProblems(draft({ customPaymentTypes: true })).payment_type_ids).toHaveLength(1);
    expect(productSetProblems(draft({ customPaymentTypes: true, paymentTypeIds: [4] }))).toEqual({});
    expect(productSetProblems(draft({ exposeInFeeds: true, feedDescription: '  ' })).feed_description).toHaveLength(1);
    expect(productSetProblems(draft({ exposeInFeeds: true, feedDescription: 'Two books' }))).toEqual({});
  });
});

describe('customPriceTotal', () => {
  const cents = fc.integer({ min: 0, max: 99_999_99 }).map((n) => (n / 100).toFixed(2));
  const items = fc.array(fc.record({ productId: fc.integer({ min: 1, max: 5 }), quantity: fc.integer({ min: 1, max: 50 }), customPrice: cents }), {
    minLength: 1,
    maxLength: 20,
  });

  it('is the exact sum in cents of price times quantity (no float error), and a set priced at it passes', () => {
    fc.assert(
      fc.property(items, (list) => {
        const expectedCents = list.reduce((sum, i) => sum + BigInt(Math.round(Number(i.customPrice) * 100)) * BigInt(i.quantity), 0n);
        const total = customPriceTotal(list)!;
        expect(total.times(100).toFixed(0)).toBe(expectedCents.toString());
        const set = draft({ autoCalculatePrices: false, items: list, price: toMoneyString(total) });
        expect(productSetProblems(set).price).toBeUndefined();
        const offByACent = draft({ autoCalculatePrices: false, items: list, price: toMoneyString(total.plus('0.01')) });
        expect(productSetProblems(offByACent).price).toHaveLength(1);
      }),
    );
  });

  it('is null when an item has no custom price', () => {
    expect(customPriceTotal([item(1, 1, '1.00'), item(2)])).toBeNull();
  });
});

describe('slugs', () => {
  it('makes a slug from the name, `set` when nothing URL-safe is left', () => {
    expect(setSlugBase('Zestaw Łódź: 2 książki')).toBe('zestaw-lodz-2-ksiazki');
    expect(setSlugBase('!!!')).toBe('set');
  });

  it('takes the first free suffix', () => {
    expect(freeSlug('duo', new Set())).toBe('duo');
    expect(freeSlug('duo', new Set(['duo', 'duo-2']))).toBe('duo-3');
  });
});

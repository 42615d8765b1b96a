import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { money, toMoneyString } from '../../../domain/shared/money.ts';
import type { AutomaticDiscountSnapshot } from '../../../domain/shop/automatic-discount-pricing.ts';
import type { CodeSnapshot } from '../../../domain/shop/discount-code-pricing.ts';
import { DISCOUNT_TYPES } from '../../../domain/shop/discount-rules.ts';
import { priceCheckout, type CartLine, type Checkout, type PricedCart } from '../../../domain/shop/pricing.ts';
import { automatic, code, product } from '../../helpers/pricing-snapshots.ts';

const now = new Date('2026-06-15T12:00:00Z');
const lines: CartLine[] = [{ product: product(1, '100.00'), quantity: 1 }, { product: product(2, '20.00'), quantity: 2 }];

function checkout(fields: Partial<Checkout> = {}): Checkout {
  return { context: { lines, delivery: { id: 9, defaultPrice: '15.00', vatRate: 23, domestic: true } }, code: null, automaticDiscounts: [], buyer: { email: 'a@example.com', newsletter: true }, now, ...fields };
}

function priced(input: Checkout) {
  const result = priceCheckout(input);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result;
}

const discounts = (cart: PricedCart) => cart.lines.map((l) => l.discount);
const withCode = (c: CodeSnapshot) => ({ code: { typed: c.code, snapshot: c } });
const tenPercentNewsletter = automatic('newsletter', 'percentage_discount', '10', { id: 4 });

describe('priceCheckout: automatic discounts', () => {
  it('applies those that apply and names them; those that do not are left out', () => {
    const domain = automatic('email_domain', 'value_discount', '1000', { id: 5, emailDomain: 'other.com' });
    const result = priced(checkout({ automaticDiscounts: [tenPercentNewsletter, domain] }));
    expect(discounts(result.cart)).toEqual(['10.00', '4.00']);
    expect(result.cart).toMatchObject({ productsCost: '140.00', deliveryCost: '15.00', totalDiscount: '14.00', total: '141.00' });
    expect(result.automaticDiscountIds).toEqual([4]);
    expect(result.code).toBeNull();
  });

  it('a discount that applies but takes nothing off is not counted', () => {
    const unit = automatic('newsletter', 'unit_price_discount', '500.00', { id: 6 });
    expect(priced(checkout({ automaticDiscounts: [unit] })).automaticDiscountIds).toEqual([]);
  });

  it('without consent the newsletter discount does not apply', () => {
    expect(priced(checkout({ automaticDiscounts: [tenPercentNewsletter], buyer: { email: 'a@example.com', newsletter: false } })).cart.totalDiscount).toBe('0.00');
  });
});

describe('priceCheckout: the code with the automatic discounts', () => {
  it('a combinable code comes on top, computed on what the automatic discounts left', () => {
    const result = priced(checkout({ automaticDiscounts: [tenPercentNewsletter], ...withCode(code('percentage_discount', '50')) }));
    // line 1: 10.00 automatic, then 50 % of 90.00; line 2: 4.00, then 50 % of 36.00
    expect(discounts(result.cart)).toEqual(['55.00', '22.00']);
    expect(result.cart.lines[0]!.adjustments).toEqual([{ code: 'auto:newsletter:4', amount: '10.00' }, { code: 'code:SUMMER', amount: '45.00' }]);
    expect(result.code?.id).toBe(1);
    expect(result.automaticDiscountIds).toEqual([4]);
  });

  it('a combinable unit-price code on a line already below its target takes nothing more', () => {
    const unit = automatic('newsletter', 'unit_price_discount', '50.00', { id: 4 });
    const result = priced(checkout({ automaticDiscounts: [unit], ...withCode(code('unit_price_discount', '60.00')) }));
    expect(discounts(result.cart)).toEqual(['50.00', '0.00']);
  });

  it('a code that does not combine is used alone when it takes more off the order', () => {
    const result = priced(checkout({ automaticDiscounts: [tenPercentNewsletter], ...withCode(code('value_discount', '20', { combineWithOtherDiscount: false })) }));
    expect(result.cart.totalDiscount).toBe('20.00');
    expect(result.code?.id).toBe(1);
    expect(result.automaticDiscountIds).toEqual([]);
  });

  it('a code that does not combine counts its free delivery when compared, and wins a tie', () => {
    const free = code('free_delivery_discount', null, { combineWithOtherDiscount: false });
    const tie = automatic('newsletter', 'value_discount', '15.00', { id: 4 });
    const result = priced(checkout({ automaticDiscounts: [tie], ...withCode(free) }));
    expect(result.cart).toMatchObject({ deliveryDiscount: '15.00', totalDiscount: '15.00' });
    expect(result.code?.id).toBe(1);
  });

  it('a code that does not combine gives way when the automatic discounts take more: not used, not counted', () => {
    const result = priced(checkout({ automaticDiscounts: [tenPercentNewsletter], ...withCode(code('value_discount', '13.99', { combineWithOtherDiscount: false })) }));
    expect(result.cart.totalDiscount).toBe('14.00');
    expect(result.code).toBeNull();
    expect(result.automaticDiscountIds).toEqual([4]);
  });

  it('an invalid code is refused on discount_code even when the automatic discounts would win', () => {
    const result = priceCheckout(checkout({ automaticDiscounts: [tenPercentNewsletter], code: { typed: 'SUMMER', snapshot: code('value_discount', '1', { active: false, combineWithOtherDiscount: false }) } }));
    expect(result).toEqual({ ok: false, errors: [{ field: 'discount_code', code: 'discount_code_refused', message: 'is not active' }] });
  });

  it('the code\'s minimum is checked on the products cost before any discount', () => {
    const minimum = code('value_discount', '1', { minimumAmount: '140.00' });
    expect(priceCheckout(checkout({ automaticDiscounts: [tenPercentNewsletter], ...withCode(minimum) })).ok).toBe(true);
  });
});

describe('priceCheckout: product set lines', () => {
  it('a set line costs its share of the set price; discounts apply to it like any line', () => {
    const setLines: CartLine[] = [
      { product: product(1, '100.00'), quantity: 1, setPrice: '66.67', field: 'product_set_id' },
      { product: product(2, '20.00'), quantity: 3, setPrice: '33.33', field: 'product_set_id' },
    ];
    const result = priced(checkout({ context: { lines: setLines }, automaticDiscounts: [tenPercentNewsletter] }));
    expect(result.cart.lines.map((l) => [l.unitPrice, l.price, l.discount, l.finalPrice])).toEqual([
      ['66.67', '66.67', '6.67', '60.00'],
      ['11.11', '33.33', '3.33', '30.00'],
    ]);
    expect(result.cart).toMatchObject({ productsCost: '100.00', totalDiscount: '10.00', total: '90.00' });
  });

  it('a problem of a set line is reported on its field', () => {
    const inactive: CartLine[] = [{ product: { ...product(1, '10.00'), active: false }, quantity: 1, setPrice: '5.00', field: 'product_set_id' }];
    const result = priceCheckout(checkout({ context: { lines: inactive } }));
    expect(result.ok ? [] : result.errors.map((e) => [e.field, e.message])).toEqual([['product_set_id', 'product 1: is not an active product']]);
  });
});

describe('properties of every checkout', () => {
  const cents = (max: number) => fc.integer({ min: 0, max }).map((c) => toMoneyString(money(c).dividedBy(100)));
  const percent = fc.integer({ min: 1, max: 10_000 }).map((c) => toMoneyString(money(c).dividedBy(100)));
  const relation = fc.constantFrom('all_products', 'selected_products', 'products_except', 'selected_categories', 'categories_except' as const);
  const line = fc.record({ id: fc.integer({ min: 1, max: 5 }), price: cents(100_000), quantity: fc.integer({ min: 1, max: 20 }), categories: fc.subarray([100, 200]), set: fc.option(cents(100_000)) });
  const auto = fc.record({
    id: fc.integer({ min: 1, max: 50 }),
    type: fc.constantFrom('percentage_discount', 'value_discount', 'unit_price_discount', 'percentage_product_discount'),
    value: cents(20_000),
    percent,
    relation,
  });
  const codeArb = fc.option(fc.record({ type: fc.constantFrom(...DISCOUNT_TYPES), value: cents(20_000), percent, relation, combine: fc.boolean() }));

  it('never makes a total negative or a line dearer, and every amount adds up to the cent', () => {
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 6 }), fc.array(auto, { maxLength: 4 }), codeArb, fc.option(cents(10_000)), (ls, autos, c, deliveryPrice) => {
        const cartLines: CartLine[] = ls.map((l) => ({ product: product(l.id, l.price, { categoryIds: l.categories }), quantity: l.quantity, setPrice: l.set, field: l.set ? 'product_set_id' : undefined }));
        const automaticDiscounts: AutomaticDiscountSnapshot[] = autos.map((a) =>
          automatic('time_limited', a.type, a.type.startsWith('percentage') ? a.percent : a.value, { id: a.id, relationWithProducts: a.relation, productIds: [1, 2], productCategoryIds: [100] }),
        );
        const snapshot = c && code(c.type, c.type.startsWith('percentage') ? c.percent : c.value, { relationWithProducts: c.relation, productIds: [2, 3], productCategoryIds: [200], combineWithOtherDiscount: c.combine });
        const result = priced(checkout({
          context: { lines: cartLines, delivery: deliveryPrice ? { id: 9, defaultPrice: deliveryPrice, vatRate: 23 } : null, payment: { id: 3, defaultPrice: '1.99', vatRate: 23 } },
          automaticDiscounts,
          code: snapshot && { typed: snapshot.code, snapshot },
        }));
        const cart = result.cart;
        expect(money(cart.total).greaterThanOrEqualTo(0)).toBe(true);
        cart.lines.forEach((l, i) => {
          expect(money(l.finalPrice).greaterThanOrEqualTo(0)).toBe(true);
          expect(money(l.finalPrice).lessThanOrEqualTo(l.price)).toBe(true);
          expect(toMoneyString(money(l.price).minus(l.discount))).toBe(l.finalPrice);
          const sum = l.adjustments.reduce((s, a) => s.plus(a.amount), money(0));
          expect(toMoneyString(sum)).toBe(l.discount);
          if (!ls[i]!.set) expect(toMoneyString(money(l.unitPrice).times(l.quantity))).toBe(l.price);
          // Against the input, not the module's own amounts: a line never costs more than its
          // catalogue price times the quantity (a set line: its share of the set price).
          const ceiling = ls[i]!.set ? money(ls[i]!.set!) : money(ls[i]!.price).times(ls[i]!.quantity);
          expect(money(l.price).equals(ceiling)).toBe(true);
          expect(money(l.finalPrice).lessThanOrEqualTo(ceiling)).toBe(true);
        });
        // Independent of the module's sums: the total is at most the catalogue worth of the lines plus the charges.
        const worth = ls.reduce((sum, l) => sum.plus(l.set ? money(l.set) : money(l.price).times(l.quantity)), money(0));
        expect(money(cart.total).lessThanOrEqualTo(worth.plus(deliveryPrice ?? 0).plus('1.99'))).toBe(true);
        expect(toMoneyString(cart.lines.reduce((s, l) => s.plus(l.price), money(0)))).toBe(cart.productsCost);
        expect(toMoneyString(cart.lines.reduce((s, l) => s.plus(l.discount), money(cart.deliveryDiscount)))).toBe(cart.totalDiscount);
        expect(toMoneyString(money(cart.productsCost).plus(cart.deliveryCost).plus(cart.paymentCost).plus(cart.giftPackingCost).minus(cart.totalDiscount))).toBe(cart.total);
        // A line never carries two automatic discounts.
        for (const l of cart.lines) expect(l.adjustments.filter((a) => a.code.startsWith('auto:')).length).toBeLessThanOrEqual(1);
        if (snapshot && !snapshot.combineWithOtherDiscount) {
          expect(result.code === null || result.automaticDiscountIds.length === 0).toBe(true);
        }
      }),
    );
  });

  it('the automatic discounts never take less than the best single one of them', () => {
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 6 }), fc.array(auto, { minLength: 1, maxLength: 4 }), (ls, autos) => {
        const context = { lines: ls.map((l) => ({ product: product(l.id, l.price, { categoryIds: l.categories }), quantity: l.quantity })) };
        const snapshots = autos.map((a, i) => automatic('time_limited', a.type, a.type.startsWith('percentage') ? a.percent : a.value, { id: i + 1, relationWithProducts: a.relation, productIds: [1, 2], productCategoryIds: [100] }));
        const together = money(priced(checkout({ context, automaticDiscounts: snapshots })).cart.totalDiscount);
        for (const one of snapshots) expect(together.greaterThanOrEqualTo(priced(checkout({ context, automaticDiscounts: [one] })).cart.totalDiscount)).toBe(true);
      }),
    );
  });
});

describe('priceCheckout: a subscriber\'s free delivery', () => {
  it('frees the delivery when the products after the discounts reach the lowest minimum of the buyer\'s plans', () => {
    // 140.00 of products, 10% newsletter discount: 126.00 left.
    expect(priced(checkout({ automaticDiscounts: [tenPercentNewsletter], subscriberPlanMinimums: ['126.00', '500.00'] })).cart).toMatchObject({
      deliveryDiscount: '15.00',
      totalDiscount: '29.00',
      total: '126.00',
      deliveryAdjustments: [{ code: 'subscriber_free_delivery', amount: '15.00' }],
    });
    expect(priced(checkout({ automaticDiscounts: [tenPercentNewsletter], subscriberPlanMinimums: ['126.01'] })).cart).toMatchObject({ deliveryDiscount: '0.00', total: '141.00' });
    expect(priced(checkout({ subscriberPlanMinimums: [] })).cart).toMatchObject({ deliveryDiscount: '0.00', total: '155.00' });
  });

  it('takes only what a free-delivery code left of the delivery', () => {
    const free = code('free_delivery_discount', null, { combineWithOtherDiscount: false });
    const result = priced(checkout({ ...withCode(free), subscriberPlanMinimums: ['0.00'] }));
    expect(result.cart).toMatchObject({ deliveryDiscount: '15.00', totalDiscount: '15.00', total: '140.00' });
  });
});

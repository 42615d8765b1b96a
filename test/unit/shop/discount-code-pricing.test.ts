import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { money, toMoneyString } from '../../../domain/shared/money.ts';
import { codeAdjustments, codeRefusal, spreadProRata, type CodeSnapshot, type DiscountCart } from '../../../domain/shop/discount-code-pricing.ts';
import { DISCOUNT_TYPES } from '../../../domain/shop/discount-rules.ts';
import { priceCart, type CartContext, type PricedCart } from '../../../domain/shop/pricing.ts';
import { code, product } from '../../helpers/pricing-snapshots.ts';

interface Line { id: number; price: string; quantity?: number; categories?: number[] }
interface Delivery { id: number; price: string; domestic?: boolean }

/** The cart priced as checkout prices it: first at catalogue prices, then with the code's adjustments. */
function checkout(discount: CodeSnapshot, lines: Line[], delivery?: Delivery): { cart: PricedCart; discountCart: DiscountCart } {
  const context: CartContext = {
    lines: lines.map((l) => ({ product: product(l.id, l.price), quantity: l.quantity ?? 1 })),
    delivery: delivery && { id: delivery.id, defaultPrice: delivery.price, vatRate: 23 },
  };
  const plain = priceCart(context);
  if (!plain.ok) throw new Error('cart not priced');
  const discountCart: DiscountCart = {
    lines: plain.cart.lines.map((l, i) => ({ productId: l.productId, categoryIds: lines[i]!.categories ?? [], quantity: l.quantity, price: l.price })),
    productsCost: plain.cart.productsCost,
    delivery: delivery ? { id: delivery.id, domestic: delivery.domestic ?? true, cost: plain.cart.deliveryCost } : null,
  };
  const priced = priceCart(context, codeAdjustments(discount, discountCart));
  if (!priced.ok) throw new Error('cart not priced');
  return { cart: priced.cart, discountCart };
}

const discounts = (cart: PricedCart) => cart.lines.map((l) => l.discount);

describe('percentage_discount', () => {
  it('takes the percentage off every eligible line, rounded per line to cents half up', () => {
    const { cart } = checkout(code('percentage_discount', '10'), [{ id: 1, price: '19.99' }, { id: 2, price: '0.05' }, { id: 3, price: '10.00', quantity: 3 }]);
    // 1.999 -> 2.00; 0.005 -> 0.01 (half up); 3.00
    expect(discounts(cart)).toEqual(['2.00', '0.01', '3.00']);
    expect(cart.totalDiscount).toBe('5.01');
    expect(cart.total).toBe('45.03');
  });

  it('100 % makes the products free but not the delivery', () => {
    const { cart } = checkout(code('percentage_discount', '100'), [{ id: 1, price: '40.00' }], { id: 9, price: '12.00' });
    expect(cart.total).toBe('12.00');
  });
});

describe('value_discount (per order)', () => {
  it('spreads the value over the eligible lines pro rata, adding up to the value to the cent', () => {
    const { cart } = checkout(code('value_discount', '10'), [{ id: 1, price: '10.00' }, { id: 2, price: '10.00' }, { id: 3, price: '10.00' }]);
    expect(discounts(cart)).toEqual(['3.34', '3.33', '3.33']);
    expect(cart.totalDiscount).toBe('10.00');
  });

  it('takes at most what the eligible lines are worth (the delivery is not discounted by a value code)', () => {
    const { cart } = checkout(code('value_discount', '100'), [{ id: 1, price: '30.00' }], { id: 9, price: '15.00' });
    expect(cart.totalDiscount).toBe('30.00');
    expect(cart.total).toBe('15.00');
  });

  it('weights the lines by price (quantity included)', () => {
    const { cart } = checkout(code('value_discount', '20'), [{ id: 1, price: '10.00', quantity: 3 }, { id: 2, price: '10.00' }]);
    expect(discounts(cart)).toEqual(['15.00', '5.00']);
  });
});

describe('value_per_product_discount', () => {
  it('takes the value off each eligible unit, never more than the unit', () => {
    const { cart } = checkout(code('value_per_product_discount', '5'), [{ id: 1, price: '20.00', quantity: 3 }, { id: 2, price: '3.00', quantity: 2 }]);
    expect(discounts(cart)).toEqual(['15.00', '6.00']);
  });
});

describe('unit_price_discount (target price)', () => {
  it('brings every eligible unit down to the target price; the quantity multiplies', () => {
    const { cart } = checkout(code('unit_price_discount', '9.99'), [{ id: 1, price: '29.99', quantity: 2 }]);
    expect(cart.lines[0]).toMatchObject({ discount: '40.00', finalPrice: '19.98' });
  });

  it('leaves a unit already cheaper than the target as it is (a cheaper product never becomes dearer)', () => {
    const { cart } = checkout(code('unit_price_discount', '15.00'), [{ id: 1, price: '12.00', quantity: 4 }, { id: 2, price: '15.00' }]);
    expect(discounts(cart)).toEqual(['0.00', '0.00']);
    expect(cart.total).toBe('63.00');
  });

  it('a target of zero makes the units free', () => {
    expect(checkout(code('unit_price_discount', '0'), [{ id: 1, price: '12.00', quantity: 2 }]).cart.total).toBe('0.00');
  });
});

describe('free delivery and the combined types', () => {
  it('free_delivery_discount takes the whole delivery cost and nothing off the products', () => {
    const { cart } = checkout(code('free_delivery_discount', null), [{ id: 1, price: '20.00' }], { id: 9, price: '12.30' });
    expect(cart).toMatchObject({ deliveryCost: '12.30', deliveryDiscount: '12.30', totalDiscount: '12.30', total: '20.00' });
    expect(discounts(cart)).toEqual(['0.00']);
  });

  it('gives nothing without a delivery', () => {
    expect(checkout(code('free_delivery_discount', null), [{ id: 1, price: '20.00' }]).cart.totalDiscount).toBe('0.00');
  });

  it.each([
    ['value_and_free_delivery_discount', '5', '5.00'],
    ['percentage_and_free_delivery_discount', '50', '10.00'],
    ['value_per_product_and_free_delivery_discount', '1', '2.00'],
  ] as const)('%s takes its product part and the delivery', (type, value, productPart) => {
    const { cart } = checkout(code(type, value), [{ id: 1, price: '10.00', quantity: 2 }], { id: 9, price: '12.00' });
    expect(cart.lines[0]!.discount).toBe(productPart);
    expect(cart.deliveryDiscount).toBe('12.00');
  });

  it('domestic_delivery_types_only frees a domestic delivery only', () => {
    const discount = code('free_delivery_discount', null, { relationWithDeliveryTypes: 'domestic_delivery_types_only' });
    expect(checkout(discount, [{ id: 1, price: '1.00' }], { id: 9, price: '12.00', domestic: true }).cart.deliveryDiscount).toBe('12.00');
    expect(checkout(discount, [{ id: 1, price: '1.00' }], { id: 9, price: '40.00', domestic: false }).cart.deliveryDiscount).toBe('0.00');
  });

  it('selected_delivery_types frees the listed delivery types only; the product part applies with any', () => {
    const discount = code('value_and_free_delivery_discount', '1', { relationWithDeliveryTypes: 'selected_delivery_types', deliveryTypeIds: [9] });
    expect(checkout(discount, [{ id: 1, price: '5.00' }], { id: 9, price: '12.00' }).cart.totalDiscount).toBe('13.00');
    expect(checkout(discount, [{ id: 1, price: '5.00' }], { id: 8, price: '12.00' }).cart.totalDiscount).toBe('1.00');
  });
});

describe('free_contents', () => {
  it('takes no money off', () => {
    const { cart } = checkout(code('free_contents', null), [{ id: 1, price: '20.00' }], { id: 9, price: '10.00' });
    expect(cart.totalDiscount).toBe('0.00');
  });
});

describe('relations with products', () => {
  const lines: Line[] = [{ id: 1, price: '10.00', categories: [100] }, { id: 2, price: '10.00', categories: [200, 300] }, { id: 3, price: '10.00' }];
  it.each([
    ['all_products', {}, ['1.00', '1.00', '1.00']],
    ['selected_products', { productIds: [2] }, ['0.00', '1.00', '0.00']],
    ['products_except', { productIds: [2] }, ['1.00', '0.00', '1.00']],
    ['selected_categories', { productCategoryIds: [300] }, ['0.00', '1.00', '0.00']],
    ['categories_except', { productCategoryIds: [100] }, ['0.00', '1.00', '1.00']],
  ] as const)('%s', (relation, ids, expected) => {
    const discount = code('percentage_discount', '10', { relationWithProducts: relation, ...ids });
    expect(discounts(checkout(discount, lines).cart)).toEqual(expected);
  });

  it('an order value goes over the eligible lines only', () => {
    const discount = code('value_discount', '6', { relationWithProducts: 'selected_products', productIds: [1, 3] });
    expect(discounts(checkout(discount, lines).cart)).toEqual(['3.00', '0.00', '3.00']);
  });
});

describe('codeRefusal', () => {
  const cart: DiscountCart = { lines: [], productsCost: '50.00', delivery: null };
  const now = new Date('2026-06-15T12:00:00Z');
  it.each([
    ['an unknown code', null, 'SUMMER', 'is not a discount code of this shop'],
    ['a case-sensitive code typed in another case', code('value_discount', '1'), 'summer', 'is not a discount code of this shop'],
    ['an undrawn code of a draw pool', code('value_discount', '1', { active: false, pool: { activateOnDraw: true } }), 'SUMMER', 'has not been issued yet'],
    ['an inactive code', code('value_discount', '1', { active: false }), 'SUMMER', 'is not active'],
    ['a code not valid yet', code('value_discount', '1', { startDate: new Date('2026-06-15T12:00:01Z') }), 'SUMMER', 'is not valid yet'],
    ['an expired code', code('value_discount', '1', { endDate: new Date('2026-06-15T12:00:00Z') }), 'SUMMER', 'has expired'],
    ['a used-up code', code('value_discount', '1', { usages: 3, usagesLimit: 3 }), 'SUMMER', 'has been used up'],
    ['an order below the minimum', code('value_discount', '1', { minimumAmount: '50.01' }), 'SUMMER', 'needs an order of at least 50.01 in products'],
  ])('refuses %s', (_label, discount, typed, message) => {
    expect(codeRefusal(discount, typed, cart, now)).toBe(message);
  });

  it.each([
    ['a case-insensitive code in another case', code('value_discount', '1', { caseSensitive: false }), 'summer'],
    ['a drawn pool code within its window', code('value_discount', '1', { pool: { activateOnDraw: true }, drawnAt: now, startDate: now, endDate: new Date('2026-06-16T12:00:00Z') }), 'SUMMER'],
    ['a code with uses left, exactly at its minimum', code('value_discount', '1', { usages: 2, usagesLimit: 3, minimumAmount: '50.00' }), 'SUMMER'],
    ['a code of a pool without draw mode', code('value_discount', '1', { pool: { activateOnDraw: false } }), 'SUMMER'],
  ])('accepts %s', (_label, discount, typed) => {
    expect(codeRefusal(discount, typed, cart, now)).toBeNull();
  });
});

describe('spreadProRata', () => {
  it('adds up to the amount and never gives a line more than its weight', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 100_000 }), { minLength: 1, maxLength: 10 }), fc.integer({ min: 0, max: 1_000_000 }), (weights, amount) => {
        const w = weights.map((c) => money(c).dividedBy(100));
        const total = w.reduce((s, x) => s.plus(x), money(0));
        const target = money(Math.min(amount, total.times(100).toNumber())).dividedBy(100);
        const shares = spreadProRata(target, w);
        if (total.isZero()) return shares.every((s) => s.isZero());
        return toMoneyString(shares.reduce((s, x) => s.plus(x), money(0))) === toMoneyString(target) && shares.every((s, i) => s.greaterThanOrEqualTo(0) && s.lessThanOrEqualTo(w[i]!));
      }),
    );
  });
});

describe('properties of every code on every cart', () => {
  const cents = (max: number) => fc.integer({ min: 0, max }).map((c) => toMoneyString(money(c).dividedBy(100)));
  const line = fc.record({ id: fc.integer({ min: 1, max: 5 }), price: cents(100_000), quantity: fc.integer({ min: 1, max: 20 }), categories: fc.subarray([100, 200]) });
  const discount = fc.record({
    type: fc.constantFrom(...DISCOUNT_TYPES),
    value: cents(20_000),
    percent: fc.integer({ min: 1, max: 10_000 }).map((c) => toMoneyString(money(c).dividedBy(100))),
    relation: fc.constantFrom('all_products', 'selected_products', 'products_except', 'selected_categories', 'categories_except' as const),
    delivery: fc.option(fc.record({ id: fc.integer({ min: 1, max: 3 }), price: cents(10_000), domestic: fc.boolean() })),
  });

  it('never makes a total negative, a line dearer, or a discount larger than what it is taken from', () => {
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 6 }), discount, (lines, d) => {
        const value = d.type.startsWith('percentage') ? d.percent : d.value;
        const snapshot = code(d.type, value, { relationWithProducts: d.relation, productIds: [1, 2], productCategoryIds: [100] });
        const { cart } = checkout(snapshot, lines, d.delivery ?? undefined);
        expect(money(cart.total).greaterThanOrEqualTo(0)).toBe(true);
        for (const l of cart.lines) {
          expect(money(l.finalPrice).greaterThanOrEqualTo(0)).toBe(true);
          expect(money(l.finalPrice).lessThanOrEqualTo(l.price)).toBe(true);
          expect(toMoneyString(money(l.price).minus(l.discount))).toBe(l.finalPrice);
        }
        expect(money(cart.deliveryDiscount).lessThanOrEqualTo(cart.deliveryCost)).toBe(true);
        const sum = cart.lines.reduce((s, l) => s.plus(l.discount), money(cart.deliveryDiscount));
        expect(toMoneyString(sum)).toBe(cart.totalDiscount);
        expect(toMoneyString(money(cart.productsCost).plus(cart.deliveryCost).plus(cart.paymentCost).minus(cart.totalDiscount))).toBe(cart.total);
      }),
    );
  });

  it('an order value code takes exactly min(value, eligible lines) to the cent', () => {
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 6 }), cents(50_000), (lines, value) => {
        const { cart } = checkout(code('value_discount', value), lines);
        const expected = money(value).lessThan(cart.productsCost) ? money(value) : money(cart.productsCost);
        expect(cart.totalDiscount).toBe(toMoneyString(expected));
      }),
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { money, toMoneyString } from '../../../domain/shared/money.ts';
import { priceCart, subscriberFreeDelivery, type Adjustment, type CartContext, type CartLine, type PricedCart, type ProductSnapshot } from '../../../domain/shop/pricing.ts';
import { vatOfGross } from '../../../domain/shop/vat.ts';

const product = (fields: Partial<ProductSnapshot> = {}): ProductSnapshot => ({
  id: 1,
  name: 'Book',
  sku: 'BK-1',
  price: '49.99',
  vatRate: 23,
  active: true,
  allowPriceChange: false,
  minimalPrice: null,
  allowZeroMinimalPrice: false,
  electronic: false,
  deliveryTypeIds: [],
  paymentTypeIds: [],
  cartQuantityLimit: null,
  ...fields,
});

function priced(context: CartContext, adjustments: Adjustment[] = []): PricedCart {
  const result = priceCart(context, adjustments);
  if (!result.ok) throw new Error(`not priced: ${JSON.stringify(result.errors)}`);
  return result.cart;
}

function errorsOf(context: CartContext) {
  const result = priceCart(context);
  if (result.ok) throw new Error('priced, expected errors');
  return result.errors.map((e) => [e.field, e.code]);
}

describe('VAT of a gross amount', () => {
  it('is gross × rate / (100 + rate), rounded half up to cents', () => {
    expect(vatOfGross('123.00', 23).toFixed(2)).toBe('23.00');
    expect(vatOfGross('10.00', 23).toFixed(2)).toBe('1.87'); // 1.869...
    expect(vatOfGross('10.50', 8).toFixed(2)).toBe('0.78'); // 0.7777...
    expect(vatOfGross('2.15', 5).toFixed(2)).toBe('0.10'); // 0.10238...
    expect(vatOfGross('0.43', 23).toFixed(2)).toBe('0.08'); // 0.0804...
    expect(vatOfGross('100.00', 0).toFixed(2)).toBe('0.00');
  });
});

describe('priceCart: lines at catalogue prices', () => {
  it('prices each line: unit price, price = unit × quantity, no discount, VAT from the gross final price', () => {
    const cart = priced({ lines: [{ product: product(), quantity: 3 }] });
    expect(cart.lines[0]!).toMatchObject({ productId: 1, name: 'Book', sku: 'BK-1', quantity: 3, unitPrice: '49.99', vatRate: 23, price: '149.97', discount: '0.00', finalPrice: '149.97', vat: '28.04' });
    expect(cart).toMatchObject({ productsCost: '149.97', deliveryCost: '0.00', paymentCost: '0.00', giftPackingCost: '0.00', totalDiscount: '0.00', total: '149.97' });
  });

  it('adds the delivery and payment costs of their types, each with its own VAT', () => {
    const cart = priced({
      lines: [{ product: product({ price: '10.00', vatRate: 5 }), quantity: 1 }, { product: product({ id: 2, price: '20.00', vatRate: 23 }), quantity: 2 }],
      delivery: { id: 7, defaultPrice: '12.30', vatRate: 23 },
      payment: { id: 9, defaultPrice: '1.08', vatRate: 8 },
    });
    expect(cart.lines.map((l) => [l.price, l.vat])).toEqual([['10.00', '0.48'], ['40.00', '7.48']]);
    expect(cart).toMatchObject({ productsCost: '50.00', deliveryCost: '12.30', deliveryVat: '2.30', paymentCost: '1.08', paymentVat: '0.08', total: '63.38' });
  });

  it('takes the buyer price for allow_price_change products, and the catalogue price without one', () => {
    const flexible = product({ allowPriceChange: true, minimalPrice: '20.00' });
    expect(priced({ lines: [{ product: flexible, quantity: 2, price: '35.50' }] }).lines[0]).toMatchObject({ unitPrice: '35.50', price: '71.00' });
    expect(priced({ lines: [{ product: flexible, quantity: 1 }] }).lines[0]?.unitPrice).toBe('49.99');
  });

  it('accepts the minimal price itself and zero only with allow_zero_minimal_price', () => {
    const flexible = product({ allowPriceChange: true, minimalPrice: '20.00' });
    expect(priced({ lines: [{ product: flexible, quantity: 1, price: '20.00' }] }).total).toBe('20.00');
    const free = product({ allowPriceChange: true, minimalPrice: '0.00', allowZeroMinimalPrice: true });
    expect(priced({ lines: [{ product: free, quantity: 1, price: '0' }] }).total).toBe('0.00');
  });
});

describe('priceCart: what cannot be placed', () => {
  it('refuses a buyer price below minimal_price, naming the line price', () => {
    const flexible = product({ allowPriceChange: true, minimalPrice: '20.00' });
    expect(errorsOf({ lines: [{ product: product(), quantity: 1 }, { product: flexible, quantity: 1, price: '19.99' }] })).toEqual([['items.1.price', 'below_minimal_price']]);
  });

  it('refuses a zero price when allow_zero_minimal_price is false, even without a minimal price', () => {
    const flexible = product({ allowPriceChange: true, minimalPrice: null });
    expect(errorsOf({ lines: [{ product: flexible, quantity: 1, price: '0.00' }] })).toEqual([['items.0.price', 'zero_price_not_allowed']]);
  });

  it('refuses a changed price on a product sold at its catalogue price only (the catalogue price itself is fine)', () => {
    expect(errorsOf({ lines: [{ product: product(), quantity: 1, price: '1.00' }] })).toEqual([['items.0.price', 'price_change_not_allowed']]);
    expect(priced({ lines: [{ product: product(), quantity: 1, price: '49.99' }] }).total).toBe('49.99');
  });

  it('refuses an inactive product, naming its product_id', () => {
    expect(errorsOf({ lines: [{ product: product({ active: false }), quantity: 1 }] })).toEqual([['items.0.product_id', 'inactive_product']]);
  });

  it('refuses more units than cart_quantity_limit, also spread over several lines', () => {
    const limited = product({ cartQuantityLimit: 2 });
    expect(priced({ lines: [{ product: limited, quantity: 2 }] }).total).toBe('99.98');
    expect(errorsOf({ lines: [{ product: limited, quantity: 3 }] })).toEqual([['items.0.quantity', 'quantity_above_limit']]);
    expect(errorsOf({ lines: [{ product: limited, quantity: 1 }, { product: limited, quantity: 2 }] })).toEqual([['items.1.quantity', 'quantity_above_limit']]);
  });

  it('refuses a delivery or payment type the product does not allow; an empty list allows any', () => {
    const picky = product({ deliveryTypeIds: [1, 2], paymentTypeIds: [5] });
    const delivery = { id: 3, defaultPrice: '5.00', vatRate: 23 };
    const payment = { id: 6, defaultPrice: '0.00', vatRate: 23 };
    expect(errorsOf({ lines: [{ product: picky, quantity: 1 }], delivery, payment })).toEqual([
      ['delivery_type_id', 'delivery_type_not_allowed'],
      ['payment_type_id', 'payment_type_not_allowed'],
    ]);
    expect(priced({ lines: [{ product: product(), quantity: 1 }], delivery, payment }).total).toBe('54.99');
    expect(priced({ lines: [{ product: picky, quantity: 1 }], delivery: { ...delivery, id: 2 }, payment: { ...payment, id: 5 } }).total).toBe('54.99');
  });

  it('refuses an empty cart and amounts beyond numeric(12,2)', () => {
    expect(errorsOf({ lines: [] })).toEqual([['items', 'empty_cart']]);
    expect(errorsOf({ lines: [{ product: product({ price: '9999999999.99' }), quantity: 2 }] })).toEqual([['items', 'amount_too_large']]);
  });
});

describe('priceCart: adjustments (the hook the discounts work uses)', () => {
  it('lowers a line and the delivery, never below zero, and sums them into total_discount', () => {
    const cart = priced(
      { lines: [{ product: product({ price: '10.00' }), quantity: 2 }], delivery: { id: 1, defaultPrice: '12.00', vatRate: 23 } },
      [
        { action: 'addItemAdjustment', line: 0, amount: '5.00', code: 'A' },
        { action: 'addItemAdjustment', line: 0, amount: '50.00', code: 'B' },
        { action: 'addShippingAdjustment', amount: '12.00', code: 'FREE' },
      ],
    );
    expect(cart.lines[0]!).toMatchObject({ price: '20.00', discount: '20.00', finalPrice: '0.00', vat: '0.00' });
    expect(cart.lines[0]!.adjustments).toEqual([{ code: 'A', amount: '5.00' }, { code: 'B', amount: '15.00' }]);
    expect(cart).toMatchObject({ productsCost: '20.00', deliveryCost: '12.00', deliveryDiscount: '12.00', totalDiscount: '32.00', total: '0.00' });
  });
});

const amount = fc.integer({ min: 0, max: 5_000_000 }).map((c) => toMoneyString(money(c).dividedBy(100)));
const rate = fc.constantFrom(0, 5, 8, 23);
const line = fc.record({ price: amount, vatRate: rate, quantity: fc.integer({ min: 1, max: 50 }) });
const context = fc.record({
  lines: fc.array(line, { minLength: 1, maxLength: 8 }),
  delivery: fc.option(fc.record({ defaultPrice: amount, vatRate: rate })),
  payment: fc.option(fc.record({ defaultPrice: amount, vatRate: rate })),
});
const adjustments = (lineCount: number) =>
  fc.array(
    fc.oneof(
      fc.record({ action: fc.constant('addItemAdjustment' as const), line: fc.integer({ min: 0, max: lineCount - 1 }), amount, code: fc.constant('X') }),
      fc.record({ action: fc.constant('addShippingAdjustment' as const), amount, code: fc.constant('S') }),
    ),
    { maxLength: 6 },
  );

type ContextSample = typeof context extends fc.Arbitrary<infer T> ? T : never;

function cartOf(c: ContextSample): CartContext {
  return {
    lines: c.lines.map((l, i): CartLine => ({ product: product({ id: i + 1, price: l.price, vatRate: l.vatRate }), quantity: l.quantity })),
    delivery: c.delivery ? { id: 1, ...c.delivery } : null,
    payment: c.payment ? { id: 1, ...c.payment } : null,
  };
}

const sum = (values: string[]) => toMoneyString(values.reduce((acc, v) => acc.plus(v), money(0)));

describe('priceCart: properties', () => {
  const withAdjustments = context.chain((c) => adjustments(c.lines.length).map((a) => [c, a] as const));

  it('total = products + delivery + payment + gift packing − discount, and never negative', () => {
    fc.assert(
      fc.property(withAdjustments, ([c, a]) => {
        const cart = priced(cartOf(c), a);
        const expected = money(cart.productsCost).plus(cart.deliveryCost).plus(cart.paymentCost).plus(cart.giftPackingCost).minus(cart.totalDiscount);
        expect(cart.total).toBe(toMoneyString(expected));
        expect(money(cart.total).isNegative()).toBe(false);
      }),
    );
  });

  it('line sums equal the order sums; every line is consistent to the cent', () => {
    fc.assert(
      fc.property(withAdjustments, ([c, a]) => {
        const cart = priced(cartOf(c), a);
        expect(sum(cart.lines.map((l) => l.price))).toBe(cart.productsCost);
        expect(sum([...cart.lines.map((l) => l.discount), cart.deliveryDiscount])).toBe(cart.totalDiscount);
        for (const l of cart.lines) {
          expect(l.price).toBe(toMoneyString(money(l.unitPrice).times(l.quantity)));
          expect(l.finalPrice).toBe(toMoneyString(money(l.price).minus(l.discount)));
          expect(money(l.finalPrice).isNegative()).toBe(false);
          expect(money(l.vat).lessThanOrEqualTo(l.finalPrice)).toBe(true);
          expect(l.vat).toBe(vatOfGross(l.finalPrice, l.vatRate).toFixed(2));
        }
      }),
    );
  });

  it('without adjustments: no discount, total = products + delivery + payment', () => {
    fc.assert(
      fc.property(context, (c) => {
        const cart = priced(cartOf(c));
        expect(cart.totalDiscount).toBe('0.00');
        expect(cart.total).toBe(sum([cart.productsCost, cart.deliveryCost, cart.paymentCost]));
      }),
    );
  });

  it('VAT is at most the gross amount and the net part is never negative', () => {
    fc.assert(
      fc.property(amount, fc.integer({ min: 0, max: 100 }), (gross, r) => {
        const vat = vatOfGross(gross, r);
        expect(vat.isNegative()).toBe(false);
        expect(vat.lessThanOrEqualTo(gross)).toBe(true);
      }),
    );
  });
});

describe('subscriberFreeDelivery: a plan\'s free_delivery_minimum_amount', () => {
  const minimum = fc.option(amount, { nil: null });

  it('makes delivery free exactly when the products after discounts reach the lowest minimum of the buyer\'s plans', () => {
    fc.assert(
      fc.property(context, fc.array(minimum, { maxLength: 3 }), (c, minimums) => {
        const base = priced(cartOf(c));
        const productsAfter = toMoneyString(money(base.productsCost).minus(base.totalDiscount).plus(base.deliveryDiscount));
        const adjustment = subscriberFreeDelivery(minimums, productsAfter, base.deliveryCost);
        const set = minimums.filter((m): m is string => m !== null);
        const qualifies = set.length > 0 && money(base.deliveryCost).greaterThan(0) && set.some((m) => money(productsAfter).greaterThanOrEqualTo(m));
        expect(adjustment !== null).toBe(qualifies);
        const cart = priced(cartOf(c), adjustment ? [adjustment] : []);
        // Free delivery takes the whole delivery cost and nothing else.
        expect(cart.deliveryDiscount).toBe(qualifies ? cart.deliveryCost : '0.00');
        expect(cart.total).toBe(toMoneyString(money(base.total).minus(qualifies ? base.deliveryCost : 0)));
      }),
    );
  });

  it('gives nothing without a plan minimum, or below it', () => {
    expect(subscriberFreeDelivery([null], '500.00', '15.00')).toBeNull();
    expect(subscriberFreeDelivery(['100.00'], '99.99', '15.00')).toBeNull();
    expect(subscriberFreeDelivery(['100.00', '50.00'], '60.00', '15.00')).toEqual({ action: 'addShippingAdjustment', amount: '15.00', code: 'subscriber_free_delivery' });
    expect(subscriberFreeDelivery(['0.00'], '0.00', '0.00')).toBeNull();
  });
});

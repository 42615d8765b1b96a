import { describe, expect, it } from 'vitest';
import { priceCheckout } from '../../../domain/shop/pricing.ts';
import { pricingInputs, pricingReadKeys, type PricingChoice, type PricingRows } from '../../../domain/shop/pricing-inputs.ts';
import type { ProductSetSnapshot } from '../../../domain/shop/product-set-pricing.ts';
import { automatic, code, product } from '../../helpers/pricing-snapshots.ts';

const now = new Date('2026-06-15T12:00:00Z');

function choice(fields: Partial<PricingChoice> = {}): PricingChoice {
  return { email: 'Ola@Example.COM', items: [{ product_id: 1, quantity: 2 }, { product_id: 2, quantity: 1 }, { product_id: 1, quantity: 1 }], via_set_link: false, newsletter: false, ...fields };
}

function rows(fields: Partial<PricingRows> = {}): PricingRows {
  return {
    products: [product(1, '10.00'), product(2, '5.00')],
    delivery: null,
    payment: null,
    code: null,
    automaticDiscounts: [],
    newsletterSubscriber: false,
    subscriberPlanMinimums: [],
    ...fields,
  };
}

const bundle: ProductSetSnapshot = {
  id: 5, price: '12.00', active: true, linkOnlyDiscount: false, autoCalculatePrices: true, poolMode: false, poolPickCount: null, customPaymentTypes: false, paymentTypeIds: [],
  items: [{ productId: 1, quantity: 1, customPrice: null }, { productId: 2, quantity: 2, customPrice: null }],
};

function inputsOf(c: PricingChoice, r: PricingRows, set: ProductSetSnapshot | null = null) {
  const result = pricingInputs(c, set, r, now);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.checkout;
}

const problemsOf = (c: PricingChoice, r: PricingRows, set: ProductSetSnapshot | null = null) => {
  const result = pricingInputs(c, set, r, now);
  return result.ok ? null : { ...result.problems };
};

describe('pricingReadKeys', () => {
  it('reads each item product once, the types sent, the code trimmed and the address in lower case', () => {
    expect(pricingReadKeys(choice({ delivery_type_id: 3, discount_code: '  Summer ' }), null)).toEqual({
      productIds: [1, 2],
      deliveryTypeId: 3,
      paymentTypeId: null,
      typedCode: 'Summer',
      email: 'ola@example.com',
    });
  });

  it("reads a set's products, not the picks; no code is ''", () => {
    const keys = pricingReadKeys(choice({ product_set_id: 5, items: [{ product_id: 9, quantity: 1 }], discount_code: null }), bundle);
    expect(keys.productIds).toEqual([1, 2]);
    expect(keys.typedCode).toBe('');
  });
});

describe('pricingInputs', () => {
  it('makes one line per item as sent, with the types, code, discounts and buyer read', () => {
    const delivery = { id: 3, defaultPrice: '9.00', vatRate: 23, domestic: false };
    const payment = { id: 4, defaultPrice: '1.00', vatRate: 8 };
    const summer = code('percentage_discount', '10');
    const newsletter = automatic('newsletter', 'percentage_discount', '5', { id: 7 });
    const checkout = inputsOf(
      choice({ delivery_type_id: 3, payment_type_id: 4, discount_code: ' SUMMER ', items: [{ product_id: 2, quantity: 3, price: '6.00' }] }),
      rows({ delivery, payment, code: summer, automaticDiscounts: [newsletter], newsletterSubscriber: true, subscriberPlanMinimums: ['50.00'] }),
    );
    expect(checkout).toEqual({
      context: { lines: [{ product: product(2, '5.00'), quantity: 3, price: '6.00' }], delivery, payment },
      code: { typed: 'SUMMER', snapshot: summer },
      automaticDiscounts: [newsletter],
      buyer: { email: 'ola@example.com', newsletter: true },
      now,
      subscriberPlanMinimums: ['50.00'],
    });
  });

  it('a code typed but not found is still checked (the pricing refuses it); none typed is no code', () => {
    expect(inputsOf(choice({ discount_code: 'NOPE' }), rows()).code).toEqual({ typed: 'NOPE', snapshot: null });
    expect(inputsOf(choice({ discount_code: '   ' }), rows()).code).toBeNull();
    const refused = priceCheckout(inputsOf(choice({ discount_code: 'NOPE' }), rows()));
    expect(refused.ok ? [] : refused.errors.map((e) => e.field)).toEqual(['discount_code']);
  });

  it("consent given with the order or a standing sign-up both count as the buyer's newsletter consent", () => {
    expect(inputsOf(choice({ newsletter: true }), rows()).buyer.newsletter).toBe(true);
    expect(inputsOf(choice(), rows({ newsletterSubscriber: true })).buyer.newsletter).toBe(true);
    expect(inputsOf(choice(), rows()).buyer.newsletter).toBe(false);
  });

  it('names every item, type and set the shop does not have, as the placement names its fields', () => {
    const missing = choice({ items: [{ product_id: 1, quantity: 1 }, { product_id: 8, quantity: 1 }], delivery_type_id: 3, payment_type_id: 4 });
    expect(problemsOf(missing, rows())).toEqual({
      'items.1.product_id': ['is not a product of this shop'],
      delivery_type_id: ['is not an active delivery type of this shop'],
      payment_type_id: ['is not an active payment type of this shop'],
    });
    expect(problemsOf(choice({ product_set_id: 5 }), rows())).toEqual({ product_set_id: ['is not a product set of this shop'] });
  });

  it("a set's lines carry their share of the set price and their field", () => {
    const checkout = inputsOf(choice({ product_set_id: 5, items: [] }), rows(), bundle);
    expect(checkout.context.lines.map((l) => [l.product.id, l.quantity, l.setPrice, l.field])).toEqual([
      [1, 1, '6.00', 'product_set_id'],
      [2, 2, '6.00', 'product_set_id'],
    ]);
  });

  it("a set refused by its rules is the set's problem (link-only without the link)", () => {
    expect(Object.keys(problemsOf(choice({ product_set_id: 5, items: [] }), rows(), { ...bundle, linkOnlyDiscount: true }) ?? {})).toEqual(['product_set_id']);
  });
});

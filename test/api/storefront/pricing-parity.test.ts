import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeliveryType, createPaymentType, insertProduct } from '../../helpers/shop-catalogue.ts';
import { insertAutomaticDiscount } from '../../helpers/shop-checkout.ts';
import { createTestShop, operator, type TestShop } from '../../helpers/shop.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';
import { buyer, type Buyer } from '../../helpers/storefront.ts';

/**
 * A cart and the operator's placement price through one pricing module: a random cart (products,
 * quantities, buyer prices, methods, a code, e-mail, newsletter consent) prices the same as the
 * order the operator would place from the same choices, or both refuse it naming the same fields.
 */
let stack: TestStack;
let shop: TestShop;
let store: Buyer;
let products: number[] = [];
let deliveries: number[] = [];
let payments: number[] = [];
const codes: string[] = [];

beforeAll(async () => {
  stack = await startTestApp('storefront-pricing-parity');
  shop = await createTestShop(stack.app, 'parity');
  store = buyer(stack.app, shop.subdomain);
  const { app, orm } = stack;
  deliveries = [
    await createDeliveryType(app, shop.id, { name: 'Courier', default_price: '12.30' }),
    await createDeliveryType(app, shop.id, { name: 'Abroad', default_price: '40.00', domestic: false }),
  ];
  payments = [await createPaymentType(app, shop.id, { name: 'Transfer' }), await createPaymentType(app, shop.id, { name: 'COD', default_price: '5.40', cash_on_delivery: true })];
  products = [
    await insertProduct(orm, shop.id, { name: 'Book', price: '49.99', vatRate: 5 }),
    await insertProduct(orm, shop.id, { name: 'E-book', price: '29.90', electronic: true }),
    await insertProduct(orm, shop.id, { name: 'Flexible', price: '30.00', allowPriceChange: true, minimalPrice: '15.00' }),
    await insertProduct(orm, shop.id, { name: 'Limited', price: '7.77', cartQuantityLimit: 2 }),
    await insertProduct(orm, shop.id, { name: 'Courier only', price: '19.99', deliveryTypeIds: [deliveries[0]!] }),
  ];
  for (const body of [
    { discount_type: 'percentage_discount', value: '15' },
    { discount_type: 'value_discount', value: '10.00', combine_with_other_discount: true },
    { discount_type: 'free_delivery_discount' },
    { discount_type: 'value_discount', value: '5.00', minimum_amount: '100.00' },
  ]) {
    const code = `PARITY${codes.length}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
    const res = await app.inject({ method: 'POST', url: '/api/v1/discount_codes', headers: shop.headers(), payload: { code, ...body } });
    expect(res.statusCode, res.body).toBe(201);
    codes.push(code);
  }
  await insertAutomaticDiscount(orm, shop.id, 'newsletter', 'percentage_discount', '5');
  await insertAutomaticDiscount(orm, shop.id, 'email_domain', 'value_discount', '3.00', { emailDomain: 'firm.example' });
});
afterAll(() => stack.close());

const cartArbitrary = () =>
  fc.record({
    items: fc.array(
      fc.record({
        product: fc.integer({ min: 0, max: 4 }),
        quantity: fc.integer({ min: 1, max: 3 }),
        price: fc.option(fc.constantFrom('14.00', '15.00', '22.50', '99.99'), { nil: undefined }),
      }),
      { minLength: 1, maxLength: 4 },
    ),
    delivery: fc.option(fc.integer({ min: 0, max: 1 }), { nil: null }),
    payment: fc.option(fc.integer({ min: 0, max: 1 }), { nil: null }),
    code: fc.option(fc.integer({ min: 0, max: 3 }), { nil: null }),
    email: fc.constantFrom('anna@example.com', 'boss@firm.example'),
    newsletter: fc.boolean(),
  });

const TOTALS = ['products_cost', 'delivery_cost', 'payment_cost', 'total_discount', 'total'] as const;

describe('cart pricing and the operator placement', () => {
  it('price a random cart the same, or refuse it naming the same fields', async () => {
    await fc.assert(
      fc.asyncProperty(cartArbitrary(), async (random) => {
        const choices = {
          items: random.items.map((item) => ({ product_id: products[item.product]!, quantity: item.quantity, ...(item.price ? { price: item.price } : {}) })),
          delivery_type_id: random.delivery === null ? null : deliveries[random.delivery]!,
          payment_type_id: random.payment === null ? null : payments[random.payment]!,
          discount_code: random.code === null ? null : codes[random.code]!,
          email: random.email,
          newsletter: random.newsletter,
        };
        const cart = (await store.post('/carts', {})).json().data;
        const priced = await store.patch(`/carts/${cart.id}`, choices);
        const placed = await stack.app.inject({ method: 'POST', url: `/admin/v1/shops/${shop.id}/orders`, headers: operator, payload: choices });
        if (placed.statusCode === 201) {
          expect(priced.statusCode, priced.body).toBe(200);
          const order = placed.json().data;
          const pricing = priced.json().data.pricing;
          for (const field of TOTALS) expect(pricing[field], field).toBe(order[field]);
          expect(priced.json().data.items.map((i: { final_price: string }) => i.final_price)).toEqual(order.items.map((i: { final_price: string }) => i.final_price));
        } else {
          expect(placed.statusCode, placed.body).toBe(422);
          expect(priced.statusCode, priced.body).toBe(422);
          expect(Object.keys(priced.json().errors).sort()).toEqual(Object.keys(placed.json().errors).sort());
        }
      }),
      { numRuns: 30 },
    );
  });
});

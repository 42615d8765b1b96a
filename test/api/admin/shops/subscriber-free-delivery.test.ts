import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeliveryType, insertProduct } from '../../../helpers/shop-catalogue.ts';
import { createTestShop, operator, type TestShop } from '../../../helpers/shop.ts';
import { insertSubscriber } from '../../../helpers/shop-subscribers.ts';
import { startTestApp, type TestStack } from '../../../helpers/stack.ts';
import { buyer, type Buyer } from '../../../helpers/storefront.ts';

/**
 * A plan's `free_delivery_minimum_amount`: an active subscriber of the plan gets the delivery free
 * on orders whose products (after discounts) reach the minimum, the same through the operator's
 * placement and the storefront's cart; below it, and for anyone else, the delivery is charged.
 */
let stack: TestStack;
let shop: TestShop;
let other: TestShop;
let store: Buyer;
let book: number;
let courier: number;
let halfOff: string;

const day = 24 * 3600_000;
const days = (n: number) => new Date(Date.now() + n * day);
const running = [{ startsAt: days(-10), endsAt: days(20) }];

async function plan(on: TestShop, fields: Record<string, unknown>): Promise<number> {
  const res = await stack.app.inject({ method: 'POST', url: '/api/v1/subscription_plans', headers: on.headers(), payload: { subscription_plan: { name: 'Club', ...fields } } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.id;
}

beforeAll(async () => {
  stack = await startTestApp('subscriber-free-delivery');
  shop = await createTestShop(stack.app, 'freedelivery');
  other = await createTestShop(stack.app, 'freedelivery-other');
  store = buyer(stack.app, shop.subdomain);
  book = await insertProduct(stack.orm, shop.id, { name: 'Book', price: '60.00', vatRate: 5 });
  courier = await createDeliveryType(stack.app, shop.id, { name: 'Courier', default_price: '15.00' });
  const withMinimum = await plan(shop, { free_delivery_minimum_amount: '100.00' });
  const withoutMinimum = await plan(shop, {});
  const foreign = await plan(other, { free_delivery_minimum_amount: '0.00' });
  await insertSubscriber(stack.orm, shop.id, { planId: withMinimum, email: 'Member@Example.com', periods: running });
  await insertSubscriber(stack.orm, shop.id, { planId: withMinimum, email: 'expired@example.com', periods: [{ startsAt: days(-40), endsAt: days(-1) }] });
  await insertSubscriber(stack.orm, shop.id, { planId: withoutMinimum, email: 'plain@example.com', periods: running });
  await insertSubscriber(stack.orm, other.id, { planId: foreign, email: 'elsewhere@example.com', periods: running });
  halfOff = `HALF${Math.random().toString(36).slice(2, 7)}`.toUpperCase();
  const code = await stack.app.inject({ method: 'POST', url: '/api/v1/discount_codes', headers: shop.headers(), payload: { code: halfOff, discount_type: 'percentage_discount', value: '50' } });
  expect(code.statusCode, code.body).toBe(201);
});
afterAll(() => stack.close());

const TOTALS = ['products_cost', 'delivery_cost', 'total_discount', 'total'] as const;

/** The order the operator places and the storefront cart's pricing for the same choices; they must agree. */
async function priceBoth(email: string, quantity: number, discountCode: string | null = null) {
  const choices = { items: [{ product_id: book, quantity }], delivery_type_id: courier, email, discount_code: discountCode };
  const cart = (await store.post('/carts', {})).json().data;
  const priced = await store.patch(`/carts/${cart.id}`, choices);
  expect(priced.statusCode, priced.body).toBe(200);
  const placed = await stack.app.inject({ method: 'POST', url: `/admin/v1/shops/${shop.id}/orders`, headers: operator, payload: choices });
  expect(placed.statusCode, placed.body).toBe(201);
  const order = placed.json().data;
  const pricing = priced.json().data.pricing;
  for (const field of TOTALS) expect(pricing[field], field).toBe(order[field]);
  return order as Record<(typeof TOTALS)[number], string>;
}

describe('free delivery of a subscriber (free_delivery_minimum_amount)', () => {
  it('an active subscriber of the plan gets the delivery free from the minimum on, in the cart and the placed order alike', async () => {
    expect(await priceBoth('member@example.com', 2)).toMatchObject({ products_cost: '120.00', delivery_cost: '15.00', total_discount: '15.00', total: '120.00' });
  });

  it('below the minimum the delivery is charged', async () => {
    expect(await priceBoth('member@example.com', 1)).toMatchObject({ products_cost: '60.00', delivery_cost: '15.00', total_discount: '0.00', total: '75.00' });
  });

  it('the minimum counts the products after their discounts', async () => {
    // 3 × 60 = 180, half off = 90 left: below 100, so the delivery stays charged.
    expect(await priceBoth('member@example.com', 3, halfOff)).toMatchObject({ products_cost: '180.00', total_discount: '90.00', total: '105.00' });
    // 4 × 60 = 240, half off = 120 left: the delivery is free on top of the code.
    expect(await priceBoth('member@example.com', 4, halfOff)).toMatchObject({ products_cost: '240.00', total_discount: '135.00', total: '120.00' });
  });

  it('a non-subscriber, an expired subscriber, a plan without a minimum and another shop\'s subscriber get none', async () => {
    for (const email of ['stranger@example.com', 'expired@example.com', 'plain@example.com', 'elsewhere@example.com']) {
      expect(await priceBoth(email, 2), email).toMatchObject({ delivery_cost: '15.00', total_discount: '0.00', total: '135.00' });
    }
  });
});

/**
 * A cart's pricing read is made in the statement that reads the cart, with the read's keys taken
 * from the cart's state in SQL (db/repositories/shop/checkout-reads.ts `useCartWithReads`); the
 * placement uses it only when those keys are the ones `pricingReadKeys` (domain/shop/
 * pricing-inputs.ts) takes from the body the cart stands for. Here both derivations meet.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFor, useCartWithReads } from '../../../db/repositories/shop/checkout-reads.ts';
import { SHOP_FILTER } from '../../../db/tenant.ts';
import { pricingReadKeys } from '../../../domain/shop/pricing-inputs.ts';
import { patched, readsPatch } from '../../../api/storefront/carts/cart-patch.ts';
import { placementOf } from '../../../api/storefront/carts/cart-view.ts';
import { PatchCartBody } from '../../../api/storefront/carts/schemas.ts';
import { createDeliveryType, createPaymentType, insertProduct } from '../../helpers/shop-catalogue.ts';
import { createTestShop, type TestShop } from '../../helpers/shop.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';
import { buyer } from '../../helpers/storefront.ts';

let stack: TestStack;
let shop: TestShop;
const ids = {} as Record<'book' | 'ebook' | 'courier' | 'transfer', number>;

beforeAll(async () => {
  stack = await startTestApp('storefront-cart-reads');
  shop = await createTestShop(stack.app, 'cart-reads');
  ids.courier = await createDeliveryType(stack.app, shop.id, { name: 'Courier', default_price: '12.30' });
  ids.transfer = await createPaymentType(stack.app, shop.id, { name: 'Transfer', default_price: '0.00' });
  [ids.book, ids.ebook] = await Promise.all([insertProduct(stack.orm, shop.id, { name: 'Book' }), insertProduct(stack.orm, shop.id, { name: 'E-book' })]);
});
afterAll(() => stack.close());

function shopEm() {
  const em = stack.orm.em.fork();
  em.setFilterParams(SHOP_FILTER, { shopId: shop.id });
  return em;
}

describe("a cart's read with the cart's", () => {
  const patches: [string, () => Record<string, unknown>][] = [
    ['the checkout (nothing changed)', () => ({})],
    ['a PATCH of items, code, types and address', () => ({ items: [{ product_id: ids.ebook, quantity: 3 }, { product_id: ids.book }, { product_id: ids.ebook }], discount_code: '  Summer_50 ', delivery_type_id: ids.courier, payment_type_id: ids.transfer, email: 'Ola_Nowak@Example.COM' })],
    ['a PATCH clearing them', () => ({ discount_code: null, delivery_type_id: null, payment_type_id: null, email: null, items: [] })],
  ];

  it.each(patches)('is made for the keys pricingReadKeys takes from the cart it stands for: %s', async (_, payload) => {
    const opened = await buyer(stack.app, shop.subdomain).post('/carts', { items: [{ product_id: ids.book, quantity: 2 }, { product_id: ids.ebook }], email: 'Buyer@Example.com' });
    expect(opened.statusCode, opened.body).toBe(201);
    const body = PatchCartBody.parse(payload());
    const em = shopEm();
    const found = await useCartWithReads(em, shop.id, opened.json().data.id, readsPatch(body), { statuses: true });
    const keys = pricingReadKeys(await placementOf(em, patched(found!.cart.state, body)), null);
    const { prefetched } = found!;
    expect(prefetched.input).toMatchObject({ ...keys, productIds: expect.arrayContaining(keys.productIds) });
    expect(readFor(prefetched, { ...keys, now: prefetched.input.now, statuses: true })).toBe(prefetched);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyDiscountPrices, restoreDiscountPrices } from '../../../db/repositories/shop/automatic-discounts.ts';
import { insertProduct } from '../../helpers/shop-catalogue.ts';
import { insertAutomaticDiscount } from '../../helpers/shop-checkout.ts';
import { createTestShop, type TestShop } from '../../helpers/shop.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';
import { buyer, insertRecommendationGroup, type Buyer } from '../../helpers/storefront.ts';

let stack: TestStack;
let shop: TestShop;
let store: Buyer;
const ids = {} as Record<'book' | 'ebook' | 'inactive' | 'hidden' | 'foreign' | 'upsellLow' | 'upsellHigh' | 'notRecommended' | 'offGroup' | 'inactiveUpsell', number>;

beforeAll(async () => {
  stack = await startTestApp('storefront-catalogue');
  const other = await createTestShop(stack.app, 'catalogue-two');
  shop = await createTestShop(stack.app, 'catalogue-one');
  store = buyer(stack.app, shop.subdomain);
  const { orm } = stack;
  ids.book = await insertProduct(orm, shop.id, { name: 'Book & <Co>', price: '49.99', productCategoryIds: [] });
  ids.ebook = await insertProduct(orm, shop.id, { name: 'E-book', price: '29.90', electronic: true, allowPriceChange: true, minimalPrice: '10.00', cartQuantityLimit: 1 });
  ids.inactive = await insertProduct(orm, shop.id, { name: 'Inactive', active: false });
  ids.hidden = await insertProduct(orm, shop.id, { name: 'Hidden', hidden: true });
  ids.foreign = await insertProduct(orm, other.id, { name: 'Foreign' });
  ids.upsellLow = await insertProduct(orm, shop.id, { name: 'Bookmark', price: '5.00' });
  ids.upsellHigh = await insertProduct(orm, shop.id, { name: 'Cover', price: '15.00' });
  ids.notRecommended = await insertProduct(orm, shop.id, { name: 'Pen' });
  ids.offGroup = await insertProduct(orm, shop.id, { name: 'Mug' });
  ids.inactiveUpsell = await insertProduct(orm, shop.id, { name: 'Old poster', active: false });
  await insertRecommendationGroup(orm, shop.id, [
    { productId: ids.book, invokes: true },
    { productId: ids.upsellLow, recommended: true, priority: 1, title: 'Add a bookmark' },
    { productId: ids.upsellHigh, recommended: true, priority: 5, title: 'Protect it' },
    { productId: ids.notRecommended },
    { productId: ids.inactiveUpsell, recommended: true, priority: 9 },
  ]);
  await insertRecommendationGroup(orm, shop.id, [{ productId: ids.book, invokes: true }, { productId: ids.offGroup, recommended: true }], false);
});
afterAll(() => stack.close());

describe('GET /store/v1/:subdomain/products', () => {
  it('lists only active, visible products of this shop, with the buyer-facing fields and no key', async () => {
    const res = await store.get('/products?per_page=100');
    expect(res.statusCode, res.body).toBe(200);
    const listed = res.json().data as { id: number }[];
    const listedIds = listed.map((p) => p.id);
    expect(listedIds).toContain(ids.book);
    for (const id of [ids.inactive, ids.hidden, ids.foreign, ids.inactiveUpsell]) expect(listedIds).not.toContain(id);
    expect(listed.find((p) => p.id === ids.ebook)).toEqual({
      id: ids.ebook,
      name: 'E-book',
      price: '29.90',
      regular_price_displayed: '',
      description_for_cart: '',
      photo_url: '',
      electronic: true,
      allow_price_change: true,
      minimal_price: '10.00',
      cart_quantity_limit: 1,
    });
    expect(res.json().meta).toMatchObject({ page: 1, per_page: 100, total: listed.length });
  });

  it('searches by name and pages', async () => {
    const found = await store.get('/products?search=e-bo');
    expect(found.json().data.map((p: { id: number }) => p.id)).toEqual([ids.ebook]);
    const page = await store.get('/products?per_page=2&page=2');
    expect(page.json().data).toHaveLength(2);
  });

  it('answers 404 for an unknown shop and 422 naming a bad query field', async () => {
    expect((await buyer(stack.app, 'no-such-shop-here').get('/products')).statusCode).toBe(404);
    const bad = await store.get('/products?per_page=1000');
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(['querystring.per_page']);
  });
});

describe('GET /store/v1/:subdomain/products/:id', () => {
  it("returns the product with the active upsell group's recommended items by priority", async () => {
    const res = await store.get(`/products/${ids.book}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ id: ids.book, name: 'Book & <Co>', price: '49.99' });
    expect(res.json().data.recommendations).toEqual([
      { product_id: ids.upsellHigh, name: 'Cover', price: '15.00', title: 'Protect it', subtitle: '' },
      { product_id: ids.upsellLow, name: 'Bookmark', price: '5.00', title: 'Add a bookmark', subtitle: '' },
    ]);
  });

  it('has no recommendations for a product that invokes none', async () => {
    expect((await store.get(`/products/${ids.upsellLow}`)).json().data.recommendations).toEqual([]);
  });

  it('answers 404 for an inactive, hidden, unknown or other shop\'s product', async () => {
    for (const id of [ids.inactive, ids.hidden, ids.foreign, 999_999]) expect((await store.get(`/products/${id}`)).statusCode).toBe(404);
  });
});

describe('the price as charged now', () => {
  it('is the price a running time-limited price-history discount gives, in the catalogue and in a cart; the full price once restored', async () => {
    const product = await insertProduct(stack.orm, shop.id, { name: 'On sale', price: '50.00' });
    const discountId = await insertAutomaticDiscount(stack.orm, shop.id, 'time_limited', 'percentage_product_discount', '20', { relationWithProducts: 'selected_products', productIds: [product] });
    // What the discount's workflow does at its start (activities/shop/time-limited-discount.ts).
    expect(await applyDiscountPrices(stack.orm.em.fork(), shop.id, discountId, new Date())).toBe(1);
    expect((await store.get(`/products/${product}`)).json().data.price).toBe('40.00');
    const cart = await store.post('/carts', { items: [{ product_id: product }] });
    expect(cart.json().data.pricing.total).toBe('40.00');
    await restoreDiscountPrices(stack.orm.em.fork(), shop.id, discountId, new Date());
    expect((await store.get(`/products/${product}`)).json().data.price).toBe('50.00');
    expect((await store.get(`/carts/${cart.json().data.id}`)).json().data.pricing.total).toBe('50.00');
  });
});

describe('OpenAPI', () => {
  it('documents every storefront route with its storefront.* operationId and a summary', async () => {
    const doc = (await stack.app.inject({ method: 'GET', url: '/docs/json' })).json();
    const operations = Object.entries(doc.paths as Record<string, Record<string, { operationId?: string; summary?: string }>>)
      .filter(([path]) => path.startsWith('/store/v1/{subdomain}/'))
      .flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ route: `${method.toUpperCase()} ${path}`, operationId: op.operationId, summary: op.summary })));
    expect(operations.map((o) => o.operationId).sort()).toEqual([
      'storefront.carts.checkout',
      'storefront.carts.create',
      'storefront.carts.get',
      'storefront.carts.update',
      'storefront.feeds.ceneo',
      'storefront.feeds.google',
      'storefront.orders.get',
      'storefront.orders.invoices.read',
      'storefront.products.get',
      'storefront.products.list',
    ]);
    for (const o of operations) expect(o.summary, o.route).toMatch(/\w/);
  });
});

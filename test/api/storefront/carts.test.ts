import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cart, DiscountCode, Order, Product } from '../../../db/entities/shop/index.ts';
import { createDeliveryType, createPaymentType, insertProduct } from '../../helpers/shop-catalogue.ts';
import { insertAutomaticDiscount, insertProductSet } from '../../helpers/shop-checkout.ts';
import { createTestShop, operator, type TestShop } from '../../helpers/shop.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';
import { buyer, insertRecommendationGroup, setSlug, type Buyer } from '../../helpers/storefront.ts';

let stack: TestStack;
let shop: TestShop;
let other: TestShop;
let store: Buyer;
const ids = {} as Record<'book' | 'ebook' | 'flexible' | 'limited' | 'picky' | 'inactive' | 'foreign' | 'bookmark' | 'courier' | 'post' | 'transfer' | 'cod', number>;
const slugs = {} as Record<'plain' | 'linkOnly', string>;

beforeAll(async () => {
  stack = await startTestApp('storefront-carts');
  [shop, other] = await Promise.all([createTestShop(stack.app, 'carts-one'), createTestShop(stack.app, 'carts-two')]);
  store = buyer(stack.app, shop.subdomain);
  const { app, orm } = stack;
  ids.courier = await createDeliveryType(app, shop.id, { name: 'Courier', default_price: '12.30' });
  ids.post = await createDeliveryType(app, shop.id, { name: 'Post', default_price: '8.00' });
  ids.transfer = await createPaymentType(app, shop.id, { name: 'Transfer', default_price: '0.00' });
  ids.cod = await createPaymentType(app, shop.id, { name: 'Cash on delivery', default_price: '5.40', cash_on_delivery: true });
  ids.book = await insertProduct(orm, shop.id, { name: 'Book', price: '49.99', vatRate: 5 });
  ids.ebook = await insertProduct(orm, shop.id, { name: 'E-book', price: '29.90', electronic: true });
  ids.flexible = await insertProduct(orm, shop.id, { name: 'Pay what you want', price: '30.00', allowPriceChange: true, minimalPrice: '15.00' });
  ids.limited = await insertProduct(orm, shop.id, { name: 'Limited', cartQuantityLimit: 2 });
  ids.picky = await insertProduct(orm, shop.id, { name: 'Post only', deliveryTypeIds: [ids.post], paymentTypeIds: [ids.transfer] });
  ids.inactive = await insertProduct(orm, shop.id, { active: false });
  ids.foreign = await insertProduct(orm, other.id, { name: 'Foreign' });
  ids.bookmark = await insertProduct(orm, shop.id, { name: 'Bookmark', price: '5.00' });
  await insertRecommendationGroup(orm, shop.id, [{ productId: ids.book, invokes: true }, { productId: ids.bookmark, recommended: true }]);
  slugs.plain = await setSlug(orm, await insertProductSet(orm, shop.id, '60.00', [{ productId: ids.book }, { productId: ids.ebook }]));
  slugs.linkOnly = await setSlug(orm, await insertProductSet(orm, shop.id, '55.00', [{ productId: ids.book }, { productId: ids.ebook }], { linkOnlyDiscount: true }));
});
afterAll(() => stack.close());

async function newCart(payload: Record<string, unknown> = { items: [{ product_id: ids.book }] }) {
  const res = await store.post('/carts', payload);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
}

/** A PATCH refused with 422 naming `field`, the stored cart unchanged. */
async function expectRefused(cartId: string, payload: Record<string, unknown>, field: string) {
  const before = (await store.get(`/carts/${cartId}`)).json().data;
  const res = await store.patch(`/carts/${cartId}`, payload);
  expect(res.statusCode, res.body).toBe(422);
  expect(Object.keys(res.json().errors), res.body).toContain(field);
  expect((await store.get(`/carts/${cartId}`)).json().data).toEqual(before);
  return res.json().errors as Record<string, string[]>;
}

let codeCount = 0;
async function discountCode(body: Record<string, unknown>) {
  const code = `CART${++codeCount}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
  const res = await stack.app.inject({ method: 'POST', url: '/api/v1/discount_codes', headers: shop.headers(), payload: { code, ...body } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: number; code: string };
}

describe('POST /store/v1/:subdomain/carts', () => {
  it('opens a cart under a random uuid, priced by the placement, with recommendations and the methods the items allow', async () => {
    const cart = await newCart({ items: [{ product_id: ids.book, quantity: 2 }, { product_id: ids.picky }], email: 'Buyer@Example.com' });
    expect(cart.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(cart).toMatchObject({
      email: 'Buyer@Example.com',
      items: [
        { product_id: ids.book, name: 'Book', quantity: 2, unit_price: '49.99', price: '99.98', discount: '0.00', final_price: '99.98' },
        { product_id: ids.picky, quantity: 1, unit_price: '10.00', final_price: '10.00' },
      ],
      pricing: { products_cost: '109.98', delivery_cost: '0.00', payment_cost: '0.00', total_discount: '0.00', total: '109.98' },
      problems: {},
      checked_out: false,
      currency: 'PLN',
      recommendations: [{ product_id: ids.bookmark, name: 'Bookmark', price: '5.00', title: '', subtitle: '' }],
      delivery_types: [{ id: ids.post, name_displayed: 'Post', price: '8.00' }],
      payment_types: [{ id: ids.transfer, name_displayed: 'Transfer', price: '0.00' }],
    });
    const again = await newCart();
    expect(again.id).not.toBe(cart.id);
  });

  it('opens an empty cart priced at zero', async () => {
    const cart = await newCart({});
    expect(cart).toMatchObject({ items: [], pricing: { total: '0.00' }, problems: {}, email: null, product_set: null });
    expect(cart.delivery_types.map((d: { id: number }) => d.id)).toEqual([ids.courier, ids.post]);
  });

  it('refuses unknown, inactive and other shops\' products, and unknown fields, with 422 naming the field; nothing stored', async () => {
    const count = () => stack.orm.em.fork().count(Cart, { shop: shop.id }, { filters: false });
    const before = await count();
    for (const [payload, field] of [
      [{ items: [{ product_id: ids.foreign }] }, 'items.0.product_id'],
      [{ items: [{ product_id: ids.book }, { product_id: ids.inactive }] }, 'items.1.product_id'],
      [{ items: [{ product_id: ids.book }], colour: 'red' }, ''],
      [{ items: [{ product_id: ids.book, quantity: 0 }] }, 'items.0.quantity'],
      [{ email: 'not an address' }, 'email'],
      [{ product_set: 'no-such-set' }, 'product_set'],
    ] as const) {
      const res = await store.post('/carts', payload);
      expect(res.statusCode, res.body).toBe(422);
      if (field) expect(Object.keys(res.json().errors), res.body).toContain(field);
    }
    expect(await count()).toBe(before);
  });

  it('takes a link_only_discount set through its link (the cart opened with it), never by a later PATCH', async () => {
    const viaLink = await newCart({ product_set: slugs.linkOnly });
    expect(viaLink).toMatchObject({ product_set: slugs.linkOnly, pricing: { products_cost: '55.00', total: '55.00' } });
    expect(viaLink.items.map((i: { product_id: number }) => i.product_id)).toEqual([ids.book, ids.ebook]);

    const plain = await newCart({});
    const errors = await expectRefused(plain.id, { product_set: slugs.linkOnly }, 'product_set');
    expect(errors.product_set!.join()).toMatch(/link/);
    const res = await store.patch(`/carts/${plain.id}`, { product_set: slugs.plain });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.pricing.total).toBe('60.00');
    // The linked cart keeps its set across other changes.
    expect((await store.patch(`/carts/${viaLink.id}`, { email: 'a@example.com' })).json().data.pricing.total).toBe('55.00');
  });
});

describe('GET /store/v1/:subdomain/carts/:cart_id', () => {
  /** Seconds since the cart's last use, and its row version (xmin changes with every write of the row). */
  async function usage(cartId: string) {
    const [row] = await stack.orm.em
      .fork()
      .getConnection()
      .execute<{ age_s: number; xmin: string }[]>('select extract(epoch from clock_timestamp() - updated_at)::float8 as age_s, xmin::text from shop_carts where id = ?', [cartId]);
    return row!;
  }

  it('counts a read as use to the hour: a stale last use is written, a fresh one is not written again (nor by another shop\'s read)', async () => {
    const cart = await newCart();
    await stack.orm.em.fork().getConnection().execute("update shop_carts set updated_at = now() - interval '2 days' where id = ?", [cart.id]);
    expect((await buyer(stack.app, other.subdomain).get(`/carts/${cart.id}`)).statusCode).toBe(404);
    expect((await usage(cart.id)).age_s).toBeGreaterThan(24 * 3600);

    expect((await store.get(`/carts/${cart.id}`)).statusCode).toBe(200);
    const touched = await usage(cart.id);
    expect(touched.age_s).toBeLessThan(60);

    expect((await store.get(`/carts/${cart.id}`)).statusCode).toBe(200);
    expect((await usage(cart.id)).xmin).toBe(touched.xmin);
  });
});

describe('PATCH /store/v1/:subdomain/carts/:cart_id', () => {
  it('replaces items, sets methods and addresses, and prices again', async () => {
    const cart = await newCart();
    const res = await store.patch(`/carts/${cart.id}`, {
      items: [{ product_id: ids.book }, { product_id: ids.flexible, price: '20' }],
      delivery_type_id: ids.courier,
      payment_type_id: ids.cod,
      delivery_address: { first_name: 'Anna', city: 'Kraków' },
      comment: 'ring twice',
      ref: 'campaign-7',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      items: [{ product_id: ids.book }, { product_id: ids.flexible, unit_price: '20.00' }],
      pricing: { products_cost: '69.99', delivery_cost: '12.30', payment_cost: '5.40', total: '87.69' },
      delivery_address: { first_name: 'Anna', city: 'Kraków' },
      comment: 'ring twice',
      ref: 'campaign-7',
    });
    const removed = await store.patch(`/carts/${cart.id}`, { delivery_type_id: null, payment_type_id: null });
    expect(removed.json().data.pricing).toMatchObject({ delivery_cost: '0.00', payment_cost: '0.00', total: '69.99' });
  });

  it('refuses each rule of the placement with 422 naming the field and changes nothing', async () => {
    const cart = await newCart();
    await expectRefused(cart.id, { items: [{ product_id: ids.flexible, price: '14.99' }] }, 'items.0.price');
    await expectRefused(cart.id, { items: [{ product_id: ids.book, price: '1.00' }] }, 'items.0.price');
    await expectRefused(cart.id, { items: [{ product_id: ids.limited, quantity: 3 }] }, 'items.0.quantity');
    await expectRefused(cart.id, { items: [{ product_id: ids.picky }], delivery_type_id: ids.courier }, 'delivery_type_id');
    await expectRefused(cart.id, { items: [{ product_id: ids.picky }], payment_type_id: ids.cod }, 'payment_type_id');
    await expectRefused(cart.id, { delivery_type_id: 999_999 }, 'delivery_type_id');
    await expectRefused(cart.id, { discount_code: 'NO-SUCH-CODE' }, 'discount_code');
    await expectRefused(cart.id, { items: [{ product_id: ids.foreign }] }, 'items.0.product_id');
    await expectRefused(cart.id, { newsletter: 'yes' }, 'newsletter');
    await expectRefused(cart.id, { delivery_address: { planet: 'Mars' } }, 'delivery_address.planet');
  });

  it('applies a discount code and removes it with null', async () => {
    const code = await discountCode({ discount_type: 'percentage_discount', value: '10' });
    const cart = await newCart({ items: [{ product_id: ids.book, quantity: 2 }] });
    const res = await store.patch(`/carts/${cart.id}`, { discount_code: code.code });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ discount_code: code.code, pricing: { products_cost: '99.98', total_discount: '10.00', total: '89.98' } });
    const removed = await store.patch(`/carts/${cart.id}`, { discount_code: null });
    expect(removed.json().data).toMatchObject({ discount_code: null, pricing: { total_discount: '0.00', total: '99.98' } });
  });

  it('applies automatic discounts: e-mail address, domain, and newsletter consent given in the cart', async () => {
    const s = await createTestShop(stack.app, 'carts-auto');
    const book = await insertProduct(stack.orm, s.id, { name: 'Book', price: '100.00' });
    await insertAutomaticDiscount(stack.orm, s.id, 'email_address', 'percentage_discount', '10', { email: 'vip@example.com' });
    await insertAutomaticDiscount(stack.orm, s.id, 'email_domain', 'value_discount', '5.00', { emailDomain: 'firm.example' });
    await insertAutomaticDiscount(stack.orm, s.id, 'newsletter', 'percentage_discount', '20');
    const b = buyer(stack.app, s.subdomain);
    const cart = (await b.post('/carts', { items: [{ product_id: book }] })).json().data;
    const discountFor = async (patch: Record<string, unknown>) => {
      const res = await b.patch(`/carts/${cart.id}`, patch);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.pricing.total_discount as string;
    };
    expect(await discountFor({ email: 'someone@example.com' })).toBe('0.00');
    expect(await discountFor({ email: 'VIP@example.com' })).toBe('10.00');
    expect(await discountFor({ email: 'boss@firm.example' })).toBe('5.00');
    expect(await discountFor({ newsletter: true })).toBe('20.00');
    expect(await discountFor({ newsletter: false, email: null })).toBe('0.00');
  });

  it('answers 404 for an unknown cart, another shop\'s cart and a malformed id (4xx)', async () => {
    const cart = await newCart();
    expect((await store.patch('/carts/00000000-0000-4000-8000-000000000000', { comment: 'x' })).statusCode).toBe(404);
    expect((await buyer(stack.app, other.subdomain).get(`/carts/${cart.id}`)).statusCode).toBe(404);
    expect((await buyer(stack.app, other.subdomain).patch(`/carts/${cart.id}`, { comment: 'x' })).statusCode).toBe(404);
    const malformed = await store.get('/carts/not-a-uuid');
    expect(malformed.statusCode).toBe(422);
    expect(Object.keys(malformed.json().errors)).toEqual(['params.cart_id']);
  });

  it('shows a cart whose product was switched off since with pricing null and the problem named', async () => {
    const product = await insertProduct(stack.orm, shop.id, { name: 'Soon gone' });
    const cart = await newCart({ items: [{ product_id: product }] });
    await stack.orm.em.fork().nativeUpdate(Product, { id: product }, { active: false }, { filters: false });
    const res = await store.get(`/carts/${cart.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.pricing).toBeNull();
    expect(Object.keys(res.json().data.problems)).toEqual(['items.0.product_id']);
  });

  it('follows the panel\'s edits of its delivery and payment types: a new price, and a type switched off refused at checkout naming the field', async () => {
    const delivery = await createDeliveryType(stack.app, shop.id, { name: 'Locker', default_price: '9.00' });
    const payment = await createPaymentType(stack.app, shop.id, { name: 'Blik', default_price: '1.00' });
    const cart = await newCart({ items: [{ product_id: ids.book }], email: 'edits@example.com' });
    const chosen = await store.patch(`/carts/${cart.id}`, { delivery_type_id: delivery, payment_type_id: payment });
    expect(chosen.json().data.pricing).toMatchObject({ delivery_cost: '9.00', payment_cost: '1.00' });
    const edit = async (what: string, id: number, body: object) => {
      const res = await stack.app.inject({ method: 'PATCH', url: `/admin/v1/shops/${shop.id}/${what}/${id}`, headers: operator, payload: body });
      expect(res.statusCode, res.body).toBe(200);
    };
    await edit('delivery_types', delivery, { default_price: '11.00' });
    expect((await store.get(`/carts/${cart.id}`)).json().data.pricing).toMatchObject({ delivery_cost: '11.00', payment_cost: '1.00' });

    for (const [what, id, field] of [['delivery_types', delivery, 'delivery_type_id'], ['payment_types', payment, 'payment_type_id']] as const) {
      await edit(what, id, { active: false });
      const offered = (await store.get(`/carts/${cart.id}`)).json().data[what] as { id: number }[];
      expect(offered.map((t) => t.id)).not.toContain(id);
      const refused = await store.post(`/carts/${cart.id}/checkout`);
      expect(refused.statusCode, refused.body).toBe(422);
      expect(Object.keys(refused.json().errors)).toContain(field);
      await edit(what, id, { active: true });
    }
  });

  it('caps the body size (413) and refuses non-JSON writes (415)', async () => {
    const cart = await newCart();
    const big = await store.patch(`/carts/${cart.id}`, { comment: 'x'.repeat(70 * 1024) });
    expect(big.statusCode).toBe(413);
    const text = await stack.app.inject({ method: 'PATCH', url: `/store/v1/${shop.subdomain}/carts/${cart.id}`, headers: { 'content-type': 'text/plain' }, payload: 'comment=x' });
    expect(text.statusCode).toBe(415);
  });
});

/** The statements the app sends to PostgreSQL while `run` runs (every connection: this process's pg clients). */
async function statementsOf(run: () => Promise<void>): Promise<number> {
  const query = pg.Client.prototype.query;
  let count = 0;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    count++;
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  try {
    await run();
  } finally {
    pg.Client.prototype.query = query;
  }
  return count;
}

describe('a cart read and its pricing read in one statement (issue 26 item 2)', () => {
  it('a PATCH and a checkout each take the cart with the read made for its state: two statements, the write and the read', async () => {
    const code = await discountCode({ discount_type: 'percentage_discount', value: '10' });
    const cart = await newCart({ items: [{ product_id: ids.ebook }, { product_id: ids.bookmark }], email: 'Counted@Example.com' });
    let patched: { statusCode: number; body: string } | undefined;
    const patchStatements = await statementsOf(async () => {
      patched = await store.patch(`/carts/${cart.id}`, { discount_code: ` ${code.code} `, payment_type_id: ids.transfer, invoice_address: { first_name: 'Ola', last_name: 'Nowak', city: 'Kraków' } });
    });
    expect(patched!.statusCode, patched!.body).toBe(200);
    let placed: { statusCode: number; body: string } | undefined;
    const checkoutStatements = await statementsOf(async () => {
      placed = await store.post(`/carts/${cart.id}/checkout`);
    });
    expect(placed!.statusCode, placed!.body).toBe(201);
    // A third statement means the read made with the cart's was not the pricing's (its inputs differed) and was made again.
    expect({ patchStatements, checkoutStatements }).toEqual({ patchStatements: 2, checkoutStatements: 2 });
  });
});

describe('POST /store/v1/:subdomain/carts/:cart_id/checkout', () => {
  it('places the order as the operator placement does: the cart id as uuid, placed_ip the client, a code use counted; a repeat answers the same order', async () => {
    const code = await discountCode({ discount_type: 'percentage_discount', value: '10', usages_limit: 5 });
    const client = buyer(stack.app, shop.subdomain, '203.0.113.7');
    const cart = (await client.post('/carts', { items: [{ product_id: ids.book }], email: 'Checkout@Example.com' })).json().data;
    await client.patch(`/carts/${cart.id}`, { discount_code: code.code, delivery_type_id: ids.courier, payment_type_id: ids.transfer, newsletter: false });
    const priced = (await client.get(`/carts/${cart.id}`)).json().data.pricing;

    const res = await client.post(`/carts/${cart.id}/checkout`);
    expect(res.statusCode, res.body).toBe(201);
    const placed = res.json().data;
    expect(placed).toMatchObject({ uuid: cart.id, total: priced.total, currency: 'PLN', payment: null });
    expect(placed.order_id).toBeTypeOf('number');
    expect(placed.ordinal_number).toBeTypeOf('number');

    const order = await stack.orm.em.fork().findOneOrFail(Order, placed.order_id, { filters: false });
    expect(order).toMatchObject({ uuid: cart.id, placedIp: '203.0.113.7', email: 'checkout@example.com', total: priced.total, discountCodeId: code.id, internalStatus: 'placed', paid: false });
    expect((await stack.orm.em.fork().findOneOrFail(DiscountCode, code.id, { filters: false })).usages).toBe(1);

    const repeat = await client.post(`/carts/${cart.id}/checkout`);
    expect(repeat.statusCode).toBe(200);
    expect(repeat.json().data).toEqual(placed);
    expect((await stack.orm.em.fork().findOneOrFail(DiscountCode, code.id, { filters: false })).usages).toBe(1);

    const refused = await client.patch(`/carts/${cart.id}`, { comment: 'too late' });
    expect(refused.statusCode).toBe(409);
    expect((await client.get(`/carts/${cart.id}`)).json().data).toMatchObject({ checked_out: true, comment: '' });
  });

  it('of two concurrent checkouts of one cart stores one order (a single-use code too)', async () => {
    const code = await discountCode({ discount_type: 'percentage_discount', value: '10', usages_limit: 1 });
    const cart = await newCart({ items: [{ product_id: ids.book }], email: 'race@example.com' });
    await store.patch(`/carts/${cart.id}`, { discount_code: code.code });
    const replies = await Promise.all([1, 2, 3].map(() => store.post(`/carts/${cart.id}/checkout`)));
    expect(replies.map((r) => r.statusCode).sort()).toEqual([200, 200, 201]);
    expect(new Set(replies.map((r) => r.json().data.order_id)).size).toBe(1);
    expect(await stack.orm.em.fork().count(Order, { uuid: cart.id }, { filters: false })).toBe(1);
    expect((await stack.orm.em.fork().findOneOrFail(DiscountCode, code.id, { filters: false })).usages).toBe(1);
  });

  it('gives ordinal numbers in sequence', async () => {
    const numbers: number[] = [];
    for (let i = 0; i < 2; i++) {
      const cart = await newCart({ items: [{ product_id: ids.ebook }], email: `n${i}@example.com` });
      numbers.push((await store.post(`/carts/${cart.id}/checkout`)).json().data.ordinal_number);
    }
    expect(numbers[1]).toBe(numbers[0]! + 1);
  });

  it('refuses a cart without an e-mail or items (422 naming the field), places nothing, and 404s an unknown cart', async () => {
    const noEmail = await newCart();
    const res = await store.post(`/carts/${noEmail.id}/checkout`);
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['email']);
    const empty = await newCart({ email: 'empty@example.com' });
    const emptyRes = await store.post(`/carts/${empty.id}/checkout`);
    expect(emptyRes.statusCode).toBe(422);
    expect(Object.keys(emptyRes.json().errors)).toEqual(['items']);
    expect(await stack.orm.em.fork().count(Order, { uuid: { $in: [noEmail.id, empty.id] } }, { filters: false })).toBe(0);
    expect((await store.patch(`/carts/${empty.id}`, { comment: 'still open' })).statusCode).toBe(200);
    expect((await store.post('/carts/00000000-0000-4000-8000-000000000000/checkout')).statusCode).toBe(404);
  });
});

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { applyDiscountPrices, reapplyDiscountPrices, restoreDiscountPrices } from '../../../db/repositories/shop/automatic-discounts.ts';
import { shopEm } from '../../../db/repositories/shared/tenant-em.ts';
import { timeLimitedDiscountWorkflowId } from '../../../domain/shop/workflow-ids.ts';
import { insertProduct } from '../../helpers/shop-catalogue.ts';
import { adminPost, createTestShop, type TestShop } from '../../helpers/shop.ts';
import { eventually, startTestApp, startTestWorker, type RunningWorker, type TestStack } from '../../helpers/stack.ts';

/**
 * The price-history variants of time-limited discounts against the database: which products are
 * repriced, the original price kept, idempotent apply and restore, no stacking, an owner's edit
 * kept; and the whole path through the API and a real worker with a window of seconds.
 */
let stack: TestStack;
let worker: RunningWorker;
let shop: TestShop;
let other: TestShop;

beforeAll(async () => {
  stack = await startTestApp('shop-automatic-discount-prices');
  worker = await startTestWorker({ taskQueue: stack.taskQueue, orm: stack.orm });
  [shop, other] = await Promise.all([createTestShop(stack.app, 'prices-one'), createTestShop(stack.app, 'prices-two')]);
});
afterAll(async () => {
  await worker.stop();
  await stack.close();
});

const sql = <T extends Record<string, unknown>[] = Record<string, unknown>[]>(query: string, params: unknown[] = []) => stack.orm.em.fork().getConnection().execute<T>(query, params);
const priceOf = async (id: number) => (await sql<{ price: string }[]>('select price from shop_products where id = ?', [id]))[0]!.price;
const historyOf = (discountId: number) =>
  sql<{ product_id: number; original_price: string; discounted_price: string; restored: boolean }[]>(
    'select product_id, original_price, discounted_price, restored_at is not null as restored from shop_product_price_changes where discount_id = ? order by product_id',
    [discountId],
  );

async function insertDiscount(on: TestShop, fields: Record<string, unknown>): Promise<number> {
  const row = { kind: 'time_limited', discount_type: 'percentage_product_discount', value: '10', relation_with_products: 'all_products', product_ids: '{}', product_category_ids: '{}', ...fields };
  const keys = Object.keys(row);
  const [inserted] = await sql<{ id: number }[]>(
    `insert into shop_automatic_discounts (shop_id, start_date, end_date, created_at, updated_at, ${keys.join(', ')})
     values (?, now(), now() + interval '1 day', now(), now(), ${keys.map(() => '?').join(', ')}) returning id`,
    [on.id, ...Object.values(row)],
  );
  return inserted!.id;
}
const apply = (on: TestShop, id: number) => applyDiscountPrices(shopEm(stack.orm, on.id), on.id, id, new Date());
const restore = (on: TestShop, id: number) => restoreDiscountPrices(shopEm(stack.orm, on.id), on.id, id, new Date());

describe('applyDiscountPrices and restoreDiscountPrices', () => {
  it('reprice only the products the relation takes in, keep the originals, and restore them; both are idempotent', async () => {
    const category = (await adminPost(stack.app, `/admin/v1/shops/${shop.id}/product_categories`, { name: 'Sale' })).id as number;
    const inCategory = await insertProduct(stack.orm, shop.id, { price: '19.99' });
    const outside = await insertProduct(stack.orm, shop.id, { price: '10.00' });
    const hidden = await insertProduct(stack.orm, shop.id, { price: '10.00', hidden: true });
    const foreign = await insertProduct(stack.orm, other.id, { price: '10.00' });
    await sql('update shop_products set product_category_ids = ? where id = ?', [`{${category}}`, inCategory]);
    const id = await insertDiscount(shop, { discount_type: 'percentage_product_discount', value: '33.33', relation_with_products: 'selected_categories', product_category_ids: `{${category}}` });

    expect(await apply(shop, id)).toBe(1);
    expect(await apply(shop, id)).toBe(0);
    expect(await priceOf(inCategory)).toBe('13.33');
    expect([await priceOf(outside), await priceOf(hidden), await priceOf(foreign)]).toEqual(['10.00', '10.00', '10.00']);
    expect(await historyOf(id)).toEqual([{ product_id: inCategory, original_price: '19.99', discounted_price: '13.33', restored: false }]);

    expect(await restore(shop, id)).toBe(1);
    expect(await restore(shop, id)).toBe(0);
    expect(await priceOf(inCategory)).toBe('19.99');
    expect(await historyOf(id)).toEqual([{ product_id: inCategory, original_price: '19.99', discounted_price: '13.33', restored: true }]);
  });

  it('products_except and a value discount never below zero', async () => {
    const cheap = await insertProduct(stack.orm, shop.id, { price: '3.00' });
    const excluded = await insertProduct(stack.orm, shop.id, { price: '30.00' });
    const id = await insertDiscount(shop, { discount_type: 'value_product_discount', value: '5', relation_with_products: 'products_except', product_ids: `{${excluded}}` });
    await apply(shop, id);
    expect(await priceOf(cheap)).toBe('0.00');
    expect(await priceOf(excluded)).toBe('30.00');
    await restore(shop, id);
    expect(await priceOf(cheap)).toBe('3.00');
  });

  it('two discounts never stack on one price, and a restore keeps a price the owner changed meanwhile', async () => {
    const product = await insertProduct(stack.orm, shop.id, { price: '100.00' });
    const first = await insertDiscount(shop, { relation_with_products: 'selected_products', product_ids: `{${product}}` });
    const second = await insertDiscount(shop, { discount_type: 'value_product_discount', value: '1', relation_with_products: 'selected_products', product_ids: `{${product}}` });
    expect(await apply(shop, first)).toBe(1);
    expect(await apply(shop, second)).toBe(0);
    expect(await priceOf(product)).toBe('90.00');
    await sql('update shop_products set price = ? where id = ?', ['80.00', product]);
    await restore(shop, first);
    expect(await priceOf(product)).toBe('80.00');
    expect((await historyOf(first))[0]).toMatchObject({ original_price: '100.00', restored: true });
  });

  it('an inactive discount, an order-discount type or another shop\'s discount changes no price', async () => {
    const product = await insertProduct(stack.orm, shop.id, { price: '10.00' });
    const only = { relation_with_products: 'selected_products', product_ids: `{${product}}` };
    expect(await apply(shop, await insertDiscount(shop, { ...only, active: false }))).toBe(0);
    expect(await apply(shop, await insertDiscount(shop, { ...only, discount_type: 'percentage_discount' }))).toBe(0);
    expect(await apply(other, await insertDiscount(shop, only))).toBe(0);
    expect(await priceOf(product)).toBe('10.00');
  });
});

describe('locks, reapply and DELETE', () => {
  it('apply locks only the products the discount takes in: a lock held on another product of the shop does not stop it', async () => {
    const affected = await insertProduct(stack.orm, shop.id, { price: '10.00' });
    const unrelated = await insertProduct(stack.orm, shop.id, { price: '10.00' });
    const id = await insertDiscount(shop, { relation_with_products: 'selected_products', product_ids: `{${affected}}` });
    const holder = stack.orm.em.fork();
    await holder.begin();
    try {
      await holder.execute('select id from shop_products where id = ? for update', [unrelated]);
      const applied = apply(shop, id);
      const timeout = new Promise((resolve) => setTimeout(() => resolve('blocked'), 3000));
      expect(await Promise.race([applied, timeout])).toBe(1);
    } finally {
      await holder.rollback();
    }
    expect(await priceOf(affected)).toBe('9.00');
    await restore(shop, id);
  });

  it('reapply recalculates from the original prices in one step and takes in products the new settings add', async () => {
    const first = await insertProduct(stack.orm, shop.id, { price: '50.00' });
    const second = await insertProduct(stack.orm, shop.id, { price: '20.00' });
    const id = await insertDiscount(shop, { relation_with_products: 'selected_products', product_ids: `{${first}}` });
    await apply(shop, id);
    expect(await priceOf(first)).toBe('45.00');
    await sql('update shop_automatic_discounts set value = 50, product_ids = ? where id = ?', [`{${first},${second}}`, id]);
    expect(await reapplyDiscountPrices(shopEm(stack.orm, shop.id), shop.id, id, new Date())).toBe(2);
    expect([await priceOf(first), await priceOf(second)]).toEqual(['25.00', '10.00']);
    expect(await restore(shop, id)).toBe(2);
    expect([await priceOf(first), await priceOf(second)]).toEqual(['50.00', '20.00']);
  });

  it('DELETE restores the prices in its own transaction, also when the workflow cannot be told', async () => {
    const product = await insertProduct(stack.orm, shop.id, { price: '40.00' });
    const id = await insertDiscount(shop, { relation_with_products: 'selected_products', product_ids: `{${product}}` });
    await apply(shop, id);
    expect(await priceOf(product)).toBe('36.00');
    const getHandle = vi.spyOn(stack.temporal.workflow, 'getHandle').mockReturnValue({ signal: () => Promise.reject(new Error('connection refused')) } as never);
    try {
      const res = await stack.app.inject({ method: 'DELETE', url: `/api/v1/time_limited_discounts/${id}`, headers: shop.headers() });
      expect(res.statusCode, res.body).toBe(200);
    } finally {
      getHandle.mockRestore();
    }
    expect(await priceOf(product)).toBe('40.00');
    expect(await historyOf(id)).toEqual([{ product_id: product, original_price: '40.00', discounted_price: '36.00', restored: true }]);
  });
});

describe('time-limited price-history discount through the API and a worker', () => {
  const call = (method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    stack.app.inject({ method, url: `/api/v1${url}`, headers: shop.headers(), ...(payload ? { payload } : {}) });

  it('changes the prices at start_date and restores them at end_date', async () => {
    const product = await insertProduct(stack.orm, shop.id, { price: '50.00' });
    const start = new Date(Date.now() + 2000);
    const res = await call('POST', '/time_limited_discounts', {
      discount_type: 'percentage_product_discount', value: '20', relation_with_products: 'selected_products', product_ids: [product],
      start_date: start.toISOString(), end_date: new Date(start.getTime() + 5000).toISOString(),
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(await priceOf(product)).toBe('50.00');
    await eventually(async () => expect(await priceOf(product)).toBe('40.00'), { timeoutMs: 15_000 });
    await eventually(async () => expect(await priceOf(product)).toBe('50.00'), { timeoutMs: 15_000 });
    const handle = stack.temporal.workflow.getHandle(timeLimitedDiscountWorkflowId({ shopId: shop.id, discountId: res.json().data.id }));
    await handle.result();
  });

  it('DELETE during the window restores the prices at once', async () => {
    const product = await insertProduct(stack.orm, shop.id, { price: '50.00' });
    const res = await call('POST', '/time_limited_discounts', {
      discount_type: 'value_product_discount', value: '7.5', relation_with_products: 'selected_products', product_ids: [product],
      start_date: new Date(Date.now() + 500).toISOString(), end_date: new Date(Date.now() + 86_400_000).toISOString(),
    });
    expect(res.statusCode, res.body).toBe(201);
    await eventually(async () => expect(await priceOf(product)).toBe('42.50'), { timeoutMs: 15_000 });
    expect((await call('DELETE', `/time_limited_discounts/${res.json().data.id}`)).statusCode).toBe(200);
    await eventually(async () => expect(await priceOf(product)).toBe('50.00'), { timeoutMs: 15_000 });
  });

  it('a PATCH of the value during the window recalculates from the original price', async () => {
    const product = await insertProduct(stack.orm, shop.id, { price: '50.00' });
    const res = await call('POST', '/time_limited_discounts', {
      discount_type: 'percentage_product_discount', value: '10', relation_with_products: 'selected_products', product_ids: [product],
      start_date: new Date(Date.now() + 500).toISOString(), end_date: new Date(Date.now() + 86_400_000).toISOString(),
    });
    const id = res.json().data.id as number;
    await eventually(async () => expect(await priceOf(product)).toBe('45.00'), { timeoutMs: 15_000 });
    expect((await call('PATCH', `/time_limited_discounts/${id}`, { value: '50' })).statusCode).toBe(200);
    await eventually(async () => expect(await priceOf(product)).toBe('25.00'), { timeoutMs: 15_000 });
    // A type without price history restores the product's own price.
    expect((await call('PATCH', `/time_limited_discounts/${id}`, { discount_type: 'percentage_discount' })).statusCode).toBe(200);
    await eventually(async () => expect(await priceOf(product)).toBe('50.00'), { timeoutMs: 15_000 });
    expect((await call('DELETE', `/time_limited_discounts/${id}`)).statusCode).toBe(200);
    await stack.temporal.workflow.getHandle(timeLimitedDiscountWorkflowId({ shopId: shop.id, discountId: id })).result();
  });
});

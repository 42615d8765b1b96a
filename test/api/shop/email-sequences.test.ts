import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SubscriptionPlan } from '../../../db/entities/shop/index.ts';
import { SHOP_FILTER } from '../../../db/tenant.ts';
import { insertProduct } from '../../helpers/shop-catalogue.ts';
import { adminPost, createTestShop, operator, type TestShop } from '../../helpers/shop.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';

/** Mail sequences: the operator's creation and `/api/v1/configuration/email_sequences` (rules 1-3). */
let stack: TestStack;
let shop: TestShop;
let other: TestShop;
let senderId: number;
let otherSenderId: number;
let productIds: number[];
let extraContentsCodeId: number;
let valueCodeId: number;

beforeAll(async () => {
  stack = await startTestApp('shop-email-sequences');
  [shop, other] = await Promise.all([createTestShop(stack.app, 'seq-one'), createTestShop(stack.app, 'seq-two')]);
  senderId = (await adminPost(stack.app, `/admin/v1/shops/${shop.id}/senders`, { name: 'Shop', email: 'shop@example.com' })).id;
  otherSenderId = (await adminPost(stack.app, `/admin/v1/shops/${other.id}/senders`, { name: 'Other', email: 'other@example.com' })).id;
  productIds = [await insertProduct(stack.orm, shop.id), await insertProduct(stack.orm, shop.id)];
  const code = async (payload: object) => {
    const res = await stack.app.inject({ method: 'POST', url: '/api/v1/discount_codes', headers: shop.headers(), payload });
    if (res.statusCode !== 201) throw new Error(res.body);
    return res.json().data.id as number;
  };
  extraContentsCodeId = await code({ code: `EXTRA-${Date.now()}`, discount_type: 'free_contents' });
  valueCodeId = await code({ code: `VALUE-${Date.now()}`, discount_type: 'value_discount', value: '5.00' });
});
afterAll(() => stack.close());

const items = [
  { email: { subject: 'Welcome {{EMAIL}}', content: '<p>Hello</p>' }, offset_amount: 0, offset_unit: 'minutes' },
  { email: { subject: 'Day two', content: '<p>Tips</p>' }, offset_amount: 2, offset_unit: 'days' },
  { email: { subject: 'Later', content: '<p>More</p>' }, offset_amount: 36, offset_unit: 'hours' },
];

const createSequence = (payload: object, shopId = shop.id) =>
  stack.app.inject({ method: 'POST', url: `/admin/v1/shops/${shopId}/email_sequences`, headers: { ...operator, 'content-type': 'application/json' }, payload });
async function newSequence(): Promise<number> {
  const res = await createSequence({ name: 'Onboarding', sender_id: senderId, items });
  expect(res.statusCode).toBe(201);
  return res.json().data.id;
}
const get = (url: string, s: TestShop = shop, scope?: Parameters<TestShop['headers']>[0]) => stack.app.inject({ method: 'GET', url, headers: s.headers(scope) });
const patch = (id: number, payload: object, s: TestShop = shop, scope?: Parameters<TestShop['headers']>[0]) =>
  stack.app.inject({ method: 'PATCH', url: `/api/v1/configuration/email_sequences/${id}`, headers: s.headers(scope), payload });

describe('POST /admin/v1/shops/:shop_id/email_sequences', () => {
  it('answers 201 with the sequence exactly as GET returns it, with computed timings and no triggers', async () => {
    const res = await createSequence({ name: 'Onboarding', sender_id: senderId, items });
    expect(res.statusCode).toBe(201);
    const created = res.json().data;
    expect(created).toMatchObject({
      name: 'Onboarding',
      sender_id: senderId,
      sending_time: '09:00',
      only_first_purchase: false,
      triggers: { status_id: null, products_dependent: false, product_ids: [], discount_code_id: null, subscription_plan_id: null, newsletter_subscription: false, first_subscription_entry: false },
      recipient_discount_code: { enabled: false, value: null, validity_days: null, product_ids: [] },
    });
    expect(created.items.map((i: { offset_unit: string; days_offset: number; offset_hours: number; schedule: string }) => [i.offset_unit, i.days_offset, i.offset_hours, i.schedule])).toEqual([
      ['minutes', 0, 0, 'immediately after the trigger'],
      ['days', 2, 48, '2 days after the trigger, at 09:00 (Europe/Warsaw)'],
      ['hours', 0, 36, '36 hours after the trigger'],
    ]);
    const read = await get(`/api/v1/configuration/email_sequences/${created.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json().data).toEqual(created);
  });

  it('refuses a bad unit, a negative or too large offset, no messages, and a sender of another shop (422 naming the field)', async () => {
    const bad = async (payload: object, field: string) => {
      const res = await createSequence(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(Object.keys(res.json().errors).join(' ')).toContain(field);
    };
    await bad({ name: 'x', items: [{ ...items[0], offset_unit: 'weeks' }] }, 'offset_unit');
    await bad({ name: 'x', items: [{ ...items[0], offset_amount: -1 }] }, 'offset_amount');
    await bad({ name: 'x', items: [{ ...items[0], offset_amount: 4000, offset_unit: 'days' }] }, 'offset_amount');
    await bad({ name: 'x', items: [] }, 'items');
    await bad({ name: '', items }, 'name');
    await bad({ name: 'x', sender_id: otherSenderId, items }, 'sender_id');
    expect((await createSequence({ name: 'x', items }, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });
});

describe('GET /api/v1/configuration/email_sequences', () => {
  it('lists the shop\'s sequences only, paged, with scope read', async () => {
    const id = await newSequence();
    const list = await get('/api/v1/configuration/email_sequences?per_page=100', shop, 'read');
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((s: { id: number }) => s.id)).toContain(id);
    expect(list.json().meta).toMatchObject({ page: 1, per_page: 100 });
    const otherList = await get('/api/v1/configuration/email_sequences', other);
    expect(otherList.json().data.map((s: { id: number }) => s.id)).not.toContain(id);
  });

  it('answers 404 for a sequence of another shop or an unknown id, 403 without read, 401 without a key', async () => {
    const id = await newSequence();
    expect((await get(`/api/v1/configuration/email_sequences/${id}`, other)).statusCode).toBe(404);
    expect((await get('/api/v1/configuration/email_sequences/999999999')).statusCode).toBe(404);
    expect((await get('/api/v1/configuration/email_sequences/abc')).statusCode).toBe(404);
    expect((await get(`/api/v1/configuration/email_sequences/${id}`, shop, 'write_storefront')).statusCode).toBe(403);
    expect((await stack.app.inject({ method: 'GET', url: `/api/v1/configuration/email_sequences/${id}` })).statusCode).toBe(401);
  });
});

describe('PATCH /api/v1/configuration/email_sequences/:id', () => {
  it('needs write_storefront: read or write_config keys get 403', async () => {
    const id = await newSequence();
    expect((await patch(id, { name: 'x' }, shop, 'read')).statusCode).toBe(403);
    expect((await patch(id, { name: 'x' }, shop, 'write_config')).statusCode).toBe(403);
    expect((await patch(id, { name: 'x' }, shop, 'write_storefront')).statusCode).toBe(200);
  });

  it('changes only the fields sent; triggers not sent stay, also when only the name changes', async () => {
    const id = await newSequence();
    const set = await patch(id, { triggers: { status_id: shop.statuses.Paid, products_dependent: true, product_ids: productIds, discount_code_id: extraContentsCodeId, newsletter_subscription: true } });
    expect(set.statusCode, set.body).toBe(200);
    const renamed = await patch(id, { name: 'Renamed', sending_time: '18:30', only_first_purchase: true });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().data).toMatchObject({
      name: 'Renamed',
      sending_time: '18:30',
      only_first_purchase: true,
      sender_id: senderId,
      triggers: { status_id: shop.statuses.Paid, products_dependent: true, product_ids: productIds, discount_code_id: extraContentsCodeId, newsletter_subscription: true },
    });
    expect(renamed.json().data.items[1].schedule).toBe('2 days after the trigger, at 18:30 (Europe/Warsaw)');
    const partial = await patch(id, { triggers: { newsletter_subscription: false } });
    expect(partial.json().data.triggers).toMatchObject({ status_id: shop.statuses.Paid, product_ids: productIds, newsletter_subscription: false });
    expect((await get(`/api/v1/configuration/email_sequences/${id}`)).json().data).toEqual(partial.json().data);
  });

  it('replaces the product list, only with products_dependent; an empty list is 422; false clears it', async () => {
    const id = await newSequence();
    await patch(id, { triggers: { status_id: shop.statuses.Paid, products_dependent: true, product_ids: productIds } });
    const replaced = await patch(id, { triggers: { product_ids: [productIds[1]] } });
    expect(replaced.json().data.triggers.product_ids).toEqual([productIds[1]]);
    const empty = await patch(id, { triggers: { product_ids: [] } });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors).toHaveProperty(['triggers.product_ids']);
    const off = await patch(id, { triggers: { products_dependent: false } });
    expect(off.json().data.triggers).toMatchObject({ products_dependent: false, product_ids: [] });
    const without = await patch(id, { triggers: { product_ids: productIds } });
    expect(without.statusCode).toBe(422);
    expect(without.json().errors['triggers.product_ids']).toEqual(['works only with products_dependent true']);
  });

  it('two PATCHes at once never leave a product list without products_dependent', async () => {
    const id = await newSequence();
    for (let round = 0; round < 5; round += 1) {
      await patch(id, { triggers: { status_id: shop.statuses.Paid, products_dependent: true, product_ids: productIds } });
      const [off, replace] = await Promise.all([patch(id, { triggers: { products_dependent: false } }), patch(id, { triggers: { product_ids: [productIds[0]] } })]);
      expect(off.statusCode).toBe(200);
      expect([200, 422]).toContain(replace.statusCode);
      const { triggers } = (await get(`/api/v1/configuration/email_sequences/${id}`)).json().data;
      expect(triggers).toMatchObject({ products_dependent: false, product_ids: [] });
    }
  });

  it('status_id null turns off the status trigger with its narrowing', async () => {
    const id = await newSequence();
    await patch(id, { triggers: { status_id: shop.statuses.Paid, products_dependent: true, product_ids: productIds, discount_code_id: extraContentsCodeId } });
    const off = await patch(id, { triggers: { status_id: null } });
    expect(off.json().data.triggers).toMatchObject({ status_id: null, products_dependent: false, product_ids: [], discount_code_id: null });
  });

  it('refuses ids of another shop and the wrong code kind with 422, saving nothing of the write', async () => {
    const id = await newSequence();
    const before = (await get(`/api/v1/configuration/email_sequences/${id}`)).json().data;
    const cases: [object, string][] = [
      [{ sender_id: otherSenderId }, 'sender_id'],
      [{ name: 'Changed', triggers: { status_id: other.statuses.Paid } }, 'triggers.status_id'],
      [{ triggers: { status_id: shop.statuses.Paid, products_dependent: true, product_ids: [await insertProduct(stack.orm, other.id)] } }, 'triggers.product_ids'],
      [{ triggers: { status_id: shop.statuses.Paid, discount_code_id: valueCodeId } }, 'triggers.discount_code_id'],
      [{ triggers: { discount_code_id: extraContentsCodeId } }, 'triggers.discount_code_id'],
      [{ triggers: { products_dependent: true, product_ids: productIds } }, 'triggers.products_dependent'],
      [{ triggers: { first_subscription_entry: true } }, 'triggers.first_subscription_entry'],
      [{ triggers: { subscription_plan_id: 999999 } }, 'triggers.subscription_plan_id'],
      [{ sending_time: '24:00' }, 'sending_time'],
      [{ items: [] }, 'items'],
      [{ recipient_discount_code: { enabled: true } }, 'recipient_discount_code.value'],
      [{ recipient_discount_code: { enabled: true, value: '150' } }, 'recipient_discount_code.value'],
    ];
    for (const [payload, field] of cases) {
      const res = await patch(id, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(Object.keys(res.json().errors), JSON.stringify(payload)).toContain(field);
    }
    expect((await get(`/api/v1/configuration/email_sequences/${id}`)).json().data).toEqual(before);
  });

  it('first_subscription_entry with a plan of the shop; a plan of another shop is 422', async () => {
    const planOf = async (shopId: string) => {
      const em = stack.orm.em.fork();
      em.setFilterParams(SHOP_FILTER, { shopId });
      const plan = em.create(SubscriptionPlan, { shop: shopId, name: 'Monthly' });
      await em.flush();
      return plan.id;
    };
    const id = await newSequence();
    const planId = await planOf(shop.id);
    const res = await patch(id, { triggers: { first_subscription_entry: true, subscription_plan_id: planId } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.triggers).toMatchObject({ first_subscription_entry: true, subscription_plan_id: planId });
    const foreign = await patch(id, { triggers: { subscription_plan_id: await planOf(other.id) } });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().errors).toHaveProperty(['triggers.subscription_plan_id']);
    const cleared = await patch(id, { triggers: { subscription_plan_id: null } });
    expect(cleared.json().errors).toHaveProperty(['triggers.first_subscription_entry']);
  });

  it('answers 404 for a sequence of another shop', async () => {
    const id = await newSequence();
    expect((await patch(id, { name: 'Stolen' }, other)).statusCode).toBe(404);
  });

  it('stores recipient_discount_code (type and value by the documented rules)', async () => {
    const id = await newSequence();
    const res = await patch(id, { recipient_discount_code: { enabled: true, type: 'value_discount', value: '15', validity_days: 14, product_ids: [productIds[0]] } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.recipient_discount_code).toEqual({ enabled: true, type: 'value_discount', value: '15.00', validity_days: 14, product_ids: [productIds[0]] });
    const free = await patch(id, { recipient_discount_code: { type: 'free_delivery_discount', value: null } });
    expect(free.json().data.recipient_discount_code).toMatchObject({ enabled: true, type: 'free_delivery_discount', value: null, validity_days: 14 });
  });

  it('a product hidden while listed (deleted with orders) may be sent back in both lists; a hidden product not listed is refused', async () => {
    const id = await newSequence();
    const [kept, unlisted] = [await insertProduct(stack.orm, shop.id), await insertProduct(stack.orm, shop.id, { hidden: true })];
    const lists = { triggers: { status_id: shop.statuses.Paid, products_dependent: true, product_ids: [kept] }, recipient_discount_code: { enabled: true, type: 'value_discount', value: '5', product_ids: [kept] } };
    expect((await patch(id, lists)).statusCode).toBe(200);
    await stack.orm.em.fork().getConnection().execute('update shop_products set hidden = true where id = ?', [kept]);
    const again = await patch(id, lists);
    expect(again.statusCode, again.body).toBe(200);
    const refused = await patch(id, { triggers: { product_ids: [kept, unlisted] }, recipient_discount_code: { product_ids: [unlisted] } });
    expect(refused.statusCode).toBe(422);
    expect(Object.keys(refused.json().errors).sort()).toEqual(['recipient_discount_code.product_ids', 'triggers.product_ids']);
  });
});

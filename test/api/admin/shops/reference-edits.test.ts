import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeliveryType, createPaymentType, insertProduct } from '../../../helpers/shop-catalogue.ts';
import { adminPost, createTestShop, operator, type TestShop } from '../../../helpers/shop.ts';
import { startTestApp, type TestStack } from '../../../helpers/stack.ts';

/** The panel's edits of the reference lists (DESIGN.md section 10, issue 40 item 1). */
let stack: TestStack;
let shop: TestShop;
let other: TestShop;
let productId: number;

beforeAll(async () => {
  stack = await startTestApp('shop-reference-edits');
  [shop, other] = await Promise.all([createTestShop(stack.app, 'edits-one'), createTestShop(stack.app, 'edits-two')]);
  productId = await insertProduct(stack.orm, shop.id, { name: 'Atlas', price: '40.00' });
});
afterAll(() => stack.close());

const call = (method: 'PATCH' | 'DELETE', url: string, payload?: object) => stack.app.inject({ method, url: `/admin/v1/shops/${shop.id}${url}`, headers: operator, ...(payload ? { payload } : {}) });
const place = (payload: object) => stack.app.inject({ method: 'POST', url: `/admin/v1/shops/${shop.id}/orders`, headers: operator, payload });
const orderDetail = async (id: number) => (await stack.app.inject({ method: 'GET', url: `/api/v1/orders/${id}`, headers: shop.headers('read') })).json().data;

describe('PATCH delivery and payment types', () => {
  it('changes only the fields sent, checked as the POST checks them', async () => {
    const id = await createDeliveryType(stack.app, shop.id, { name: 'Courier', name_displayed: 'Fast courier', default_price: '12.30', vat_rate: 8, domestic: false });
    const res = await call('PATCH', `/delivery_types/${id}`, { default_price: '15' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ id, name: 'Courier', name_displayed: 'Fast courier', default_price: '15.00', vat_rate: 8, active: true, domestic: false });
    const bad = await call('PATCH', `/delivery_types/${id}`, { vat_rate: 101, default_price: 'cheap' });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['default_price', 'vat_rate']);
    const payment = await createPaymentType(stack.app, shop.id, { name: 'Transfer', default_price: '1.00' });
    const paid = await call('PATCH', `/payment_types/${payment}`, { name: 'Bank transfer', cash_on_delivery: true });
    expect(paid.json().data).toEqual({ id: payment, name: 'Bank transfer', name_displayed: 'Transfer', default_price: '1.00', vat_rate: 23, cash_on_delivery: true, active: true });
  });

  it("answers 404 for another shop's type", async () => {
    const foreign = await createDeliveryType(stack.app, other.id, { name: 'Foreign', default_price: '1.00' });
    expect((await call('PATCH', `/delivery_types/${foreign}`, { active: false })).statusCode).toBe(404);
    const foreignPayment = await createPaymentType(stack.app, other.id, { name: 'Foreign' });
    expect((await call('PATCH', `/payment_types/${foreignPayment}`, { active: false })).statusCode).toBe(404);
  });

  it('a new price reaches new placements; placed orders keep theirs; switched off, placements are refused naming the field', async () => {
    const delivery = await createDeliveryType(stack.app, shop.id, { name: 'Post', default_price: '10.00' });
    const payment = await createPaymentType(stack.app, shop.id, { name: 'Card', default_price: '2.00' });
    const order = { email: 'ann@example.com', items: [{ product_id: productId }], delivery_type_id: delivery, payment_type_id: payment };
    const before = await place(order);
    expect(before.statusCode, before.body).toBe(201);
    expect(before.json().data).toMatchObject({ delivery_cost: '10.00', payment_cost: '2.00' });

    expect((await call('PATCH', `/delivery_types/${delivery}`, { default_price: '20.00' })).statusCode).toBe(200);
    expect((await call('PATCH', `/payment_types/${payment}`, { default_price: '3.00' })).statusCode).toBe(200);
    const after = await place(order);
    expect(after.json().data).toMatchObject({ delivery_cost: '20.00', payment_cost: '3.00' });
    expect(await orderDetail(before.json().data.id)).toMatchObject({ delivery_cost: '10.00', payment_cost: '2.00' });

    expect((await call('PATCH', `/delivery_types/${delivery}`, { active: false })).json().data.active).toBe(false);
    const noDelivery = await place(order);
    expect(noDelivery.statusCode).toBe(422);
    expect(Object.keys(noDelivery.json().errors)).toContain('delivery_type_id');
    expect((await call('PATCH', `/delivery_types/${delivery}`, { active: true })).statusCode).toBe(200);
    expect((await call('PATCH', `/payment_types/${payment}`, { active: false })).statusCode).toBe(200);
    const noPayment = await place(order);
    expect(noPayment.statusCode).toBe(422);
    expect(Object.keys(noPayment.json().errors)).toContain('payment_type_id');
    expect(await orderDetail(after.json().data.id)).toMatchObject({ delivery_method: 'Post', delivery_cost: '20.00', payment_cost: '3.00' });
  });
});

describe('product categories', () => {
  it('renames and moves a category; refuses a parent that is itself, below it or another shop\'s', async () => {
    const top = await adminPost(stack.app, `/admin/v1/shops/${shop.id}/product_categories`, { name: 'Books' });
    const child = await adminPost(stack.app, `/admin/v1/shops/${shop.id}/product_categories`, { name: 'Novels', parent_id: top.id });
    const foreign = await adminPost(stack.app, `/admin/v1/shops/${other.id}/product_categories`, { name: 'Foreign' });
    expect((await call('PATCH', `/product_categories/${child.id}`, { name: 'Fiction' })).json().data).toEqual({ id: child.id, name: 'Fiction', parent_id: top.id });
    for (const parent of [top.id, child.id, foreign.id]) {
      const res = await call('PATCH', `/product_categories/${top.id}`, { parent_id: parent });
      expect(res.statusCode, `parent ${parent}`).toBe(422);
      expect(Object.keys(res.json().errors)).toEqual(['parent_id']);
    }
    expect((await call('PATCH', `/product_categories/${child.id}`, { parent_id: null })).json().data).toEqual({ id: child.id, name: 'Fiction', parent_id: null });
    expect((await call('PATCH', `/product_categories/${foreign.id}`, { name: 'Mine' })).statusCode).toBe(404);
  });

  it('deletes an unused category; 409 while a product lists it or it has sub-categories; 404 again', async () => {
    const used = await adminPost(stack.app, `/admin/v1/shops/${shop.id}/product_categories`, { name: 'Used' });
    const sub = await adminPost(stack.app, `/admin/v1/shops/${shop.id}/product_categories`, { name: 'Sub', parent_id: used.id });
    await insertProduct(stack.orm, shop.id, { name: 'Listed', productCategoryIds: [sub.id] });
    const inUse = await call('DELETE', `/product_categories/${sub.id}`);
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json().error).toMatch(/used by 1 product/);
    const parent = await call('DELETE', `/product_categories/${used.id}`);
    expect(parent.statusCode).toBe(409);
    expect(parent.json().error).toMatch(/sub-categor/);
    const unused = await adminPost(stack.app, `/admin/v1/shops/${shop.id}/product_categories`, { name: 'Unused' });
    expect((await call('DELETE', `/product_categories/${unused.id}`)).json()).toEqual({ data: { id: unused.id, deleted: true } });
    expect((await call('DELETE', `/product_categories/${unused.id}`)).statusCode).toBe(404);
  });
});

describe('senders', () => {
  it('changes name and address (lower-cased); deletes an unused one; 409 while a status mail or a sequence sends from it', async () => {
    const sender = await adminPost(stack.app, `/admin/v1/shops/${shop.id}/senders`, { name: 'Shop', email: 'shop@example.com' });
    expect((await call('PATCH', `/senders/${sender.id}`, { email: 'Orders@Example.com' })).json().data).toEqual({ id: sender.id, name: 'Shop', email: 'orders@example.com' });
    expect((await call('PATCH', `/senders/${sender.id}`, { email: 'not an address' })).statusCode).toBe(422);

    const setStatusSender = (senderId: number | null) =>
      stack.app.inject({ method: 'PATCH', url: `/api/v1/configuration/order_statuses/${shop.statuses.Sent}`, headers: shop.headers('write_storefront'), payload: { sender_id: senderId } });
    const set = await setStatusSender(sender.id);
    expect(set.statusCode, set.body).toBe(200);
    const byStatus = await call('DELETE', `/senders/${sender.id}`);
    expect(byStatus.statusCode).toBe(409);
    expect(byStatus.json().error).toMatch(/order status mail/);
    expect((await setStatusSender(null)).statusCode).toBe(200);

    const sequence = await adminPost(stack.app, `/admin/v1/shops/${shop.id}/email_sequences`, {
      name: 'Welcome',
      sender_id: sender.id,
      items: [{ email: { subject: 'Hi', content: '<p>Hi</p>' }, offset_amount: 0, offset_unit: 'minutes' }],
    });
    const bySequence = await call('DELETE', `/senders/${sender.id}`);
    expect(bySequence.statusCode).toBe(409);
    expect(bySequence.json().error).toMatch(/mail sequence/);
    expect((await call('DELETE', `/email_sequences/${sequence.id}`)).statusCode).toBe(200);
    expect((await call('DELETE', `/senders/${sender.id}`)).json()).toEqual({ data: { id: sender.id, deleted: true } });
  });
});

describe('order statuses', () => {
  it('renames and hides a built-in status, which keeps its kind; never deletes it (409 naming it)', async () => {
    const res = await call('PATCH', `/order_statuses/${shop.statuses.Sent}`, { name: 'Shipped', visible: false });
    expect(res.json().data).toEqual({ id: shop.statuses.Sent, name: 'Shipped', kind: 'SentDefaultOrderStatus', visible: false });
    const built = await call('DELETE', `/order_statuses/${shop.statuses.Sent}`);
    expect(built.statusCode).toBe(409);
    expect(built.json().error).toMatch(/built in \(SentDefaultOrderStatus\)/);
    expect((await call('PATCH', `/order_statuses/${shop.statuses.Sent}`, { name: 'Sent', visible: true })).statusCode).toBe(200);
  });

  it('deletes a user status; 409 while orders are at it', async () => {
    const status = await adminPost(stack.app, `/admin/v1/shops/${shop.id}/order_statuses`, { name: 'Packing' });
    const order = await place({ email: 'bob@example.com', items: [{ product_id: productId }] });
    const move = (to: number) => stack.app.inject({ method: 'PATCH', url: `/api/v1/orders/${order.json().data.id}/status`, headers: shop.headers(), payload: { order_status_id: to } });
    expect((await move(status.id)).statusCode).toBe(200);
    const busy = await call('DELETE', `/order_statuses/${status.id}`);
    expect(busy.statusCode).toBe(409);
    expect(busy.json().error).toMatch(/1 order\(s\) are at it/);
    expect((await move(shop.statuses.Sent!)).statusCode).toBe(200);
    expect((await call('DELETE', `/order_statuses/${status.id}`)).json()).toEqual({ data: { id: status.id, deleted: true } });
    expect((await call('PATCH', `/order_statuses/${status.id}`, { name: 'Gone' })).statusCode).toBe(404);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertProduct } from '../../helpers/shop-catalogue.ts';
import { adminPost, createTestShop, operator, type TestShop } from '../../helpers/shop.ts';
import { eventually, startTestApp, type TestStack } from '../../helpers/stack.ts';

let stack: TestStack;
let shop: TestShop;
let other: TestShop;
let productId: number;
let freeId: number;

beforeAll(async () => {
  stack = await startTestApp('shop-order-transitions');
  [shop, other] = await Promise.all([createTestShop(stack.app, 'tr-one'), createTestShop(stack.app, 'tr-two')]);
  productId = await insertProduct(stack.orm, shop.id, { name: 'Book', price: '40.00' });
  freeId = await insertProduct(stack.orm, shop.id, { name: 'Free', price: '0.00', allowPriceChange: true, minimalPrice: '0.00', allowZeroMinimalPrice: true });
});
afterAll(() => stack.close());

const placeOrder = async (items = [{ product_id: productId, quantity: 1 }]) =>
  (await adminPost(stack.app, `/admin/v1/shops/${shop.id}/orders`, { email: 'buyer@example.com', items })).id as number;

const patch = (url: string, payload?: object, key = shop.key) =>
  stack.app.inject({ method: 'PATCH', url, headers: payload ? { 'x-api-key': key, 'content-type': 'application/json' } : { 'x-api-key': key }, payload });

/** The order's transition workflows (the placing's own run, `.../placed`, started by every placement, left out). */
const workflowIds = async (orderId: number) => {
  const ids: string[] = [];
  for await (const wf of stack.temporal.workflow.list({ query: `WorkflowId STARTS_WITH "shop/${shop.id}/order/${orderId}/"` })) ids.push(wf.workflowId);
  return ids.filter((id) => !id.endsWith('/placed')).sort();
};

describe('PATCH /api/v1/orders/:id/clear', () => {
  it('marks a placed, unpaid order paid at the Paid status and answers exactly the spec fields', async () => {
    const id = await placeOrder();
    const res = await patch(`/api/v1/orders/${id}/clear`);
    expect(res.statusCode).toBe(200);
    const body = res.json().data;
    expect(Object.keys(body).sort()).toEqual(
      ['id', 'ordinal_number', 'internal_status', 'order_status', 'email', 'total', 'currency', 'paid', 'cleared_at', 'delivery_method', 'placed_at', 'created_at', 'updated_at'].sort(),
    );
    expect(body).toMatchObject({ id, internal_status: 'placed', order_status: 'Paid', paid: true, total: '40.00', currency: 'PLN' });
    expect(Date.parse(body.cleared_at)).toBeGreaterThan(Date.now() - 60_000);
    const detail = (await stack.app.inject({ method: 'GET', url: `/api/v1/orders/${id}`, headers: { 'x-api-key': shop.key } })).json().data;
    expect(detail).toMatchObject({ paid: true, order_status_id: shop.statuses.Paid });
    expect(detail.paid_at).not.toBeNull();
    // The reply is the order as the clearing left it (its statement's answer), as a read after it shows it.
    for (const field of ['ordinal_number', 'email', 'total', 'delivery_method', 'placed_at', 'created_at', 'updated_at'] as const) expect(body[field], field).toEqual(detail[field]);
    expect(Date.parse(body.updated_at)).toBe(Date.parse(body.cleared_at));
    expect(await workflowIds(id)).toEqual([`shop/${shop.id}/order/${id}/clear`]);
    // Started right after the commit, so nothing of it is left in the outbox.
    const pending = await stack.orm.em.fork().getConnection().execute('select 1 from pending_workflow_starts where workflow_id = ?', [`shop/${shop.id}/order/${id}/clear`]);
    expect(pending).toEqual([]);
  });

  it('answers 422 Already Cleared for a paid order', async () => {
    const id = await placeOrder();
    await patch(`/api/v1/orders/${id}/clear`);
    const again = await patch(`/api/v1/orders/${id}/clear`);
    expect(again.statusCode).toBe(422);
    expect(again.json()).toEqual({ error: 'Already Cleared', message: expect.any(String) });
  });

  it('answers 422 for a zero total', async () => {
    const id = await placeOrder([{ product_id: freeId, quantity: 1 }]);
    const res = await patch(`/api/v1/orders/${id}/clear`);
    expect(res.statusCode).toBe(422);
    expect(res.json().error).not.toBe('Already Cleared');
  });

  it('lets one of twelve concurrent clears through: one 200, eleven 422, one clearing workflow', async () => {
    const id = await placeOrder();
    const replies = await Promise.all(Array.from({ length: 12 }, () => patch(`/api/v1/orders/${id}/clear`)));
    expect(replies.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(replies.filter((r) => r.statusCode === 422 && r.json().error === 'Already Cleared')).toHaveLength(11);
    // Started after the one commit (the 422s start nothing); Temporal's list shows it a moment later.
    await eventually(async () => expect(await workflowIds(id)).toEqual([`shop/${shop.id}/order/${id}/clear`]));
  });

  it('answers 404 for another shop\'s order and 403 without write_data', async () => {
    const id = await placeOrder();
    expect((await patch(`/api/v1/orders/${id}/clear`, undefined, other.key)).statusCode).toBe(404);
    expect((await patch(`/api/v1/orders/${id}/clear`, undefined, shop.keys.read)).statusCode).toBe(403);
    expect((await patch('/api/v1/orders/999999999/clear')).statusCode).toBe(404);
  });
});

describe('PATCH /api/v1/orders/:id/status', () => {
  it('sets the status, answers the order detail and starts one status workflow per change', async () => {
    const id = await placeOrder();
    const sent = shop.statuses.Sent!;
    const res = await patch(`/api/v1/orders/${id}/status`, { order_status_id: sent });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id, order_status_id: sent, order_status: 'Sent' });
    const ids = await workflowIds(id);
    expect(ids).toHaveLength(1);
    expect(ids[0]).toMatch(new RegExp(`^shop/${shop.id}/order/${id}/status/\\d+$`));
  });

  it('changes nothing and starts nothing when the order already has the status', async () => {
    const id = await placeOrder();
    const res = await patch(`/api/v1/orders/${id}/status`, { order_status_id: shop.statuses.New });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.order_status).toBe('New');
    expect(await workflowIds(id)).toEqual([]);
    const sent = shop.statuses.Sent!;
    await Promise.all([patch(`/api/v1/orders/${id}/status`, { order_status_id: sent }), patch(`/api/v1/orders/${id}/status`, { order_status_id: sent })]);
    expect(await workflowIds(id)).toHaveLength(1);
  });

  it('answers 422 naming order_status_id for a status of another shop or none, 404 for another shop\'s order', async () => {
    const id = await placeOrder();
    const foreign = await patch(`/api/v1/orders/${id}/status`, { order_status_id: other.statuses.Sent });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().errors).toHaveProperty('order_status_id');
    const missing = await patch(`/api/v1/orders/${id}/status`, {});
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors).toHaveProperty('order_status_id');
    expect((await patch(`/api/v1/orders/${id}/status`, { order_status_id: 'x' })).statusCode).toBe(422);
    expect((await patch(`/api/v1/orders/${id}/status`, { order_status_id: other.statuses.Sent }, other.key)).statusCode).toBe(404);
  });
});

describe('GET /admin/v1/shops/:shop_id/orders/:order_id/effects', () => {
  it('answers the (empty before any worker ran) effect log, 404 for an unknown shop', async () => {
    const id = await placeOrder();
    const res = await stack.app.inject({ method: 'GET', url: `/admin/v1/shops/${shop.id}/orders/${id}/effects`, headers: operator });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([]);
    const unknown = await stack.app.inject({ method: 'GET', url: `/admin/v1/shops/00000000-0000-4000-8000-000000000000/orders/${id}/effects`, headers: operator });
    expect(unknown.statusCode).toBe(404);
  });
});

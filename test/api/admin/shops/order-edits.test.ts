import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertProduct } from '../../../helpers/shop-catalogue.ts';
import { adminPost, createTestShop, operator, type TestShop } from '../../../helpers/shop.ts';
import { startTestApp, type TestStack } from '../../../helpers/stack.ts';

/** The panel's order edits (DESIGN.md section 8): PATCH /admin/v1/shops/:shop_id/orders/:order_id and POST .../notes. */
let stack: TestStack;
let shop: TestShop;
let other: TestShop;
let order: { id: number; order_status: string; updated_at: string };

beforeAll(async () => {
  stack = await startTestApp('admin-order-edits');
  [shop, other] = await Promise.all([createTestShop(stack.app, 'edits-one'), createTestShop(stack.app, 'edits-two')]);
  const productId = await insertProduct(stack.orm, shop.id, { name: 'Atlas', price: '10.00' });
  order = await adminPost(stack.app, `/admin/v1/shops/${shop.id}/orders`, { email: 'ann@example.com', items: [{ product_id: productId }] });
});
afterAll(() => stack.close());

const patch = (payload: unknown, shopId = shop.id, orderId = order.id) =>
  stack.app.inject({ method: 'PATCH', url: `/admin/v1/shops/${shopId}/orders/${orderId}`, headers: operator, payload: payload as object });
const note = (payload: unknown, shopId = shop.id, orderId = order.id) =>
  stack.app.inject({ method: 'POST', url: `/admin/v1/shops/${shopId}/orders/${orderId}/notes`, headers: operator, payload: payload as object });
const detail = async () => (await stack.app.inject({ method: 'GET', url: `/api/v1/orders/${order.id}`, headers: { 'x-api-key': shop.key } })).json().data;

describe('PATCH /admin/v1/shops/:shop_id/orders/:order_id', () => {
  it('writes the fields sent and answers the order detail; no status change, no effect', async () => {
    const res = await patch({
      tracking_number: ' PL-1 ',
      tracking_url: 'https://track.example.com/PL-1',
      delivery_point_code: 'KRA-01',
      invoice_recipient_name: 'ACME Sp. z o.o.',
      transaction_id: 'tx_123',
      order_attributes: [{ name: 'gift', value: 'yes' }, { name: 'note', value: '' }],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      id: order.id,
      tracking_number: 'PL-1',
      tracking_url: 'https://track.example.com/PL-1',
      delivery_point_code: 'KRA-01',
      invoice_recipient_name: 'ACME Sp. z o.o.',
      transaction_id: 'tx_123',
      order_attributes: [{ name: 'gift', value: 'yes' }, { name: 'note', value: '' }],
      order_status: order.order_status,
      internal_status: 'placed',
      paid: false,
    });
    expect(await detail()).toMatchObject({ tracking_number: 'PL-1', transaction_id: 'tx_123' });
    const effects = await stack.app.inject({ method: 'GET', url: `/admin/v1/shops/${shop.id}/orders/${order.id}/effects`, headers: operator });
    expect(effects.json().data).toEqual([]);
  });

  it('changes only what is sent; null clears the nullable fields, "" the others', async () => {
    const res = await patch({ delivery_point_code: null, tracking_url: '' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ delivery_point_code: null, tracking_url: '', tracking_number: 'PL-1', transaction_id: 'tx_123', invoice_recipient_name: 'ACME Sp. z o.o.' });
  });

  it.each([
    [{}, 'body'],
    [{ tracking_number: 'x'.repeat(256) }, 'tracking_number'],
    [{ tracking_url: 'ftp://example.com/a' }, 'tracking_url'],
    [{ tracking_url: 'not a url' }, 'tracking_url'],
    [{ transaction_id: 7 }, 'transaction_id'],
    [{ order_attributes: [{ name: '', value: 'x' }] }, 'order_attributes.0.name'],
    [{ order_attributes: [{ name: 'a' }] }, 'order_attributes.0.value'],
    [{ order_attributes: 'gift' }, 'order_attributes'],
    [{ order_status_id: 3 }, 'order_status_id'],
    [{ total: '0.00' }, 'total'],
  ])('%j is a 422 naming %s, and nothing changes', async (payload, field) => {
    const before = await detail();
    const res = await patch(payload);
    expect(res.statusCode, res.body).toBe(422);
    expect(Object.keys(res.json().errors)).toContain(field);
    expect(await detail()).toEqual(before);
  });

  it('answers 404 for an unknown order, another shop\'s order or an unknown shop', async () => {
    expect((await patch({ tracking_number: 'X' }, shop.id, 999_999)).statusCode).toBe(404);
    expect((await patch({ tracking_number: 'X' }, other.id)).statusCode).toBe(404);
    expect((await patch({ tracking_number: 'X' }, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await detail()).tracking_number).toBe('PL-1');
  });

  it('needs the operator token', async () => {
    const res = await stack.app.inject({ method: 'PATCH', url: `/admin/v1/shops/${shop.id}/orders/${order.id}`, payload: { tracking_number: 'X' } });
    expect(res.statusCode).toBe(401);
  });
});

describe('POST /admin/v1/shops/:shop_id/orders/:order_id/notes', () => {
  it('appends notes, concurrent ones included, shown in the order\'s notes', async () => {
    const first = await note({ content: 'Called the buyer' });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().data).toEqual({ content: 'Called the buyer', created_at: expect.any(String) });
    const many = await Promise.all(Array.from({ length: 5 }, (_, i) => note({ content: `note ${i}` })));
    expect(many.map((r) => r.statusCode)).toEqual([201, 201, 201, 201, 201]);
    const notes = (await detail()).notes as { content: string }[];
    expect(notes).toHaveLength(6);
    expect(notes[0]!.content).toBe('Called the buyer');
    expect(notes.map((n) => n.content).sort()).toEqual(['Called the buyer', 'note 0', 'note 1', 'note 2', 'note 3', 'note 4']);
  });

  it('refuses an empty or missing content (422 naming it) and answers 404 for another shop\'s order', async () => {
    for (const payload of [{}, { content: '   ' }, { content: 'x'.repeat(10_001) }, { content: 'ok', extra: 1 }]) {
      const res = await note(payload);
      expect(res.statusCode, res.body).toBe(422);
      expect(Object.keys(res.json().errors)).toEqual(expect.arrayContaining([Object.keys(payload).includes('extra') ? 'extra' : 'content']));
    }
    expect((await note({ content: 'x' }, other.id)).statusCode).toBe(404);
    expect((await note({ content: 'x' }, shop.id, 999_999)).statusCode).toBe(404);
    expect((await detail()).notes).toHaveLength(6);
  });
});

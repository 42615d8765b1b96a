import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearInOneTransaction } from '../../../activities/shop/clearing-transaction.ts';
import type { ActivityDeps } from '../../../activities/shared/deps.ts';
import { insertProduct } from '../../helpers/shop-catalogue.ts';
import { adminPost, createTestShop, operator, type TestShop } from '../../helpers/shop.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';

/**
 * The clearing's one step against the database (issue 26 item 1): its parts read the order once,
 * and again after the invoice part, whose number the webhook bodies carry.
 */
let stack: TestStack;
let shop: TestShop;
let productId: number;
let deps: ActivityDeps;

beforeAll(async () => {
  stack = await startTestApp('shop-clearing-step');
  shop = await createTestShop(stack.app, 'clearing-step');
  productId = await insertProduct(stack.orm, shop.id, { name: 'E-book' });
  const patched = await stack.app.inject({ method: 'PATCH', url: `/admin/v1/shops/${shop.id}`, headers: operator, payload: { automatic_invoicing: true } });
  expect(patched.statusCode, patched.body).toBe(200);
  await adminPost(stack.app, `/admin/v1/shops/${shop.id}/webhooks`, { url: 'https://hooks.example.com/in', events: ['order_cleared', 'order_status_changed'], secret_key: 'k' });
  deps = { orm: stack.orm, platformUrlTemplate: '', secretsKey: stack.app.secretsKey };
});
afterAll(() => stack.close());

const event = () => ({ eventId: randomUUID(), occurredAt: new Date().toISOString() });
const sql = <T>(query: string, params: unknown[]) => stack.orm.em.fork().getConnection().execute<T[]>(query, params);

describe('the clearing step in one transaction', () => {
  it('numbers the invoice in its invoice part and the webhook bodies after it carry the number', async () => {
    const orderId = (await adminPost(stack.app, `/admin/v1/shops/${shop.id}/orders`, { email: 'buyer@example.com', items: [{ product_id: productId }] })).id as number;
    const result = await clearInOneTransaction(deps, { shopId: shop.id, orderId, events: { cleared: event(), paid: event(), club: event() } });
    expect(result.deferred).toEqual([]);
    expect(result.deliveries.map((d) => d.type).sort()).toEqual(['order_cleared', 'order_status_changed']);
    const [order] = await sql<{ invoice_number: string | null }>('select invoice_number from shop_orders where shop_id = ? and id = ?', [shop.id, orderId]);
    expect(order!.invoice_number).toMatch(/\//);
    const bodies = await sql<{ payload: { order: { invoice_number: string | null } } }>('select payload from shop_webhook_deliveries where shop_id = ? and id::text = any(?::text[])', [
      shop.id,
      `{${result.deliveries.map((d) => d.deliveryId).join(',')}}`,
    ]);
    expect(bodies.map((b) => b.payload.order.invoice_number)).toEqual([order!.invoice_number, order!.invoice_number]);
    const [invoice] = await sql<{ status: string; detail: string }>("select status, detail from shop_order_effects where order_id = ? and source = 'clear' and effect = 'invoice'", [orderId]);
    expect(invoice).toEqual({ status: 'done', detail: order!.invoice_number });
  });
});

import { WorkflowNotFoundError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderPlacedWorkflowId } from '../../../domain/shop/workflow-ids.ts';
import { insertProduct } from '../../helpers/shop-catalogue.ts';
import { adminPost, createTestShop, type TestShop } from '../../helpers/shop.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';

/**
 * The placement starts the confirmation's workflow (`shop/<s>/order/<o>/placed`) only when placing
 * has something to run (db/repositories/shop/placing-effects.ts): each thing New can run starts it,
 * a shop that configured none costs no workflow. The start happens before the placement's reply,
 * so whether the run exists is known when the reply arrives.
 */
let stack: TestStack;

beforeAll(async () => {
  stack = await startTestApp('shop-placing-effects');
});
afterAll(() => stack.close());

const sql = (text: string, params: unknown[]) => stack.orm.em.fork().getConnection().execute(text, params);

/** Places one order of a fresh product at `price` in `shop`; whether its placing's run was started. */
async function placingStarted(shop: TestShop, price = '10.00'): Promise<boolean> {
  const productId = await insertProduct(stack.orm, shop.id, { name: 'Book', price, ...(price === '0.00' && { allowPriceChange: true, minimalPrice: '0.00', allowZeroMinimalPrice: true }) });
  const order = await adminPost(stack.app, `/admin/v1/shops/${shop.id}/orders`, { email: 'buyer@example.com', items: [{ product_id: productId }] });
  try {
    await stack.temporal.workflow.getHandle(orderPlacedWorkflowId({ shopId: shop.id, orderId: order.id })).describe();
    return true;
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return false;
    throw error;
  }
}

const NOW = 'now()';

describe('what starts the placing run', () => {
  it('nothing configured at New: no run; a webhook of another event or a sequence of another status changes nothing', async () => {
    const shop = await createTestShop(stack.app, 'pe-none');
    await sql(`insert into shop_webhooks (id, shop_id, url, events, active, secret_sealed, created_at, updated_at) values (gen_random_uuid(), ?, 'https://example.com/h', '{order_status_changed}', true, 'x', ${NOW}, ${NOW})`, [shop.id]);
    await sql(`insert into shop_mail_sequences (shop_id, name, status_id, recipient_discount_code, created_at, updated_at) values (?, 'At Paid', ?, '{}', ${NOW}, ${NOW})`, [shop.id, shop.statuses.Paid]);
    expect(await placingStarted(shop)).toBe(false);
  });

  const cases: [string, (shop: TestShop) => Promise<unknown>][] = [
    ['the New mail on', (shop) => sql('update shop_order_statuses set send_email_on_status_change = true where id = ?', [shop.statuses.New])],
    ['a webhook of order_placed', (shop) => sql(`insert into shop_webhooks (id, shop_id, url, events, active, secret_sealed, created_at, updated_at) values (gen_random_uuid(), ?, 'https://example.com/h', '{order_placed}', true, 'x', ${NOW}, ${NOW})`, [shop.id])],
    ['the club at New', (shop) => sql(`insert into shop_club_integrations (id, shop_id, active, url_sealed, host, order_status_id, created_at, updated_at) values (gen_random_uuid(), ?, true, 'x', 'example.com', ?, ${NOW}, ${NOW})`, [shop.id, shop.statuses.New])],
    ['a sequence at New', (shop) => sql(`insert into shop_mail_sequences (shop_id, name, status_id, recipient_discount_code, created_at, updated_at) values (?, 'At New', ?, '{}', ${NOW}, ${NOW})`, [shop.id, shop.statuses.New])],
    [
      'a status set automatically after New',
      (shop) =>
        sql(`update shop_order_statuses set automatically_set = ?::jsonb where id = ?`, [
          JSON.stringify({ automatically_set_after_status_id: shop.statuses.New, automatically_set_offset_days: 1, automatically_set_offset_hours: 0, automatically_set_if_total_zero: false, automatically_set_only_for_shop_origin_orders: false }),
          shop.statuses.Paid,
        ]),
    ],
  ];
  it.each(cases)('%s: the run is started', async (_name, configure) => {
    const shop = await createTestShop(stack.app, `pe-${Math.random().toString(36).slice(2, 8)}`);
    expect(await placingStarted(shop)).toBe(false);
    await configure(shop);
    expect(await placingStarted(shop)).toBe(true);
  });

  it('a zero total: the run is started (its fulfilment), with nothing configured', async () => {
    const shop = await createTestShop(stack.app, 'pe-zero');
    expect(await placingStarted(shop, '0.00')).toBe(true);
  });
});

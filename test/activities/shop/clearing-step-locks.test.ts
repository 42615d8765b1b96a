/**
 * The clearing's one step (activities/shop/clearing-transaction.ts) and order placement share the
 * shop's row: numbering an invoice updates its `next_invoice_number`, placing an order its
 * `next_ordinal_number`. The step numbers the invoice in a short transaction of its own before its
 * long one, so a checkout of the shop never waits for another order's step. Here the step is held
 * open by the test (a lock on the effect-log row of a later part: the step's write of that row
 * waits for it) while a checkout of the same shop runs; were the numbering back inside the step's
 * transaction, the checkout would wait for the step's lock on the shop's row, which the test
 * sees in the database and reports.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { clearingStepActivities } from '../../../activities/shop/clearing-transaction.ts';
import { insertProduct } from '../../helpers/shop-catalogue.ts';
import { createTestShop, operator, type TestShop } from '../../helpers/shop.ts';
import { startTestApp, PLATFORM_URL_TEMPLATE, type TestStack } from '../../helpers/stack.ts';
import { buyer, type Buyer } from '../../helpers/storefront.ts';

let stack: TestStack;
let shop: TestShop;
let store: Buyer;
let productId: number;

beforeAll(async () => {
  stack = await startTestApp('clearing-step-locks');
  shop = await createTestShop(stack.app, 'step-locks');
  store = buyer(stack.app, shop.subdomain);
  const invoicing = await stack.app.inject({ method: 'PATCH', url: `/admin/v1/shops/${shop.id}`, headers: operator, payload: { automatic_invoicing: true } });
  expect(invoicing.statusCode, invoicing.body).toBe(200);
  productId = await insertProduct(stack.orm, shop.id, { name: 'Book', price: '30.00' });
});
afterAll(() => stack.close());

/** A storefront checkout of one book: the reply. */
async function checkout(email: string) {
  const cart = await store.post('/carts', { items: [{ product_id: productId }], email });
  expect(cart.statusCode, cart.body).toBe(201);
  return store.post(`/carts/${cart.json().data.id}/checkout`);
}

/** Polls until `found` answers a value (the database's view of who waits for whom; no clock involved), or `stop` is set. */
async function until<T>(found: () => Promise<T | undefined>, stop: { done: boolean } = { done: false }): Promise<T | undefined> {
  while (!stop.done) {
    const value = await found();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return undefined;
}

describe("the clearing's one step", () => {
  it("lets a checkout of the shop complete while the step's transaction is open", async () => {
    const first = await checkout('first@example.com');
    expect(first.statusCode, first.body).toBe(201);
    const orderId = first.json().data.order_id as number;

    const sql = new pg.Client({ connectionString: inject('databaseUrl') });
    await sql.connect();
    const watcher = new pg.Client({ connectionString: inject('databaseUrl') });
    await watcher.connect();
    try {
      const { rows: [holder] } = await sql.query<{ pid: number }>('select pg_backend_pid() as pid');
      /** A backend waiting for a lock `pid` holds; undefined for none. */
      const waitingFor = async (pid: number, except?: number) =>
        (await watcher.query<{ pid: number }>('select pid from pg_stat_activity where $1 = any(pg_blocking_pids(pid)) and pid <> $2', [pid, except ?? 0])).rows[0]?.pid;

      // The step's download codes part comes after its invoice part: recorded `failed`, it is tried
      // again, and recording its outcome waits for the lock the test takes on its row, with the
      // step's transaction open (the row only: a lock on the order would stop the numbering too).
      await sql.query("insert into shop_order_effects (shop_id, order_id, source, effect, target, status, detail, at) values ($1, $2, 'clear', 'download_codes', '', 'failed', 'to be tried again', now())", [shop.id, orderId]);
      await sql.query('begin');
      await sql.query("select 1 from shop_order_effects where order_id = $1 and source = 'clear' and effect = 'download_codes' for update", [orderId]);
      const event = (eventId: string) => ({ eventId, occurredAt: new Date().toISOString() });
      const step = clearingStepActivities({ orm: stack.orm, platformUrlTemplate: PLATFORM_URL_TEMPLATE }).clearOrderInOneStep({
        shopId: shop.id,
        orderId,
        events: { cleared: event('evt-cleared'), paid: event('evt-paid'), club: event('evt-club') },
      });
      const stepPid = (await until(() => waitingFor(holder!.pid)))!;
      const { rows: [numbered] } = await watcher.query<{ invoice_number: string | null }>('select invoice_number from shop_orders where id = $1', [orderId]);

      // A checkout of the same shop meanwhile: it completes, or waits for a lock the step holds.
      const watching = { done: false };
      const second = checkout('second@example.com');
      const blocked = until(() => waitingFor(stepPid, holder!.pid), watching);
      const outcome = await Promise.race([second.then((reply) => ({ reply })), blocked.then((pid) => ({ blockedPid: pid }))]);
      watching.done = true;
      await blocked;
      await sql.query('rollback');
      await step;
      expect(outcome, "the checkout waited for the clearing step's transaction").toHaveProperty('reply');
      const { reply } = outcome as { reply: Awaited<typeof second> };
      expect(reply.statusCode, reply.body).toBe(201);
      expect(reply.json().data.ordinal_number).toBe(first.json().data.ordinal_number + 1);
      expect(numbered!.invoice_number, 'the invoice is numbered (and committed) before the step holds its transaction open').not.toBeNull();
    } finally {
      await sql.end();
      await watcher.end();
    }
  });
});

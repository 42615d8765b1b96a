import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearInOneTransaction, clearingStepActivities } from '../../../activities/shop/clearing-transaction.ts';
import { orderEffectActivities } from '../../../activities/shop/order-effects.ts';
import { effectLogBatch } from '../../../db/repositories/shop/effect-log-batch.ts';
import type { ActivityDeps } from '../../../activities/shared/deps.ts';
import { insertProduct } from '../../helpers/shop-catalogue.ts';
import { adminPost, createTestShop, operator, type TestShop } from '../../helpers/shop.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';
import { statementsSent } from '../../helpers/sent-statements.ts';

/**
 * The clearing's one step against the database (issue 26 item 1): its parts read the order once,
 * and again after an invoice part that numbered the invoice, whose number the webhook bodies carry.
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

/** The statements sent while `work` runs (the ORM's and the plain ones alike), without transaction control. */
async function statementsWhile(work: () => Promise<void>): Promise<string[]> {
  return (await statementsSent(work)).map((s) => s.text).filter((text) => !/^(begin|commit|rollback|savepoint|release)\b/i.test(text));
}

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

  it('runs its parts without a savepoint when none fails', async () => {
    const orderId = (await adminPost(stack.app, `/admin/v1/shops/${shop.id}/orders`, { email: 'buyer5@example.com', items: [{ product_id: productId }] })).id as number;
    const statements = await statementsWhile(async () => {
      const result = await clearInOneTransaction(deps, { shopId: shop.id, orderId, events: { cleared: event(), paid: event(), club: event() } });
      expect(result.deferred).toEqual([]);
      expect(result.deliveries).toHaveLength(2);
    });
    // The statements seen (the spy works), none a part's savepoint (`one_part`, transaction-orm.ts).
    expect(statements.some((q) => q.includes('shop_order_effects'))).toBe(true);
    expect(statements.filter((q) => q.includes('one_part'))).toEqual([]);
  });

  it('writes the kept effect-log entries in their order, without those of a part rolled back, as recorded one by one', async () => {
    const orderId = (await adminPost(stack.app, `/admin/v1/shops/${shop.id}/orders`, { email: 'buyer2@example.com', items: [{ product_id: productId }] })).id as number;
    const em = stack.orm.em.fork();
    const log = effectLogBatch();
    const key = (effect: 'download_codes' | 'analytics_purchase' | 'webhook' | 'club_webhook', target?: string) => ({ shopId: shop.id, orderId, source: 'clear' as const, effect, target });
    const at = new Date('2026-01-01T00:00:00Z');
    await log.record(em, key('download_codes'), { status: 'done', detail: '1 code' }, at);
    const mark = log.since();
    await log.record(em, key('analytics_purchase'), { status: 'skipped', detail: 'rolled back' }, at);
    log.dropSince(mark);
    await log.record(em, key('webhook', 'w1'), { status: 'done', detail: 'under way' }, at, { keepRecorded: true });
    await log.record(em, key('webhook', 'w1'), { status: 'done', detail: 'not over the first' }, at, { keepRecorded: true });
    await log.record(em, key('club_webhook'), { status: 'skipped', detail: 'no club' }, at);
    await log.record(em, key('club_webhook'), { status: 'done', detail: 'over the first' }, at);
    await log.write(em);
    expect(await sql<{ effect: string; target: string; detail: string }>('select effect, target, detail from shop_order_effects where order_id = ? order by id', [orderId])).toEqual([
      { effect: 'download_codes', target: '', detail: '1 code' },
      { effect: 'webhook', target: 'w1', detail: 'under way' },
      { effect: 'club_webhook', target: '', detail: 'over the first' },
    ]);
  });

  it("writes a step's entries of distinct keys in two inserts, however the two ways of recording alternate", async () => {
    const orderId = (await adminPost(stack.app, `/admin/v1/shops/${shop.id}/orders`, { email: 'buyer4@example.com', items: [{ product_id: productId }] })).id as number;
    const em = stack.orm.em.fork();
    const statements: string[] = [];
    const execute = em.execute.bind(em);
    em.execute = ((query: string, ...rest: never[]) => (statements.push(query), execute(query, ...rest))) as typeof em.execute;
    const log = effectLogBatch();
    const key = (effect: 'download_codes' | 'webhook' | 'club_webhook', target?: string) => ({ shopId: shop.id, orderId, source: 'clear' as const, effect, target });
    const at = new Date('2026-01-01T00:00:00Z');
    // The clearing's order: a part's outcome, a webhook under way, the club's outcome, the Paid status's webhook under way.
    await log.record(em, key('download_codes'), { status: 'skipped', detail: 'no codes' }, at);
    await log.record(em, key('webhook', 'w1'), { status: 'done', detail: 'under way' }, at, { keepRecorded: true });
    await log.record(em, key('club_webhook'), { status: 'skipped', detail: 'no club' }, at);
    await log.record(em, key('webhook', 'w2'), { status: 'done', detail: 'under way' }, at, { keepRecorded: true });
    await log.write(em);
    expect(statements.filter((q) => q.startsWith('insert into shop_order_effects'))).toHaveLength(2);
    expect(await sql<{ effect: string; target: string }>('select effect, target from shop_order_effects where order_id = ? order by effect, target', [orderId])).toEqual([
      { effect: 'club_webhook', target: '' },
      { effect: 'download_codes', target: '' },
      { effect: 'webhook', target: 'w1' },
      { effect: 'webhook', target: 'w2' },
    ]);
  });

  it("leaves out the effect-log entries of a part that fails after recording some: the first webhook's, when the second's delivery cannot be opened", async () => {
    await adminPost(stack.app, `/admin/v1/shops/${shop.id}/webhooks`, { url: 'https://hooks.example.com/second', events: ['order_cleared'], secret_key: 'k2' });
    const orderId = (await adminPost(stack.app, `/admin/v1/shops/${shop.id}/orders`, { email: 'buyer3@example.com', items: [{ product_id: productId }] })).id as number;
    // The second delivery of the same order_cleared event (whichever webhook comes second) fails to open.
    const probe = `refuse_second_delivery_${randomUUID().replace(/-/g, '')}`;
    await sql(`create function ${probe}() returns trigger language plpgsql as $$
      begin
        if new.shop_id = '${shop.id}' and new.event_type = 'order_cleared'
           and exists (select 1 from shop_webhook_deliveries d where d.shop_id = new.shop_id and d.event_id = new.event_id) then
          raise exception 'probe: the second delivery is refused';
        end if;
        return new;
      end $$`, []);
    await sql(`create trigger ${probe} before insert on shop_webhook_deliveries for each row execute function ${probe}()`, []);
    try {
      const result = await clearInOneTransaction(deps, { shopId: shop.id, orderId, events: { cleared: event(), paid: event(), club: event() } });
      // Run again with a savepoint per part: only the failing part is left, the parts before and after it are kept.
      expect(result.deferred).toEqual(['cleared_webhooks']);
      expect(result.deliveries.map((d) => d.type)).toEqual(['order_status_changed']);
    } finally {
      await sql(`drop trigger ${probe} on shop_webhook_deliveries`, []);
      await sql(`drop function ${probe}()`, []);
    }
    const rows = await sql<{ source: string; effect: string }>('select source, effect from shop_order_effects where order_id = ? and effect = ? order by id', [orderId, 'webhook']);
    // The Paid status's delivery (its own part) stays; the rolled-back part's first entry is gone with its delivery.
    expect(rows).toEqual([{ source: 'clear:paid', effect: 'webhook' }]);
    const cleared = await sql<{ count: string }>("select count(*) from shop_webhook_deliveries where shop_id = ? and event_type = 'order_cleared' and payload->'order'->>'id' = ?", [shop.id, String(orderId)]);
    expect(Number(cleared[0]!.count)).toBe(0);
  });

  describe("how often the whole step (`clearOrderInOneStep`) reads the order's facts (its lines are read with each reading)", () => {
    async function linesReadWhileClearing(clearedShop: TestShop, product: number): Promise<number> {
      const orderId = (await adminPost(stack.app, `/admin/v1/shops/${clearedShop.id}/orders`, { email: 'facts@example.com', items: [{ product_id: product }] })).id as number;
      const statements = await statementsWhile(async () => {
        const result = await clearingStepActivities(deps).clearOrderInOneStep({ shopId: clearedShop.id, orderId, events: { cleared: event(), paid: event(), club: event() } });
        expect(result.deferred).toEqual([]);
      });
      expect(statements.length).toBeGreaterThan(5);
      return statements.filter((q) => q.includes('from "shop_order_items" as "o0"')).length;
    }

    it('once in a shop that does not invoice automatically: the step ahead reads only its switch, and an invoice part that numbers nothing changes no facts', async () => {
      const plain = await createTestShop(stack.app, 'clearing-step-plain');
      expect(await linesReadWhileClearing(plain, await insertProduct(stack.orm, plain.id, { name: 'E-book' }))).toBe(1);
    });

    it('twice where it does: for the invoice numbered ahead, and in the step for the parts whose bodies carry its number', async () => {
      expect(await linesReadWhileClearing(shop, productId)).toBe(2);
    });

    it('and the facts are the only reads the ORM builds: every other part reads in plain statements', async () => {
      const plain = await createTestShop(stack.app, 'clearing-step-orm');
      const product = await insertProduct(stack.orm, plain.id, { name: 'E-book' });
      const orderId = (await adminPost(stack.app, `/admin/v1/shops/${plain.id}/orders`, { email: 'orm@example.com', items: [{ product_id: product }] })).id as number;
      const statements = await statementsWhile(async () => {
        await clearingStepActivities(deps).clearOrderInOneStep({ shopId: plain.id, orderId, events: { cleared: event(), paid: event(), club: event() } });
      });
      // The ORM's statements name their tables by alias ("o0".), plain ones do not.
      const built = statements.filter((q) => /"[a-z]\d+"\./.test(q)).map((q) => q.match(/from "(\w+)"/)?.[1]);
      expect(built).toEqual(['shop_orders', 'shop_order_items']);
    });
  });

  it("sends the Paid status's mail on the outside path in plain statements: its status's settings, then its order with everything the mail shows in one", async () => {
    const mailShop = await createTestShop(stack.app, 'clearing-step-mail');
    const product = await insertProduct(stack.orm, mailShop.id, { name: 'Atlas', price: '49.00' });
    const sender = await adminPost(stack.app, `/admin/v1/shops/${mailShop.id}/senders`, { name: 'Shop', email: 'shop@example.com' });
    const configured = await stack.app.inject({
      method: 'PATCH',
      url: `/api/v1/configuration/order_statuses/${mailShop.statuses.Paid}`,
      headers: { 'x-api-key': mailShop.key },
      payload: { send_email_on_status_change: true, sender_id: sender.id, email: { subject: 'Order {{NUMER_ZAMOWIENIA}} is paid', content: '<p>Total {{KWOTA}} for {{EMAIL}}</p>' } },
    });
    expect(configured.statusCode, configured.body).toBe(200);
    const order = await adminPost(stack.app, `/admin/v1/shops/${mailShop.id}/orders`, { email: 'mail@example.com', items: [{ product_id: product }] });
    const statements = await statementsWhile(async () => {
      expect(await orderEffectActivities(deps).sendStatusMail({ shopId: mailShop.id, orderId: order.id as number, source: 'clear', statusId: null })).toEqual({ status: 'done', detail: 'mail to mail@example.com recorded' });
    });
    // The recorded outcome, the status, the composing read, the mail's claim and record, the outcome: none built by the ORM (its aliases: "o0".).
    expect(statements).toHaveLength(6);
    expect(statements.filter((q) => /"[a-z]\d+"\./.test(q))).toEqual([]);
    const [mail] = await sql<{ subject: string; html: string }>('select subject, html from shop_mails where shop_id = ? and kind = ?', [mailShop.id, 'status_mail']);
    expect(mail).toMatchObject({ subject: `Order ${order.ordinal_number} is paid` });
    expect(mail!.html).toContain('49.00 PLN for mail@example.com');

    // The plain reads name their shop: another shop's status has no mail here, another shop's order is not found.
    const effects = orderEffectActivities(deps);
    const otherOrder = await adminPost(stack.app, `/admin/v1/shops/${shop.id}/orders`, { email: 'other@example.com', items: [{ product_id: productId }] });
    expect(await effects.sendStatusMail({ shopId: shop.id, orderId: otherOrder.id as number, source: 'clear', statusId: mailShop.statuses.Paid! })).toEqual({ status: 'skipped', detail: 'the status has no mail' });
    await expect(effects.sendStatusMail({ shopId: mailShop.id, orderId: otherOrder.id as number, source: 'clear', statusId: null })).rejects.toThrow(`order ${otherOrder.id} not found`);
  });
});

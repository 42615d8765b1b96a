/**
 * One status change through HTTP with everything the shop's configuration hangs on a status: the
 * status mail, the club webhook and a mail sequence, all configured through the API and run by a
 * worker with real activities; a receiver on loopback (allowlisted) takes the club's webhook.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderStatusWorkflowId } from '../../../domain/shop/workflow-ids.ts';
import { startWebhookEndToEnd, type WebhookEndToEnd } from '../../helpers/e2e.ts';
import { insertProduct } from '../../helpers/shop-catalogue.ts';
import { adminPost, createTestShop, type TestShop } from '../../helpers/shop.ts';
import { eventually } from '../../helpers/stack.ts';
import { verifySignatures } from '../../helpers/webhook-receiver.ts';

const SECRET = 'status-effects-club-secret-0123456789';
const CLUB_PATH = '/club/in?token=status-effects';

let e2e: WebhookEndToEnd;
let shop: TestShop;
let productId: number;

beforeAll(async () => {
  e2e = await startWebhookEndToEnd('e2e-shop-status-effects', [200, 200]);
  shop = await createTestShop(e2e.stack.app, 'status-effects');
  productId = await insertProduct(e2e.stack.orm, shop.id, { name: 'Atlas', price: '50.00' });
});
afterAll(async () => {
  for await (const run of e2e.stack.temporal.workflow.list({ query: `WorkflowId STARTS_WITH "shop/${shop.id}/sequence/" AND ExecutionStatus = "Running"` })) {
    await e2e.stack.temporal.workflow.getHandle(run.workflowId).terminate('test over');
  }
  await e2e?.close();
});

const shopApi = async (method: string, path: string, body?: unknown) => {
  const res = await e2e.http(method, path, { headers: { 'x-api-key': shop.key }, body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};
const mailsTo = async (to: string) =>
  (await e2e.http('GET', `/admin/v1/shops/${shop.id}/emails?to=${encodeURIComponent(to)}`, { operator: true })).body.data as { subject: string; html: string; kind: string }[];

describe('an order moved to a status with a mail, a club webhook and a sequence', () => {
  it('sends the status mail, the signed club webhook and the first sequence mail, each once, and logs the three effects', async () => {
    const sent = shop.statuses.Sent!;
    const sender = await adminPost(e2e.stack.app, `/admin/v1/shops/${shop.id}/senders`, { name: 'Atlas Shop', email: 'shop@example.com' });
    await shopApi('PATCH', `/api/v1/configuration/order_statuses/${sent}`, {
      send_email_on_status_change: true,
      sender_id: sender.id,
      email: { subject: 'Order {{NUMER_ZAMOWIENIA}} is on its way', content: '<p>Shipped</p>' },
    });
    await shopApi('PATCH', '/api/v1/configuration/club', { webhook_url: e2e.receiver.url(CLUB_PATH), webhook_secret_key: SECRET, order_status_id: sent });
    const sequence = await adminPost(e2e.stack.app, `/admin/v1/shops/${shop.id}/email_sequences`, {
      name: 'After shipping',
      sender_id: sender.id,
      items: [
        { email: { subject: 'How is your atlas?', content: '<p>Tips</p>' }, offset_amount: 0, offset_unit: 'minutes' },
        { email: { subject: 'A week later', content: '<p>More</p>' }, offset_amount: 7, offset_unit: 'days' },
      ],
    });
    await shopApi('PATCH', `/api/v1/configuration/email_sequences/${sequence.id}`, { triggers: { status_id: sent } });

    const order = await adminPost(e2e.stack.app, `/admin/v1/shops/${shop.id}/orders`, { email: 'ann@example.com', items: [{ product_id: productId }] });
    await shopApi('PATCH', `/api/v1/orders/${order.id}/status`, { order_status_id: sent });

    const mails = await eventually(async () => {
      const all = await mailsTo('ann@example.com');
      expect(all.map((m) => m.kind).sort()).toEqual(['sequence', 'status_mail']);
      return all;
    });
    expect(mails.find((m) => m.kind === 'status_mail')).toMatchObject({ subject: `Order ${order.ordinal_number} is on its way`, html: '<p>Shipped</p>' });
    expect(mails.find((m) => m.kind === 'sequence')).toMatchObject({ subject: 'How is your atlas?' });

    const [webhook] = await eventually(async () => {
      expect(e2e.receiver.requests(CLUB_PATH)).toHaveLength(1);
      return e2e.receiver.requests(CLUB_PATH);
    });
    expect(verifySignatures(webhook!, SECRET)).toEqual({ xWebhookSignature: true, standardWebhooks: true });
    expect(webhook!.json).toMatchObject({ type: 'club_order_status_reached', data: { order: { id: order.id, order_status_id: sent } } });

    const effects = await eventually(async () => {
      const logged = (await e2e.http('GET', `/admin/v1/shops/${shop.id}/orders/${order.id}/effects`, { operator: true })).body.data as { effect: string; source: string; status: string }[];
      // The status change's own lines (placing at New logged its lines under `placed`).
      const wanted = logged.filter((e) => e.source.startsWith('status:') && ['status_mail', 'club_webhook', 'mail_sequence'].includes(e.effect));
      expect(wanted.map((e) => e.effect).sort()).toEqual(['club_webhook', 'mail_sequence', 'status_mail']);
      return wanted;
    });
    expect(effects.every((e) => e.status === 'done')).toBe(true);

    // Nothing arrives twice: the change's run is over (each effect logged after its action), and
    // the club delivery it started is finished with its one attempt (nothing left to retry).
    const [change] = await e2e.stack.orm.em.fork().getConnection().execute<{ id: number }[]>('select id from shop_order_status_changes where shop_id = ? and order_id = ?', [shop.id, order.id]);
    await e2e.stack.temporal.workflow.getHandle(orderStatusWorkflowId({ shopId: shop.id, orderId: order.id, changeId: change!.id })).result();
    await eventually(async () => {
      const deliveries = (await e2e.http('GET', `/admin/v1/shops/${shop.id}/club/deliveries`, { operator: true })).body.data as { status: string; attempts: unknown[] }[];
      expect(deliveries.map((d) => [d.status, d.attempts.length])).toEqual([['succeeded', 1]]);
    });
    expect(await mailsTo('ann@example.com')).toHaveLength(2);
    expect(e2e.receiver.requests(CLUB_PATH)).toHaveLength(1);
  });
});

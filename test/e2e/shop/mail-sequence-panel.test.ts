import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAIL_ENDPOINTS } from '../../../domain/shared/mail-endpoints.ts';
import { startEndToEnd, type EndToEnd } from '../../helpers/e2e.ts';
import { startSmtpStandIn, type SmtpStandIn } from '../../helpers/mail-providers.ts';
import { insertProduct } from '../../helpers/shop-catalogue.ts';
import { adminPost, createTestShop, type TestShop } from '../../helpers/shop.ts';
import { eventually } from '../../helpers/stack.ts';
import { mailSequenceRunId } from '../../helpers/workflow-start-input.ts';

/**
 * Mail sequences through HTTP with a real worker and the shops' default SMTP transport pointed at
 * a stand-in: a sequence tied to Paid starts when an order is cleared (issue 40 item 4), and a
 * sequence deleted in the panel sends none of its planned messages (item 2).
 */
let smtp: SmtpStandIn;
let e2e: EndToEnd;
let shop: TestShop;
let productId: number;
let senderId: number;

beforeAll(async () => {
  smtp = await startSmtpStandIn();
  e2e = await startEndToEnd('shop-mail-sequence-panel', { mailEndpoints: { ...DEFAULT_MAIL_ENDPOINTS, defaultSmtpUrl: `smtp://127.0.0.1:${smtp.port}?ignoreTLS=true` } });
  shop = await createTestShop(e2e.stack.app, 'sequence-panel');
  productId = await insertProduct(e2e.stack.orm, shop.id, { name: 'Atlas', price: '50.00' });
  senderId = (await adminPost(e2e.stack.app, `/admin/v1/shops/${shop.id}/senders`, { name: 'Atlas Shop', email: 'shop@example.com' })).id;
});
afterAll(async () => {
  for await (const run of e2e.stack.temporal.workflow.list({ query: `WorkflowId STARTS_WITH "shop/${shop.id}/sequence/" AND ExecutionStatus = "Running"` })) {
    await e2e.stack.temporal.workflow.getHandle(run.workflowId).terminate('test over');
  }
  await e2e.close();
  await smtp.close();
});

/** A sequence of a message at once and one a day later, triggered by the status. */
async function sequence(name: string, statusId: number): Promise<number> {
  const created = await adminPost(e2e.stack.app, `/admin/v1/shops/${shop.id}/email_sequences`, {
    name,
    sender_id: senderId,
    items: [
      { email: { subject: `${name}: order {{NUMER_ZAMOWIENIA}}`, content: '<p>Thank you</p>' }, offset_amount: 0, offset_unit: 'minutes' },
      { email: { subject: `${name}: a day later`, content: '<p>Tips</p>' }, offset_amount: 1, offset_unit: 'days' },
    ],
  });
  const res = await e2e.http('PATCH', `/api/v1/configuration/email_sequences/${created.id}`, { key: shop.keys.write_storefront, body: { triggers: { status_id: statusId } } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return created.id;
}

const placeFor = (email: string) => adminPost(e2e.stack.app, `/admin/v1/shops/${shop.id}/orders`, { email, items: [{ product_id: productId }] });
const received = (to: string) => smtp.received.filter((mail) => mail.to.includes(to));
const loggedSubjects = async (to: string) =>
  ((await e2e.http('GET', `/admin/v1/shops/${shop.id}/emails?to=${encodeURIComponent(to)}`, { operator: true })).body.data as { kind: string; subject: string }[])
    .filter((mail) => mail.kind === 'sequence')
    .map((mail) => mail.subject);

describe('an order cleared through the API', () => {
  it('starts the sequences tied to Paid: the first message reaches the buyer over SMTP from the sequence\'s sender', async () => {
    const id = await sequence('After payment', shop.statuses.Paid!);
    const order = await placeFor('Payer@Example.com');
    const cleared = await e2e.http('PATCH', `/api/v1/orders/${order.id}/clear`, { key: shop.key });
    expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);

    const [mail] = await eventually(async () => {
      const mails = received('payer@example.com');
      expect(mails).toHaveLength(1);
      return mails;
    });
    expect(mail).toMatchObject({ from: 'shop@example.com', subject: `After payment: order ${order.ordinal_number}` });
    expect(mail!.html).toContain('<p>Thank you</p>');
    const effects = (await e2e.http('GET', `/admin/v1/shops/${shop.id}/orders/${order.id}/effects`, { operator: true })).body.data as { effect: string; source: string; status: string; detail: string }[];
    // The transition's line (placing at New logs its own, source `placed`).
    expect(effects.find((e) => e.effect === 'mail_sequence' && e.source !== 'placed')).toMatchObject({ status: 'done', detail: `sequences ${id} started for the order's buyer` });
  });
});

describe('DELETE /admin/v1/shops/:shop_id/email_sequences/:id', () => {
  it('ends the running runs: the planned message is never sent; the sent one stays in the mail log', async () => {
    const id = await sequence('Shipping', shop.statuses.Sent!);
    const order = await placeFor('reader@example.com');
    expect((await e2e.http('PATCH', `/api/v1/orders/${order.id}/status`, { key: shop.key, body: { order_status_id: shop.statuses.Sent } })).status).toBe(200);
    await eventually(async () => expect(received('reader@example.com')).toHaveLength(1));
    const run = e2e.stack.temporal.workflow.getHandle(await mailSequenceRunId(e2e.stack.orm, { shopId: shop.id, sequenceId: id, email: 'reader@example.com' }));
    expect((await run.describe()).status.name).toBe('RUNNING');

    const res = await e2e.http('DELETE', `/admin/v1/shops/${shop.id}/email_sequences/${id}`, { operator: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ data: { id, deleted: true } });

    // The run is closed (cancelled while it waited for the day-later message): nothing of it can send any more.
    await eventually(async () => expect((await run.describe()).status.name).toBe('CANCELLED'));
    expect(received('reader@example.com').map((mail) => mail.subject)).toEqual([`Shipping: order ${order.ordinal_number}`]);
    expect(await loggedSubjects('reader@example.com')).toEqual([`Shipping: order ${order.ordinal_number}`]);
    expect((await e2e.http('GET', `/api/v1/configuration/email_sequences/${id}`, { key: shop.keys.read })).status).toBe(404);
    expect((await e2e.http('DELETE', `/admin/v1/shops/${shop.id}/email_sequences/${id}`, { operator: true })).status).toBe(404);
  });

  it("answers 404 for another shop's sequence and leaves it", async () => {
    const other = await createTestShop(e2e.stack.app, 'sequence-other');
    const foreign = await adminPost(e2e.stack.app, `/admin/v1/shops/${other.id}/email_sequences`, {
      name: 'Foreign',
      items: [{ email: { subject: 'Hi', content: '<p>Hi</p>' }, offset_amount: 0, offset_unit: 'minutes' }],
    });
    expect((await e2e.http('DELETE', `/admin/v1/shops/${shop.id}/email_sequences/${foreign.id}`, { operator: true })).status).toBe(404);
    expect((await e2e.http('GET', `/api/v1/configuration/email_sequences/${foreign.id}`, { key: other.keys.read })).status).toBe(200);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiscountCode } from '../../../db/entities/shop/index.ts';
import { SHOP_FILTER } from '../../../db/tenant.ts';
import { startEndToEnd, type EndToEnd } from '../../helpers/e2e.ts';
import { insertProduct } from '../../helpers/shop-catalogue.ts';
import { adminPost, createTestShop, type TestShop } from '../../helpers/shop.ts';
import { eventually } from '../../helpers/stack.ts';
import { expectNoAddressIn, mailSequenceRunId } from '../../helpers/workflow-start-input.ts';

/** Mail sequences through HTTP with a real worker: a status change and a newsletter sign-up start them. */
let e2e: EndToEnd;
let shop: TestShop;
let productId: number;
let senderId: number;

beforeAll(async () => {
  e2e = await startEndToEnd('shop-mail-sequences');
  shop = await createTestShop(e2e.stack.app, 'sequences');
  productId = await insertProduct(e2e.stack.orm, shop.id, { name: 'Atlas', price: '50.00' });
  senderId = (await adminPost(e2e.stack.app, `/admin/v1/shops/${shop.id}/senders`, { name: 'Atlas Shop', email: 'shop@example.com' })).id;
});
afterAll(async () => {
  // Runs still waiting for their day-later message end with the test.
  for await (const run of e2e.stack.temporal.workflow.list({ query: `WorkflowId STARTS_WITH "shop/${shop.id}/sequence/" AND ExecutionStatus = "Running"` })) {
    await e2e.stack.temporal.workflow.getHandle(run.workflowId).terminate('test over');
  }
  await e2e.close();
});

interface LoggedMail {
  to: string;
  subject: string;
  html: string;
  kind: string;
}
const mailsTo = async (to: string): Promise<LoggedMail[]> =>
  (await e2e.http('GET', `/admin/v1/shops/${shop.id}/emails?to=${encodeURIComponent(to)}`, { operator: true })).body.data.filter((m: LoggedMail) => m.kind === 'sequence');

async function sequence(name: string, triggers: object, extra: object = {}): Promise<number> {
  const created = await adminPost(e2e.stack.app, `/admin/v1/shops/${shop.id}/email_sequences`, {
    name,
    sender_id: senderId,
    items: [
      { email: { subject: `${name}: welcome {{NUMER_ZAMOWIENIA}}`, content: '<p>Your code: {{KOD_RABATOWY}}</p>' }, offset_amount: 0, offset_unit: 'minutes' },
      { email: { subject: `${name}: a day later`, content: '<p>Tips</p>' }, offset_amount: 1, offset_unit: 'days' },
    ],
  });
  const res = await e2e.http('PATCH', `/api/v1/configuration/email_sequences/${created.id}`, { key: shop.keys.write_storefront, body: { triggers, ...extra } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return created.id;
}

/** The run of the sequence for the address: a second start under its id would be a new run. */
const runOf = async (sequenceId: number, email: string) =>
  (await e2e.stack.temporal.workflow.getHandle(await mailSequenceRunId(e2e.stack.orm, { shopId: shop.id, sequenceId, email })).describe()).runId;

const setStatus = (orderId: number, statusId: number) => e2e.http('PATCH', `/api/v1/orders/${orderId}/status`, { key: shop.key, body: { order_status_id: statusId } });

describe('an order reaching the sequence\'s status', () => {
  it('sends the first message at once from the sequence\'s sender, with the recipient\'s own single-use code, once', async () => {
    const id = await sequence('Onboarding', { status_id: shop.statuses.Sent, products_dependent: true, product_ids: [productId] }, {
      recipient_discount_code: { enabled: true, type: 'percentage_discount', value: '10', validity_days: 7 },
    });
    const order = await adminPost(e2e.stack.app, `/admin/v1/shops/${shop.id}/orders`, { email: 'Reader@Example.com', items: [{ product_id: productId }] });
    expect((await setStatus(order.id, shop.statuses.Sent!)).status).toBe(200);

    const [mail] = await eventually(async () => {
      const mails = await mailsTo('reader@example.com');
      expect(mails).toHaveLength(1);
      return mails;
    });
    expect(mail!.subject).toBe(`Onboarding: welcome ${order.ordinal_number}`);
    const em = e2e.stack.orm.em.fork();
    em.setFilterParams(SHOP_FILTER, { shopId: shop.id });
    const code = await em.findOneOrFail(DiscountCode, { name: `mail sequence ${id}: reader@example.com` });
    expect(code).toMatchObject({ discountType: 'percentage_discount', value: '10.00', usagesLimit: 1 });
    expect(mail!.html).toContain(code.code);
    const [logged] = await em.getConnection().execute<{ from_address: string; from_name: string }[]>(`select from_address, from_name from shop_mails where shop_id = ? and kind = 'sequence' and "to" = ?`, [shop.id, 'reader@example.com']);
    expect(logged).toEqual({ from_address: 'shop@example.com', from_name: 'Atlas Shop' });

    const effects = (await e2e.http('GET', `/admin/v1/shops/${shop.id}/orders/${order.id}/effects`, { operator: true })).body.data as { effect: string; source: string; status: string; detail: string }[];
    // The transition's line (placing at New logs its own, source `placed`).
    expect(effects.find((e) => e.effect === 'mail_sequence' && e.source !== 'placed')).toMatchObject({ status: 'done', detail: `sequences ${id} started for the order's buyer` });

    // The same trigger again (away and back to the status): nothing is sent twice.
    const run = await runOf(id, 'reader@example.com');
    expect((await setStatus(order.id, shop.statuses.Paid!)).status).toBe(200);
    expect((await setStatus(order.id, shop.statuses.Sent!)).status).toBe(200);
    // The effect is recorded after its start was tried: the repeat was refused, the first run goes on.
    await eventually(async () => {
      const rows = (await e2e.http('GET', `/admin/v1/shops/${shop.id}/orders/${order.id}/effects`, { operator: true })).body.data as { effect: string; source: string }[];
      expect(rows.filter((e) => e.effect === 'mail_sequence' && e.source !== 'placed').length).toBeGreaterThanOrEqual(3);
    });
    expect(await runOf(id, 'reader@example.com')).toBe(run);
    expect(await mailsTo('reader@example.com')).toHaveLength(1);
  });

  it('does not start for an order without a listed product', async () => {
    const other = await insertProduct(e2e.stack.orm, shop.id, { name: 'Other' });
    await sequence('Narrow', { status_id: shop.statuses.Sent, products_dependent: true, product_ids: [productId] });
    const order = await adminPost(e2e.stack.app, `/admin/v1/shops/${shop.id}/orders`, { email: 'nobody@example.com', items: [{ product_id: other }] });
    await setStatus(order.id, shop.statuses.Sent!);
    await eventually(async () => {
      const rows = (await e2e.http('GET', `/admin/v1/shops/${shop.id}/orders/${order.id}/effects`, { operator: true })).body.data as { effect: string; source: string; status: string }[];
      expect(rows.find((e) => e.effect === 'mail_sequence' && e.source !== 'placed')).toMatchObject({ status: 'skipped' });
    });
    expect(await mailsTo('nobody@example.com')).toHaveLength(0);
  });
});

describe('a newsletter sign-up', () => {
  it('starts the newsletter sequences once per address', async () => {
    const id = await sequence('Newsletter', { newsletter_subscription: true });
    const signUp = () => e2e.http('POST', `/admin/v1/shops/${shop.id}/newsletter_subscribers`, { operator: true, body: { email: 'Fan@Example.com' } });
    expect((await signUp()).status).toBe(201);
    await eventually(async () => expect((await mailsTo('fan@example.com')).map((m) => m.subject)).toEqual(['Newsletter: welcome ']));
    const run = await runOf(id, 'fan@example.com');
    // The sign-up answers after its starts were tried: the repeat's was refused, the first run goes on.
    expect((await signUp()).status).toBe(200);
    expect(await runOf(id, 'fan@example.com')).toBe(run);
    expect(await mailsTo('fan@example.com')).toHaveLength(1);
    // The run names the address by its keyed hash and the sign-up row only (issue 41 item 3).
    const workflowId = await mailSequenceRunId(e2e.stack.orm, { shopId: shop.id, sequenceId: id, email: 'fan@example.com' });
    await expectNoAddressIn(e2e.stack.temporal, workflowId, 'fan@example.com');
    // One run of the sequence for the address, open or closed: the repeat started none.
    await eventually(async () => {
      const runs: string[] = [];
      for await (const run of e2e.stack.temporal.workflow.list({ query: `WorkflowId STARTS_WITH "shop/${shop.id}/sequence/"` })) {
        if (run.workflowId === workflowId) runs.push(run.runId);
      }
      expect(runs).toHaveLength(1);
    });
  });
});

import { WorkflowNotFoundError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderEffectActivities } from '../../../activities/shop/order-effects.ts';
import { orderPlacedWorkflowId } from '../../../domain/shop/workflow-ids.ts';
import { makePdf } from '../../helpers/pdf.ts';
import { createDeliveryType, insertProduct } from '../../helpers/shop-catalogue.ts';
import { adminPost, createTestShop, operator, type TestShop } from '../../helpers/shop.ts';
import { eventually, startTestApp, startTestWorker, type RunningWorker, type TestStack } from '../../helpers/stack.ts';

/** `/api/v1/configuration/order_statuses` through app.inject (spec: Endpoints > Order status configuration). */
let stack: TestStack;
/** Test mails are sent by a workflow: a worker with the real activities runs it. */
let worker: RunningWorker;
let shop: TestShop;
let other: TestShop;
let courier: number;
let pickup: number;
let otherDelivery: number;
let productId: number;

beforeAll(async () => {
  stack = await startTestApp('shop-order-status-config');
  worker = await startTestWorker({ taskQueue: stack.taskQueue, orm: stack.orm });
  [shop, other] = await Promise.all([createTestShop(stack.app, 'osc-one'), createTestShop(stack.app, 'osc-two')]);
  courier = await createDeliveryType(stack.app, shop.id, { name: 'Courier', default_price: '10.00' });
  pickup = await createDeliveryType(stack.app, shop.id, { name: 'Pickup', default_price: '0.00' });
  otherDelivery = await createDeliveryType(stack.app, other.id, { name: 'Theirs', default_price: '1.00' });
  productId = await insertProduct(stack.orm, shop.id, { name: 'Atlas', price: '40.00' });
});
afterAll(async () => {
  await worker.stop();
  await stack.close();
});

const base = '/api/v1/configuration/order_statuses';
const get = (url: string, key = shop.key) => stack.app.inject({ method: 'GET', url, headers: { 'x-api-key': key } });
const send = (method: 'PATCH' | 'POST', url: string, payload: unknown, headers = shop.headers()) => stack.app.inject({ method, url, headers, payload: payload as object });
const patch = (id: number, payload: unknown, headers = shop.headers()) => send('PATCH', `${base}/${id}`, payload, headers);
const statusOf = async (id: number, of: TestShop = shop) => (await get(`${base}/${id}`, of.key)).json().data;
const mailsTo = async (to: string, of: TestShop = shop) =>
  (await stack.app.inject({ method: 'GET', url: `/admin/v1/shops/${of.id}/emails?to=${encodeURIComponent(to)}`, headers: operator })).json().data as { to: string; subject: string; html: string; kind: string }[];
/** Mails to `to` once `count` of them are in the log. */
const mailsOnceThere = (to: string, count: number, of: TestShop = shop) =>
  eventually(async () => {
    const mails = await mailsTo(to, of);
    expect(mails).toHaveLength(count);
    return mails;
  });
/** How many test-mail workflows the shop has started: a 422 starts none. */
const testMailRuns = async (of: TestShop = shop) => {
  let n = 0;
  for await (const _ of stack.temporal.workflow.list({ query: `WorkflowId STARTS_WITH "shop/${of.id}/status-test-mails/"` })) n++;
  return n;
};
const userStatus = async (name: string, of: TestShop = shop) => (await adminPost(stack.app, `/admin/v1/shops/${of.id}/order_statuses`, { name })).id as number;
const sender = async (of: TestShop = shop) => (await adminPost(stack.app, `/admin/v1/shops/${of.id}/senders`, { name: 'Shop', email: 'shop@example.com' })).id as number;

/** Every 422 of these tests must leave the status exactly as it was. */
async function refusedUnchanged(id: number, payload: unknown, field: string) {
  const before = await statusOf(id);
  const res = await patch(id, payload);
  expect(res.statusCode, res.body).toBe(422);
  expect(Object.keys(res.json().errors)).toContain(field);
  expect(await statusOf(id)).toEqual(before);
}

describe('GET /api/v1/configuration/order_statuses', () => {
  it('lists the shop\'s statuses with every field of the spec, built-ins not renamable', async () => {
    const res = await get(base);
    expect(res.statusCode).toBe(200);
    const { data, meta } = res.json();
    expect(meta).toMatchObject({ page: 1, per_page: 25 });
    const paid = data.find((s: { name: string }) => s.name === 'Paid');
    expect(paid).toEqual({
      id: shop.statuses.Paid,
      name: 'Paid',
      kind: 'PaidDefaultOrderStatus',
      name_editable: false,
      send_email_on_status_change: false,
      sender_id: null,
      bcc_email_address: null,
      treat_order_as_handled: false,
      automatically_set: null,
      email: null,
    });
    expect(data.map((s: { id: number }) => s.id)).not.toContain(other.statuses.Paid);
  });

  it('pages with per_page, and a hand-made status is UserOrderStatus with an editable name', async () => {
    const id = await userStatus('Packed');
    expect((await get(`${base}?per_page=2&page=1`)).json().data).toHaveLength(2);
    expect(await statusOf(id)).toMatchObject({ kind: 'UserOrderStatus', name_editable: true });
  });

  it('answers 404 for another shop\'s status and a malformed id', async () => {
    expect((await get(`${base}/${other.statuses.Paid}`)).statusCode).toBe(404);
    expect((await get(`${base}/abc`)).statusCode).toBe(404);
  });

  it('reads with `read`, writes only with `write_storefront`; no key is 401', async () => {
    expect((await get(base, shop.keys.read)).statusCode).toBe(200);
    expect((await get(base, shop.keys.write_storefront)).statusCode).toBe(403);
    expect((await patch(shop.statuses.Sent!, { treat_order_as_handled: true }, shop.headers('write_config'))).statusCode).toBe(403);
    expect((await patch(shop.statuses.Sent!, { treat_order_as_handled: true }, shop.headers('read'))).statusCode).toBe(403);
    expect((await send('POST', `${base}/test_emails`, { email: 'x@example.com' }, shop.headers('read'))).statusCode).toBe(403);
    expect((await stack.app.inject({ method: 'GET', url: base })).statusCode).toBe(401);
  });
});

describe('PATCH /api/v1/configuration/order_statuses/:id', () => {
  it('changes only the sent fields', async () => {
    const senderId = await sender();
    const id = await userStatus('Handled');
    const res = await patch(id, { sender_id: senderId, treat_order_as_handled: true, bcc_email_address: 'copy@example.com' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ name: 'Handled', sender_id: senderId, treat_order_as_handled: true, bcc_email_address: 'copy@example.com', send_email_on_status_change: false });
    const again = await patch(id, { send_email_on_status_change: true, bcc_email_address: '' });
    expect(again.json().data).toMatchObject({ sender_id: senderId, treat_order_as_handled: true, bcc_email_address: null, send_email_on_status_change: true });
  });

  it('renames a hand-made status; renaming a built-in is 422 (its own name again is no rename)', async () => {
    const id = await userStatus('Old name');
    expect((await patch(id, { name: 'New name' })).json().data.name).toBe('New name');
    await refusedUnchanged(shop.statuses.Paid!, { name: 'Bezahlt', treat_order_as_handled: true }, 'name');
    expect((await patch(shop.statuses.Paid!, { name: 'Paid' })).statusCode).toBe(200);
  });

  it('refuses a sender of another shop (422) and a status of another shop (404)', async () => {
    const theirs = await sender(other);
    await refusedUnchanged(shop.statuses.Sent!, { sender_id: theirs }, 'sender_id');
    expect((await patch(other.statuses.Sent!, { treat_order_as_handled: true })).statusCode).toBe(404);
    expect((await statusOf(other.statuses.Sent!, other)).treat_order_as_handled).toBe(false);
  });

  it('refuses unknown fields, a bad bcc address and an empty name, naming the field', async () => {
    const id = await userStatus('Strict');
    await refusedUnchanged(id, { kind: 'PaidDefaultOrderStatus' }, 'kind');
    await refusedUnchanged(id, { bcc_email_address: 'not an address' }, 'bcc_email_address');
    await refusedUnchanged(id, { name: '  ' }, 'name');
    await refusedUnchanged(id, { email: null }, 'email');
  });

  describe('email', () => {
    it('needs subject and content on the first write (subject alone 422), then changes single fields', async () => {
      const id = await userStatus('Mail first');
      await refusedUnchanged(id, { email: { subject: 'Hello' } }, 'email.content');
      const created = await patch(id, { email: { subject: 'Hello {{NUMER_ZAMOWIENIA}}', content: '<p>Hi</p>' } });
      expect(created.json().data.email).toEqual({ subject: 'Hello {{NUMER_ZAMOWIENIA}}', content: '<p>Hi</p>', electronic_order_substitution_content: null, delivery_type_substitutions: [] });
      const changed = await patch(id, { email: { subject: 'Changed', electronic_order_substitution_content: '<p>Files</p>' } });
      expect(changed.json().data.email).toMatchObject({ subject: 'Changed', content: '<p>Hi</p>', electronic_order_substitution_content: '<p>Files</p>' });
    });

    it('creates delivery blocks named DOSTAWA_<delivery>_<n> with their tags; the complete list replaces, an omitted block and its tag disappear', async () => {
      const id = await userStatus('Blocks');
      await patch(id, { email: { subject: 'S', content: '<p>Hi</p>' } });
      const created = await patch(id, {
        email: {
          delivery_type_substitutions: [
            { delivery_type_id: courier, content: '<p>Parcel {{NUMER_PACZKI}}</p>' },
            { delivery_type_id: courier, content: '<p>Second</p>' },
            { delivery_type_id: pickup, content: '<p>Pick up</p>' },
          ],
        },
      });
      expect(created.statusCode, created.body).toBe(200);
      expect(created.json().data.email.delivery_type_substitutions).toEqual([
        { name: `DOSTAWA_${courier}_1`, tag: `{{DOSTAWA_${courier}_1}}`, delivery_type_id: courier, content: '<p>Parcel {{NUMER_PACZKI}}</p>' },
        { name: `DOSTAWA_${courier}_2`, tag: `{{DOSTAWA_${courier}_2}}`, delivery_type_id: courier, content: '<p>Second</p>' },
        { name: `DOSTAWA_${pickup}_1`, tag: `{{DOSTAWA_${pickup}_1}}`, delivery_type_id: pickup, content: '<p>Pick up</p>' },
      ]);
      await patch(id, { email: { content: `<p>Hi</p>{{DOSTAWA_${courier}_1}}{{DOSTAWA_${courier}_2}}{{DOSTAWA_${pickup}_1}}` } });
      // Without the key the blocks stay.
      expect((await patch(id, { email: { subject: 'S2' } })).json().data.email.delivery_type_substitutions).toHaveLength(3);

      const replaced = await patch(id, { email: { delivery_type_substitutions: [{ name: `DOSTAWA_${courier}_2`, content: '<p>Changed</p>' }, { delivery_type_id: courier, content: '<p>Third</p>' }] } });
      const email = replaced.json().data.email;
      expect(email.delivery_type_substitutions.map((b: { name: string; content: string }) => [b.name, b.content])).toEqual([
        [`DOSTAWA_${courier}_2`, '<p>Changed</p>'],
        [`DOSTAWA_${courier}_3`, '<p>Third</p>'],
      ]);
      expect(email.content).toBe(`<p>Hi</p>{{DOSTAWA_${courier}_2}}`);
    });

    it('refuses an unknown name, a delivery of another shop, moving a block, a value that is not an array: status unchanged', async () => {
      const id = await userStatus('Block errors');
      await patch(id, { email: { subject: 'S', content: 'C', delivery_type_substitutions: [{ delivery_type_id: courier, content: 'x' }] } });
      const field = 'email.delivery_type_substitutions';
      await refusedUnchanged(id, { email: { delivery_type_substitutions: [{ name: `DOSTAWA_${courier}_1` }, { name: `DOSTAWA_${courier}_7`, content: 'y' }] } }, `${field}.1.name`);
      await refusedUnchanged(id, { email: { subject: 'changed too', delivery_type_substitutions: [{ delivery_type_id: otherDelivery, content: 'y' }] } }, `${field}.0.delivery_type_id`);
      await refusedUnchanged(id, { email: { delivery_type_substitutions: [{ name: `DOSTAWA_${courier}_1`, delivery_type_id: pickup }] } }, `${field}.0.delivery_type_id`);
      await refusedUnchanged(id, { email: { delivery_type_substitutions: { name: `DOSTAWA_${courier}_1` } } }, field);
      await refusedUnchanged(id, { email: { delivery_type_substitutions: [{ content: 'no delivery' }] } }, `${field}.0.delivery_type_id`);
    });

    it('queues concurrent block writes: every new block gets a name of its own', async () => {
      const id = await userStatus('Concurrent');
      await patch(id, { email: { subject: 'S', content: 'C' } });
      const replies = await Promise.all(Array.from({ length: 6 }, () => patch(id, { email: { delivery_type_substitutions: [{ delivery_type_id: courier, content: 'x' }] } })));
      const names = replies.map((r) => r.json().data.email.delivery_type_substitutions[0].name);
      expect(new Set(names).size).toBe(6);
      expect((await statusOf(id)).email.delivery_type_substitutions).toHaveLength(1);
    });
  });

  describe('automatically_set', () => {
    it('is written and read with its documented shape; sent fields merge; null turns it off', async () => {
      const id = await userStatus('Auto');
      const res = await patch(id, { automatically_set: { automatically_set_after_status_id: shop.statuses.Paid, automatically_set_offset_days: 2 } });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.automatically_set).toEqual({
        automatically_set_after_status_id: shop.statuses.Paid,
        automatically_set_offset_days: 2,
        automatically_set_offset_hours: 0,
        automatically_set_if_total_zero: false,
        automatically_set_only_for_shop_origin_orders: false,
      });
      const merged = await patch(id, { automatically_set: { automatically_set_offset_hours: 5, automatically_set_if_total_zero: true } });
      expect(merged.json().data.automatically_set).toMatchObject({ automatically_set_offset_days: 2, automatically_set_offset_hours: 5, automatically_set_if_total_zero: true });
      expect((await patch(id, { automatically_set: null })).json().data.automatically_set).toBeNull();
    });

    it('a rule after New moves a placed order when its offset has passed; an order placed before the rule stays at New', async () => {
      const own = await createTestShop(stack.app, 'osc-auto-new');
      const ownProduct = await insertProduct(stack.orm, own.id, { name: 'Map', price: '12.00' });
      const before = await adminPost(stack.app, `/admin/v1/shops/${own.id}/orders`, { email: 'first@example.com', items: [{ product_id: ownProduct }] });
      // Nothing of New was configured: its placing started no run, so nothing plans a status for it.
      await expect(stack.temporal.workflow.getHandle(orderPlacedWorkflowId({ shopId: own.id, orderId: before.id })).describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);

      const awaiting = await userStatus('Awaiting payment', own);
      const rule = await patch(awaiting, { automatically_set: { automatically_set_after_status_id: own.statuses.New, automatically_set_offset_hours: 0 } }, own.headers());
      expect(rule.statusCode, rule.body).toBe(200);
      const order = await adminPost(stack.app, `/admin/v1/shops/${own.id}/orders`, { email: 'second@example.com', items: [{ product_id: ownProduct }] });
      await eventually(async () => {
        const detail = (await get(`/api/v1/orders/${order.id}`, own.key)).json().data;
        expect(detail.order_status_id).toBe(awaiting);
      });
      // The order placed before the rule existed stays at New.
      expect((await get(`/api/v1/orders/${before.id}`, own.key)).json().data.order_status_id).toBe(own.statuses.New);
    });

    it('refuses a rule without its status, after itself, after another shop\'s status, closing a loop, or with offsets out of range', async () => {
      const id = await userStatus('Auto errors');
      const field = 'automatically_set.automatically_set_after_status_id';
      await refusedUnchanged(id, { automatically_set: { automatically_set_offset_days: 1 } }, field);
      await refusedUnchanged(id, { automatically_set: { automatically_set_after_status_id: id } }, field);
      await refusedUnchanged(id, { automatically_set: { automatically_set_after_status_id: other.statuses.Paid } }, field);
      await refusedUnchanged(id, { automatically_set: { automatically_set_after_status_id: shop.statuses.Paid, automatically_set_offset_days: -1 } }, 'automatically_set.automatically_set_offset_days');
      // A loop (each status set after the other) would move an order forever.
      const partner = await userStatus('Auto partner');
      expect((await patch(partner, { automatically_set: { automatically_set_after_status_id: id } })).statusCode).toBe(200);
      await refusedUnchanged(id, { automatically_set: { automatically_set_after_status_id: partner } }, field);
    });
  });
});

const fileOf = (bytes: Buffer, filename: string) => ({ filename, content_type: 'application/pdf', data: bytes.toString('base64') });

/** A paid order of an e-book and the Atlas, delivered by courier, with its download code made by the clearing effect's activity. */
async function paidElectronicOrder(email: string) {
  const ebookId = await insertProduct(stack.orm, shop.id, { name: 'E-book', price: '25.00', electronic: true });
  const upload = await stack.app.inject({ method: 'POST', url: `/api/v1/products/${ebookId}/electronic_contents`, headers: shop.headers(), payload: { days_to_expire: 30, usages_to_expire: 3, file: fileOf(await makePdf(1), 'guide.pdf') } });
  expect(upload.statusCode, upload.body).toBe(201);
  const order = await adminPost(stack.app, `/admin/v1/shops/${shop.id}/orders`, { email, delivery_type_id: courier, items: [{ product_id: ebookId }, { product_id: productId }] });
  await stack.orm.em.fork().getConnection().execute("update shop_orders set tracking_number = 'TRK-42', paid = true, paid_at = now() where id = ?", [order.id]);
  expect((await orderEffectActivities({ orm: stack.orm, platformUrlTemplate: '' }).createDownloadCodes({ shopId: shop.id, orderId: order.id, source: 'clear' })).status).toBe('done');
  return order as { id: number; ordinal_number: number };
}

describe('POST /api/v1/configuration/order_statuses/:id/test_email', () => {
  let statusId: number;
  beforeAll(async () => {
    statusId = await userStatus('Tested');
    const senderId = await sender();
    const res = await patch(statusId, {
      sender_id: senderId,
      bcc_email_address: 'bcc@example.com',
      email: {
        subject: 'Order {{NUMER_ZAMOWIENIA}} for {{EMAIL}}',
        content: '<p>Hello</p>',
        electronic_order_substitution_content: '<p>Files of {{NUMER_ZAMOWIENIA}}</p>{{LINKI_DO_POBRANIA}}',
        delivery_type_substitutions: [{ delivery_type_id: courier, content: '<p>Parcel {{NUMER_PACZKI}}</p>' }, { delivery_type_id: pickup, content: '<p>Pick up</p>' }],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    await patch(statusId, { email: { electronic_order_substitution_content: `<p>Files of {{NUMER_ZAMOWIENIA}}</p>{{DOSTAWA_${courier}_1}}{{DOSTAWA_${pickup}_1}}{{LINKI_DO_POBRANIA}}` } });
  });

  it('sends the saved mail without an order: order tags empty, no block; only to the given address', async () => {
    const res = await send('POST', `${base}/${statusId}/test_email`, { email: 'tester1@example.com' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ id: statusId, name: 'Tested', send_email_on_status_change: false, to: 'tester1@example.com', sent: true });
    expect(await mailsOnceThere('tester1@example.com', 1)).toEqual([expect.objectContaining({ kind: 'test_mail', subject: 'Order  for ', html: '<p>Hello</p>' })]);
    expect(await mailsTo('bcc@example.com')).toEqual([]);
  });

  it('fills tags, the chosen delivery\'s block and real download links from `#<number>`; the customer gets nothing and the order is untouched', async () => {
    const order = await paidElectronicOrder('customer1@example.com');
    const before = (await get(`/api/v1/orders/${order.id}`)).json().data;
    const res = await send('POST', `${base}/${statusId}/test_email`, { email: 'tester2@example.com', order_number: `#${order.ordinal_number}` });
    expect(res.statusCode, res.body).toBe(200);
    const [mail] = await mailsOnceThere('tester2@example.com', 1);
    expect(mail!.subject).toBe(`Order ${order.ordinal_number} for customer1@example.com`);
    expect(mail!.html).toContain('<p>Parcel TRK-42</p>');
    expect(mail!.html).not.toContain('Pick up');
    const link = /href="([^"]+)"/.exec(mail!.html)![1]!;
    const [code] = await stack.orm.em.fork().getConnection().execute<{ token: string; usages: number }[]>('select token, usages from shop_download_codes where order_id = ?', [order.id]);
    expect(link).toMatch(new RegExp(`^https?://[^/]+/downloads/${code!.token}$`));
    // Real: opening it uses up the customer's limit.
    expect((await stack.app.inject({ method: 'GET', url: new URL(link).pathname })).statusCode).toBe(200);
    const [after] = await stack.orm.em.fork().getConnection().execute<{ usages: number }[]>('select usages from shop_download_codes where order_id = ?', [order.id]);
    expect(after!.usages).toBe(code!.usages + 1);
    expect(await mailsTo('customer1@example.com')).toEqual([]);
    expect((await get(`/api/v1/orders/${order.id}`)).json().data).toEqual(before);
    const effects = await stack.app.inject({ method: 'GET', url: `/admin/v1/shops/${shop.id}/orders/${order.id}/effects`, headers: operator });
    // Placing logged its own (New has no mail); the test mail logged nothing.
    expect(effects.json().data.filter((e: { effect: string; source: string }) => e.effect === 'status_mail' && e.source !== 'placed')).toEqual([]);
  });

  it('answers 422 naming each problem and sends nothing: bad or missing address, unknown order number, a status without a mail', async () => {
    const bare = await userStatus('No mail');
    const runs = await testMailRuns();
    const cases: [number, unknown, string][] = [
      [statusId, { email: 'nope' }, 'email'],
      [statusId, {}, 'email'],
      [statusId, { email: 'tester3@example.com', order_number: '#99999' }, 'order_number'],
      [statusId, { email: 'tester3@example.com', order_number: 'abc' }, 'order_number'],
      [bare, { email: 'tester3@example.com' }, 'id'],
    ];
    for (const [id, body, field] of cases) {
      const res = await send('POST', `${base}/${id}/test_email`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(Object.keys(res.json().errors)).toContain(field);
    }
    expect(await testMailRuns()).toBe(runs);
    expect(await mailsTo('tester3@example.com')).toEqual([]);
  });

  it('answers 404 for a status of another shop, and an order number of another shop is unknown', async () => {
    expect((await send('POST', `${base}/${other.statuses.Paid}/test_email`, { email: 'tester4@example.com' })).statusCode).toBe(404);
    const theirs = await adminPost(stack.app, `/admin/v1/shops/${other.id}/orders`, { email: 'x@example.com', items: [{ product_id: await insertProduct(stack.orm, other.id, { name: 'T', price: '1.00' }) }] });
    const ours = await adminPost(stack.app, `/admin/v1/shops/${shop.id}/orders`, { email: 'x@example.com', items: [{ product_id: productId }] });
    // Ordinal numbers are per shop: probe one the key's shop does not have.
    const missing = Math.max(theirs.ordinal_number, ours.ordinal_number) + 1000;
    const res = await send('POST', `${base}/${statusId}/test_email`, { email: 'tester4@example.com', order_number: missing });
    expect(res.statusCode).toBe(422);
    expect(await mailsTo('tester4@example.com')).toEqual([]);
  });
});

describe('POST /api/v1/configuration/order_statuses/test_emails', () => {
  it('sends the mail of every status that has one and lists the rest as skipped with reason no_email', async () => {
    const fresh = await createTestShop(stack.app, 'osc-three');
    const withMail = fresh.statuses.Sent!;
    await patch(withMail, { send_email_on_status_change: true, email: { subject: 'Sent', content: 'C' } }, fresh.headers());
    const res = await send('POST', `${base}/test_emails`, { email: 'all@example.com' }, fresh.headers());
    expect(res.statusCode, res.body).toBe(200);
    const { sent, skipped } = res.json().data;
    expect(sent).toEqual([{ id: withMail, name: 'Sent', send_email_on_status_change: true }]);
    expect(skipped).toHaveLength(Object.keys(fresh.statuses).length - 1);
    expect(skipped[0]).toEqual({ id: expect.any(Number), name: expect.any(String), send_email_on_status_change: false, reason: 'no_email' });
    expect(await mailsOnceThere('all@example.com', 1, fresh)).toEqual([expect.objectContaining({ kind: 'test_mail', subject: 'Sent' })]);

    const only = await send('POST', `${base}/test_emails`, { email: 'some@example.com', ids: [fresh.statuses.Paid] }, fresh.headers());
    expect(only.json().data).toEqual({ sent: [], skipped: [{ id: fresh.statuses.Paid, name: 'Paid', send_email_on_status_change: false, reason: 'no_email' }] });
  });

  it('validates the address, the order number and the ids before sending: 422 means nothing was sent', async () => {
    const cases: [unknown, string][] = [
      [{ email: 'bad' }, 'email'],
      [{ email: 'none@example.com', order_number: '#424242' }, 'order_number'],
      [{ email: 'none@example.com', ids: [shop.statuses.Sent, other.statuses.Sent] }, 'ids'],
    ];
    await patch(shop.statuses.Sent!, { email: { subject: 'Sent', content: 'C' } });
    const runs = await testMailRuns();
    for (const [body, field] of cases) {
      const res = await send('POST', `${base}/test_emails`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(Object.keys(res.json().errors)).toContain(field);
    }
    expect(await testMailRuns()).toBe(runs);
    expect(await mailsTo('none@example.com')).toEqual([]);
  });
});

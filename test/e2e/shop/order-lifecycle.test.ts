import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearOrderWorkflowId } from '../../../domain/shop/workflow-ids.ts';
import { startEndToEnd, type EndToEnd } from '../../helpers/e2e.ts';
import { makePdf } from '../../helpers/pdf.ts';
import { createDeliveryType, insertProduct } from '../../helpers/shop-catalogue.ts';
import { adminPost, createTestShop, type TestShop } from '../../helpers/shop.ts';
import { ADMIN_TOKEN, eventually } from '../../helpers/stack.ts';

/**
 * The life of an order after payment (issue 22), through HTTP with a real worker: the clearing's
 * Paid status mail with working download links, a cancellation that the sales report, the codes
 * and the subscription notice, a zero-total order fulfilled at placing, no_invoice products, and
 * the panel's order edits feeding `{{NUMER_PACZKI}}`.
 */
let e2e: EndToEnd;
let shop: TestShop;
let ebook: number;
let sender: { id: number };

/** A loaded machine (many suites at once) runs the worker slowly: long deadlines, the outcome asserted. */
const LONG = { timeoutMs: 120_000 };

type Effect = { effect: string; status: string; detail: string };
type Mail = { to: string; subject: string; html: string; kind: string };

const key = () => ({ key: shop.key });
const place = (body: object) => adminPost(e2e.stack.app, `/admin/v1/shops/${shop.id}/orders`, body);
const clear = (orderId: number) => e2e.http('PATCH', `/api/v1/orders/${orderId}/clear`, key());
const setStatus = (orderId: number, statusId: number) => e2e.http('PATCH', `/api/v1/orders/${orderId}/status`, { ...key(), body: { order_status_id: statusId } });
const orderOf = async (orderId: number) => (await e2e.http('GET', `/api/v1/orders/${orderId}`, key())).body.data;
const effectsOf = async (orderId: number) => (await e2e.http('GET', `/admin/v1/shops/${shop.id}/orders/${orderId}/effects`, { operator: true })).body.data as Effect[];
const mailsTo = async (to: string) => (await e2e.http('GET', `/admin/v1/shops/${shop.id}/emails?to=${encodeURIComponent(to)}`, { operator: true })).body.data as Mail[];
/** The latest line of `effect` (placing logs its own status mail and webhook lines before the clearing's). */
const effectWhen = (orderId: number, effect: string, status?: string) =>
  eventually(async () => {
    const found = (await effectsOf(orderId)).filter((e) => e.effect === effect).at(-1);
    expect(found, `${effect} of order ${orderId}`).toBeDefined();
    if (status) expect(found!.status, found!.detail).toBe(status);
    return found!;
  }, LONG);
const configureStatus = async (statusId: number, body: object) => {
  const res = await e2e.http('PATCH', `/api/v1/configuration/order_statuses/${statusId}`, { ...key(), body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};
/** The UTC days around now: a report range that holds every order placed by this test. */
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const sales = async () => {
  const res = await e2e.http('GET', `/api/v1/reports/sales?date_from=${day(-1)}&date_to=${day(1)}`, key());
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { orders_count: number; total_revenue: string; paid_orders_count: number };
};
/** The download link exactly as the mail holds it: absolute, under the API's public address. */
const linkIn = (html: string) => {
  const href = /href="([^"]*\/downloads\/[A-Za-z0-9_-]+)"/.exec(html);
  expect(href, html).not.toBeNull();
  expect(href![1]!.startsWith(`${e2e.baseUrl}/downloads/`), href![1]).toBe(true);
  return { href: href![1]!, url: href![1]! };
};

beforeAll(async () => {
  e2e = await startEndToEnd('shop-order-lifecycle');
  shop = await createTestShop(e2e.stack.app, 'lifecycle');
  sender = await adminPost(e2e.stack.app, `/admin/v1/shops/${shop.id}/senders`, { name: 'Atlas Shop', email: 'shop@example.com' });
  ebook = await insertProduct(e2e.stack.orm, shop.id, { name: 'Atlas PDF', price: '49.00', electronic: true });
  const content = await e2e.http('POST', `/api/v1/products/${ebook}/electronic_contents`, {
    ...key(),
    body: { file: { filename: 'atlas.pdf', content_type: 'application/pdf', data: (await makePdf(1)).toString('base64') }, days_to_expire: 14, usages_to_expire: 5 },
  });
  expect(content.status, JSON.stringify(content.body)).toBe(201);
  await configureStatus(shop.statuses.Paid!, {
    send_email_on_status_change: true,
    sender_id: sender.id,
    email: { subject: 'Order {{NUMER_ZAMOWIENIA}} is paid', content: '<p>Thank you. Your files:</p>{{LINKI_DO_POBRANIA}}' },
  });
});
afterAll(() => e2e?.close());

describe('clearing an e-book order', () => {
  let order: { id: number; ordinal_number: number };
  let download: { url: string };

  it('sends the Paid status mail once, whose link downloads the file the clearing issued', async () => {
    order = await place({ email: 'ola@example.com', items: [{ product_id: ebook }] });
    expect((await clear(order.id)).status).toBe(200);
    const [mail] = await eventually(async () => {
      const mails = await mailsTo('ola@example.com');
      expect(mails).toHaveLength(1);
      return mails;
    }, LONG);
    expect(mail).toMatchObject({ kind: 'status_mail', subject: `Order ${order.ordinal_number} is paid` });
    download = linkIn(mail!.html);
    const file = await fetch(download.url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toContain('filename="atlas.pdf"');
    expect(new TextDecoder().decode(new Uint8Array(await file.arrayBuffer())).startsWith('%PDF')).toBe(true);
    expect(await effectWhen(order.id, 'status_mail', 'done')).toMatchObject({ detail: expect.stringContaining('mail to ola@example.com') });
    expect(await effectWhen(order.id, 'download_codes', 'done')).toMatchObject({ detail: '1 download codes (1 new)' });

    // A repeated clear is `Already Cleared` and sends nothing more: it joins the clearing's one
    // run, over by then, and starts no second one.
    const clearing = e2e.stack.temporal.workflow.getHandle(clearOrderWorkflowId({ shopId: shop.id, orderId: order.id }));
    await clearing.result();
    const { runId } = await clearing.describe();
    expect((await clear(order.id)).status).toBe(422);
    expect((await clearing.describe()).runId).toBe(runId);
    expect(await mailsTo('ola@example.com')).toHaveLength(1);
  });

  it('a cancellation leaves the sales report, the list filter and the download link: canceled until moved on', async () => {
    const before = await sales();
    expect((await setStatus(order.id, shop.statuses.Canceled!)).status).toBe(200);
    expect(await orderOf(order.id)).toMatchObject({ internal_status: 'canceled', order_status: 'Canceled', paid: true });
    const after = await sales();
    expect(after.orders_count).toBe(before.orders_count - 1);
    expect(Number(after.total_revenue)).toBeCloseTo(Number(before.total_revenue) - 49, 2);
    expect(after.paid_orders_count).toBe(before.paid_orders_count - 1);
    const canceled = (await e2e.http('GET', '/api/v1/orders?internal_status=canceled', key())).body.data as { id: number }[];
    expect(canceled.map((o) => o.id)).toEqual([order.id]);
    const placed = (await e2e.http('GET', '/api/v1/orders?internal_status=placed&per_page=100', key())).body.data as { id: number }[];
    expect(placed.map((o) => o.id)).not.toContain(order.id);

    const gone = await fetch(download.url);
    expect(gone.status).toBe(410);
    expect(await gone.json()).toEqual({ error: expect.stringMatching(/canceled or returned/) });

    // The owner moves it on (to Sent): placed again, counted again, its link works again.
    expect((await setStatus(order.id, shop.statuses.Sent!)).status).toBe(200);
    expect((await orderOf(order.id)).internal_status).toBe('placed');
    expect((await sales()).orders_count).toBe(before.orders_count);
    expect((await fetch(download.url)).status).toBe(200);
  });

  it('refuses to clear a canceled or returned order, and changes nothing', async () => {
    for (const status of ['Canceled', 'Returned'] as const) {
      const unpaid = await place({ email: 'late@example.com', items: [{ product_id: ebook }] });
      expect((await setStatus(unpaid.id, shop.statuses[status]!)).status).toBe(200);
      const refused = await clear(unpaid.id);
      expect(refused.status).toBe(422);
      expect(refused.body.error).toBe('Not clearable');
      expect(await orderOf(unpaid.id)).toMatchObject({ internal_status: status.toLowerCase(), paid: false, order_status: status });
      const returnedReport = (await e2e.http('GET', `/api/v1/orders?internal_status=${status.toLowerCase()}`, key())).body.data as { id: number }[];
      expect(returnedReport.map((o) => o.id)).toContain(unpaid.id);
    }
  });
});

describe('a subscription product', () => {
  it('gives each unit its own identifier, and a canceled order stops the subscription it started', async () => {
    const box = await insertProduct(e2e.stack.orm, shop.id, { name: 'Monthly box', price: '39.00' });
    const plan = await e2e.http('POST', '/api/v1/subscription_plans', {
      ...key(),
      body: { subscription_plan: { name: 'Box club', automatic_renewal: true, extension_strategy: 'continuous', products: [{ product_id: box, interval: 30 }] } },
    });
    expect(plan.status, JSON.stringify(plan.body)).toBe(201);
    const order = await place({ email: 'sub@example.com', items: [{ product_id: box, quantity: 2 }] });
    expect((await clear(order.id)).status).toBe(200);
    await effectWhen(order.id, 'subscription', 'done');
    const subscribers = () => e2e.http('GET', '/api/v1/subscribers?email=sub@example.com', { key: shop.keys.write_subscriptions }).then((r) => r.body.data as { id: number; service_ref: string; status: string }[]);
    const [subscriber] = await subscribers();
    const [line] = (await orderOf(order.id)).items;
    expect(line.subscriber_identifiers).toHaveLength(2);
    expect(new Set(line.subscriber_identifiers).size).toBe(2);
    for (const identifier of line.subscriber_identifiers) expect(identifier.startsWith(subscriber!.service_ref)).toBe(true);
    expect(subscriber!.status).toBe('active');

    expect((await setStatus(order.id, shop.statuses.Canceled!)).status).toBe(200);
    await eventually(async () => expect((await subscribers())[0]!.status).toBe('ended'), LONG);
    const stopped = await eventually(async () => {
      const rows = (await effectsOf(order.id)).filter((e) => e.effect === 'subscription');
      expect(rows.map((e) => e.status)).toEqual(['done', 'done']);
      return rows;
    }, LONG);
    expect(stopped[1]!.detail).toContain('the order is canceled');
  });
});

describe('a zero-total order', () => {
  it('is fulfilled at placing without clearing: download codes, no invoice, no purchase event; clearing stays 422', async () => {
    const free = await insertProduct(e2e.stack.orm, shop.id, { name: 'Free sample', price: '0.00', electronic: true });
    const content = await e2e.http('POST', `/api/v1/products/${free}/electronic_contents`, {
      ...key(),
      body: { file: { filename: 'sample.pdf', content_type: 'application/pdf', data: (await makePdf(1)).toString('base64') }, days_to_expire: 14, usages_to_expire: 5 },
    });
    expect(content.status).toBe(201);
    const order = await place({ email: 'free@example.com', items: [{ product_id: free }] });
    expect(order.total).toBe('0.00');
    expect(await effectWhen(order.id, 'download_codes', 'done')).toMatchObject({ detail: '1 download codes (1 new)' });
    expect(await effectWhen(order.id, 'invoice', 'skipped')).toMatchObject({ detail: 'a zero-total order: no invoice' });
    expect(await effectWhen(order.id, 'analytics_purchase', 'skipped')).toMatchObject({ detail: 'a zero-total order: no purchase event' });
    await effectWhen(order.id, 'course_access');
    await effectWhen(order.id, 'marketing_tags');
    const reset = await e2e.http('POST', `/api/v1/orders/${order.id}/reset_download_limit`, key());
    expect(reset.body.data.reset_codes).toHaveLength(1);
    expect((await fetch(`${e2e.baseUrl}/downloads/${reset.body.data.reset_codes[0].link.split('/').pop()}`)).status).toBe(200);
    const refused = await clear(order.id);
    expect(refused.status).toBe(422);
    expect(refused.body.error).toBe('Nothing to clear');
    expect(await orderOf(order.id)).toMatchObject({ paid: false, invoice_number: null, order_status: 'New' });
  });
});

describe('no_invoice products', () => {
  it('are left out of the automatic invoice; an order of only such products gets no number', async () => {
    expect((await e2e.http('PATCH', `/admin/v1/shops/${shop.id}`, { operator: true, body: { automatic_invoicing: true } })).status).toBe(200);
    const voucher = await insertProduct(e2e.stack.orm, shop.id, { name: 'Voucher', price: '20.00' });
    const book = await insertProduct(e2e.stack.orm, shop.id, { name: 'Book', price: '30.00' });
    expect((await e2e.http('PATCH', `/api/v1/products/${voucher}`, { ...key(), body: { no_invoice: true } })).status).toBe(200);

    const only = await place({ email: 'inv@example.com', items: [{ product_id: voucher }] });
    expect((await clear(only.id)).status).toBe(200);
    expect(await effectWhen(only.id, 'invoice', 'skipped')).toMatchObject({ detail: 'every product of the order is no_invoice' });
    expect((await orderOf(only.id)).invoice_number).toBeNull();

    const mixed = await place({ email: 'inv@example.com', items: [{ product_id: voucher }, { product_id: book }] });
    expect((await clear(mixed.id)).status).toBe(200);
    const invoice = await effectWhen(mixed.id, 'invoice', 'done');
    const number = (await orderOf(mixed.id)).invoice_number as string;
    expect(number).toMatch(/^FV\/\d{4}\/\d+$/);
    expect(invoice.detail).toContain('no_invoice products left out');
    expect((await e2e.http('PATCH', `/admin/v1/shops/${shop.id}`, { operator: true, body: { automatic_invoicing: false } })).status).toBe(200);
  });
});

describe('the panel\'s order edits', () => {
  it('set a real tracking number that the next status mail fills into {{NUMER_PACZKI}}; notes through the operator CLI', async () => {
    const courier = await createDeliveryType(e2e.stack.app, shop.id, { name: 'Courier', default_price: '12.00' });
    const book = await insertProduct(e2e.stack.orm, shop.id, { name: 'Printed atlas', price: '80.00' });
    await configureStatus(shop.statuses.Sent!, {
      send_email_on_status_change: true,
      sender_id: sender.id,
      email: { subject: 'Order {{NUMER_ZAMOWIENIA}} is on its way', content: '<p>Parcel {{NUMER_PACZKI}}</p>' },
    });
    const order = await place({ email: 'parcel@example.com', delivery_type_id: courier, items: [{ product_id: book }] });
    const edited = await e2e.http('PATCH', `/admin/v1/shops/${shop.id}/orders/${order.id}`, {
      operator: true,
      body: { tracking_number: 'PL-0042', tracking_url: 'https://track.example.com/PL-0042', order_attributes: [{ name: 'gift', value: 'yes' }] },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.data).toMatchObject({ tracking_number: 'PL-0042', tracking_url: 'https://track.example.com/PL-0042', order_attributes: [{ name: 'gift', value: 'yes' }], order_status: 'New' });

    const cli = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', 'add-note', shop.id, String(order.id), 'Called the buyer', '--url', e2e.baseUrl], {
      env: { ...process.env, ADMIN_TOKEN },
    });
    expect(JSON.parse(cli.stdout).data).toMatchObject({ content: 'Called the buyer' });
    const cliEdit = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', 'edit-order', shop.id, String(order.id), '--delivery-point', 'WAW-12', '--url', e2e.baseUrl], {
      env: { ...process.env, ADMIN_TOKEN },
    });
    expect(JSON.parse(cliEdit.stdout).data).toMatchObject({ delivery_point_code: 'WAW-12', tracking_number: 'PL-0042', notes: [{ content: 'Called the buyer' }] });

    expect((await setStatus(order.id, shop.statuses.Sent!)).status).toBe(200);
    const [mail] = await eventually(async () => {
      const mails = await mailsTo('parcel@example.com');
      expect(mails).toHaveLength(1);
      return mails;
    }, LONG);
    expect(mail!.html).toBe('<p>Parcel PL-0042</p>');
  });
});

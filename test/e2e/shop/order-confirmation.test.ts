/**
 * What a buyer receives, read where the buyer reads it (DESIGN.md section 10): the stack as
 * `npm start` runs it (the API on its port, a worker with real activities, MailDev as the SMTP
 * server), PUBLIC_URL the API's own address. Placing sends the New status's mail (the order
 * confirmation); clearing sends the Paid one; every link is followed exactly as the delivered mail
 * holds it: a download and an invoice PDF. Canceling the invoiced order issues its correction.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MailCatcher } from '../../../scripts/stack/mail-catcher.ts';
import { startEndToEndWithMailCatcher, type EndToEnd } from '../../helpers/e2e.ts';
import { uniqueEmail } from '../../helpers/fixtures.ts';
import { caughtMailsTo, caughtMailTo } from '../../helpers/mail-catcher.ts';
import { makePdf } from '../../helpers/pdf.ts';
import { insertProduct } from '../../helpers/shop-catalogue.ts';
import { adminPost, createTestShop, type TestShop } from '../../helpers/shop.ts';
import { eventually } from '../../helpers/stack.ts';

let stack: Awaited<ReturnType<typeof startEndToEndWithMailCatcher>>;
let catcher: MailCatcher;
let e2e: EndToEnd;
let shop: TestShop;
let ebook: number;
let freeEbook: number;

const key = () => ({ key: shop.key });
const place = (email: string, productId: number) => adminPost(e2e.stack.app, `/admin/v1/shops/${shop.id}/orders`, { email, items: [{ product_id: productId }] });
const effectsOf = async (orderId: number) =>
  (await e2e.http('GET', `/admin/v1/shops/${shop.id}/orders/${orderId}/effects`, { operator: true })).body.data as { effect: string; source: string; status: string; detail: string }[];
/** Every `href` of a delivered mail's HTML, as written. */
const linksIn = (html: string) => [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!.replaceAll('&amp;', '&'));

async function addFile(productId: number, name: string) {
  const res = await e2e.http('POST', `/api/v1/products/${productId}/electronic_contents`, {
    ...key(),
    body: { file: { filename: name, content_type: 'application/pdf', data: (await makePdf(1)).toString('base64') }, days_to_expire: 14, usages_to_expire: 5 },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

async function configureMail(statusId: number, subject: string, content: string) {
  const res = await e2e.http('PATCH', `/api/v1/configuration/order_statuses/${statusId}`, { ...key(), body: { send_email_on_status_change: true, sender_id: sender, email: { subject, content } } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}
let sender: number;

beforeAll(async () => {
  stack = await startEndToEndWithMailCatcher('e2e-order-confirmation');
  ({ e2e, catcher } = stack);
  shop = await createTestShop(e2e.stack.app, 'confirmation');
  const invoicing = await e2e.http('PATCH', `/admin/v1/shops/${shop.id}`, {
    operator: true,
    body: { automatic_invoicing: true, invoice_seller: { name: 'Księgarnia Żółw sp. z o.o.', nip: '1234563218', address: 'ul. Długa 1', postcode: '00-001', city: 'Warszawa', country: 'PL' } },
  });
  expect(invoicing.status, JSON.stringify(invoicing.body)).toBe(200);
  sender = (await adminPost(e2e.stack.app, `/admin/v1/shops/${shop.id}/senders`, { name: 'Księgarnia Żółw', email: 'sklep@example.com' })).id;
  ebook = await insertProduct(e2e.stack.orm, shop.id, { name: 'Atlas PDF', price: '49.00', electronic: true });
  freeEbook = await insertProduct(e2e.stack.orm, shop.id, { name: 'Próbka PDF', price: '0.00', electronic: true });
  await addFile(ebook, 'atlas.pdf');
  await addFile(freeEbook, 'probka.pdf');
  await configureMail(shop.statuses.New!, 'Przyjęliśmy zamówienie {{NUMER_ZAMOWIENIA}}', '<p>Dziękujemy. Do zapłaty: {{KWOTA}}.</p>{{LINKI_DO_POBRANIA}}');
  await configureMail(shop.statuses.Paid!, 'Zamówienie {{NUMER_ZAMOWIENIA}} opłacone', '<p>Pliki:</p>{{LINKI_DO_POBRANIA}}<p><a href="{{LINK_DO_FAKTURY}}">Faktura</a></p>');
}, 600_000);
afterAll(() => stack?.close());

describe('what a buyer receives', () => {
  it('a bank-transfer buyer gets the confirmation at placing, then the Paid mail whose download and invoice links open as delivered', async () => {
    const email = uniqueEmail('przelew');
    const order = await place(email, ebook);

    const confirmation = await caughtMailTo(catcher.uiUrl, email);
    expect(confirmation.subject).toBe(`Przyjęliśmy zamówienie ${order.ordinal_number}`);
    expect(confirmation.from).toEqual([{ address: 'sklep@example.com', name: 'Księgarnia Żółw' }]);
    // Unpaid: nothing to download yet.
    expect(linksIn(confirmation.html)).toEqual([]);

    expect((await e2e.http('PATCH', `/api/v1/orders/${order.id}/clear`, key())).status).toBe(200);
    const [, paid] = await caughtMailsTo(catcher.uiUrl, email, 2);
    expect(paid!.subject).toBe(`Zamówienie ${order.ordinal_number} opłacone`);
    const links = linksIn(paid!.html);
    const download = links.find((l) => l.includes('/downloads/'));
    const invoice = links.find((l) => l.includes('/invoices/'));
    expect(download?.startsWith(`${e2e.baseUrl}/downloads/`), download).toBe(true);
    expect(invoice?.startsWith(`${e2e.baseUrl}/store/v1/`), invoice).toBe(true);

    const file = await fetch(download!);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toContain('filename="atlas.pdf"');
    expect(Buffer.from(await file.arrayBuffer()).subarray(0, 4).toString()).toBe('%PDF');
    const document = await fetch(invoice!);
    expect(document.status).toBe(200);
    expect(document.headers.get('content-type')).toContain('application/pdf');
    expect(Buffer.from(await document.arrayBuffer()).subarray(0, 4).toString()).toBe('%PDF');

    // Each once in the effect log: placing's mail under `placed`, the Paid mail under `clear:paid`.
    const mails = (await effectsOf(order.id)).filter((e) => e.effect === 'status_mail');
    expect(mails.map((e) => [e.source, e.status])).toEqual([
      ['placed', 'done'],
      ['clear:paid', 'done'],
    ]);

    // Canceled through the API: the status change's workflow issues the correction once, and it
    // opens at its own url as the invoice does.
    expect((await e2e.http('PATCH', `/api/v1/orders/${order.id}/status`, { ...key(), body: { order_status_id: shop.statuses.Canceled } })).status).toBe(200);
    const invoices = await eventually(async () => {
      const list = (await e2e.http('GET', `/api/v1/orders/${order.id}/invoices`, key())).body.data as { kind: string; number: string; total: string; corrects: string | null; url: string }[];
      expect(list.map((i) => i.kind)).toEqual(['invoice', 'correction']);
      return list;
    });
    expect(invoices[1]).toMatchObject({ number: expect.stringMatching(/^KOR\/\d{4}\/1$/), corrects: invoices[0]!.number, total: '-49.00' });
    const correction = await fetch(invoices[1]!.url, { headers: { 'x-api-key': shop.key } });
    expect(correction.status).toBe(200);
    expect(Buffer.from(await correction.arrayBuffer()).subarray(0, 4).toString()).toBe('%PDF');
  });

  it('a zero-total e-book buyer gets the download link in the confirmation, and it opens as delivered', async () => {
    const email = uniqueEmail('darmowe');
    const order = await place(email, freeEbook);

    const confirmation = await caughtMailTo(catcher.uiUrl, email);
    expect(confirmation.subject).toBe(`Przyjęliśmy zamówienie ${order.ordinal_number}`);
    const [download] = linksIn(confirmation.html);
    expect(download?.startsWith(`${e2e.baseUrl}/downloads/`), confirmation.html).toBe(true);
    const file = await fetch(download!);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toContain('filename="probka.pdf"');

    const logged = await eventually(async () => {
      const rows = (await effectsOf(order.id)).filter((e) => ['download_codes', 'status_mail'].includes(e.effect));
      expect(rows.map((e) => [e.effect, e.source, e.status])).toEqual([
        ['download_codes', 'placed', 'done'],
        ['status_mail', 'placed', 'done'],
      ]);
      return rows;
    });
    expect(logged[1]!.detail).toContain(`mail to ${email} sent`);
  });
});

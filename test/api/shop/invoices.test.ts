import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { orderEffectActivities } from '../../../activities/shop/order-effects.ts';
import { insertProduct } from '../../helpers/shop-catalogue.ts';
import { adminPost, createTestShop, operator, type TestShop } from '../../helpers/shop.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';

/** Invoices as documents (issue 39 item 3): seller data, numbering, the PDF read back with pdfjs, the routes. */
let stack: TestStack;
let shop: TestShop;
let other: TestShop;

const SELLER = { name: 'Księgarnia Żółw sp. z o.o.', nip: '123-456-32-18', address: 'ul. Długa 5', postcode: '00-001', city: 'Kraków', country: 'Polska', bank_account: null };
const BUYER_NIP = '7740001454';

beforeAll(async () => {
  stack = await startTestApp('shop-invoices');
  [shop, other] = await Promise.all([createTestShop(stack.app, 'inv-one'), createTestShop(stack.app, 'inv-two')]);
  const res = await stack.app.inject({ method: 'PATCH', url: `/admin/v1/shops/${shop.id}`, headers: adminHeaders(), payload: { invoice_seller: SELLER, automatic_invoicing: true } });
  expect(res.statusCode, res.body).toBe(200);
});
afterAll(() => stack.close());

const adminHeaders = () => operator;

async function invoicedOrder(fields: Record<string, unknown> = {}): Promise<number> {
  const productId = await insertProduct(stack.orm, shop.id, { name: 'Zażółć gęślą jaźń', price: '123.00' });
  const order = await adminPost(stack.app, `/admin/v1/shops/${shop.id}/orders`, { email: 'buyer@example.com', items: [{ product_id: productId, quantity: 2 }], ...fields });
  const outcome = await orderEffectActivities({ orm: stack.orm, platformUrlTemplate: '' }).issueInvoice({ shopId: shop.id, orderId: order.id, source: 'clear' });
  expect(outcome.status).toBe('done');
  return order.id;
}

async function pdfText(bytes: Buffer): Promise<string> {
  const pdf = await getDocument({ data: new Uint8Array(bytes) }).promise;
  const texts: string[] = [];
  for (let n = 1; n <= pdf.numPages; n += 1) {
    const content = await (await pdf.getPage(n)).getTextContent();
    texts.push(content.items.map((i) => ('str' in i ? i.str : '')).join(' '));
  }
  return texts.join('\n');
}

describe('invoices', () => {
  it('validates the seller NIP and returns the seller in the shop reply', async () => {
    const bad = await stack.app.inject({ method: 'PATCH', url: `/admin/v1/shops/${other.id}`, headers: adminHeaders(), payload: { invoice_seller: { ...SELLER, nip: '1234563217' } } });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('nip');
    const read = await stack.app.inject({ method: 'PATCH', url: `/admin/v1/shops/${shop.id}`, headers: adminHeaders(), payload: {} });
    expect(read.json().data.invoice_seller).toMatchObject({ name: SELLER.name, nip: '1234563218' });
  });

  it('numbers FV/<year>/<n> per shop and year, lists them and renders the PDF with both NIPs, Polish names and per-rate totals', async () => {
    const address = { company: 'Łódzka Hurtownia S.A.', nip: BUYER_NIP, address: 'ul. Piotrkowska 1', postcode: '90-001', city: 'Łódź', country: 'Polska' };
    const first = await invoicedOrder({ invoice_address: address });
    const second = await invoicedOrder();
    const year = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Warsaw', year: 'numeric' }).format(new Date());
    const list = async (id: number) => (await stack.app.inject({ method: 'GET', url: `/api/v1/orders/${id}/invoices`, headers: shop.headers() })).json().data;
    const [a] = await list(first);
    const [b] = await list(second);
    expect(a.number).toBe(`FV/${year}/1`);
    expect(b.number).toBe(`FV/${year}/2`);
    expect(a.url).toMatch(new RegExp(`^https?://[^/]+/api/v1/orders/${first}/invoices/${a.id}$`));

    const pdf = await stack.app.inject({ method: 'GET', url: `/api/v1/orders/${first}/invoices/${a.id}`, headers: shop.headers() });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toContain('application/pdf');
    const again = await stack.app.inject({ method: 'GET', url: `/api/v1/orders/${first}/invoices/${a.id}`, headers: shop.headers() });
    expect(again.rawPayload.equals(pdf.rawPayload)).toBe(true);
    const text = await pdfText(pdf.rawPayload);
    for (const expected of [`FV/${year}/1`, '1234563218', BUYER_NIP, 'Łódzka Hurtownia S.A.', 'Księgarnia Żółw sp. z o.o.', 'Zażółć gęślą jaźń', '23%', '246,00']) expect(text).toContain(expected);
  });

  it("names the delivery address's person as the buyer when there is no invoice address, and the email when no address names one", async () => {
    const text = async (order: number) => {
      const [invoice] = (await stack.app.inject({ method: 'GET', url: `/api/v1/orders/${order}/invoices`, headers: shop.headers() })).json().data;
      return pdfText((await stack.app.inject({ method: 'GET', url: `/api/v1/orders/${order}/invoices/${invoice.id}`, headers: shop.headers() })).rawPayload);
    };
    const delivered = await text(await invoicedOrder({ delivery_address: { first_name: 'Ewa', last_name: 'Lis', address: 'ul. Krótka 2', postcode: '00-950', city: 'Warszawa', country: 'Polska' } }));
    expect(delivered).toMatch(/Nabywca[\s\S]*Ewa Lis[\s\S]*ul\. Krótka 2/);
    expect(await text(await invoicedOrder())).toMatch(/Nabywca[\s\S]*buyer@example\.com/);
  });

  it('answers 404 for an order or invoice of another shop', async () => {
    const order = await invoicedOrder();
    const [invoice] = (await stack.app.inject({ method: 'GET', url: `/api/v1/orders/${order}/invoices`, headers: shop.headers() })).json().data;
    expect((await stack.app.inject({ method: 'GET', url: `/api/v1/orders/${order}/invoices`, headers: other.headers() })).statusCode).toBe(404);
    expect((await stack.app.inject({ method: 'GET', url: `/api/v1/orders/${order}/invoices/${invoice.id}`, headers: other.headers() })).statusCode).toBe(404);
  });

  it("lists the invoices in the buyer's order view with links the buyer opens", async () => {
    const order = await invoicedOrder();
    const [row] = await stack.orm.em.fork().execute<{ uuid: string }[]>('select uuid from shop_orders where id = ?', [order]);
    const view = await stack.app.inject({ method: 'GET', url: `/store/v1/${shop.subdomain}/orders/${row!.uuid}` });
    const [invoice] = view.json().data.invoices;
    expect(invoice).toMatchObject({ kind: 'invoice', number: expect.stringMatching(/^FV\//) });
    const url = new URL(invoice.url);
    const pdf = await stack.app.inject({ method: 'GET', url: url.pathname });
    expect(pdf.statusCode).toBe(200);
    expect(await pdfText(pdf.rawPayload)).toContain(invoice.number);
    expect((await stack.app.inject({ method: 'GET', url: `/store/v1/${other.subdomain}/orders/${row!.uuid}/invoices/${invoice.id}` })).statusCode).toBe(404);
  });

  it('starts the numbers at 1 each year in the shop\'s zone (23:30 UTC on 31 December is the next year in Warsaw)', async () => {
    const productId = await insertProduct(stack.orm, shop.id, { name: 'Kalendarz', price: '10.00' });
    const issueAt = async (instant: string) => {
      const order = await adminPost(stack.app, `/admin/v1/shops/${shop.id}/orders`, { email: 'zofia.zak@example.com', items: [{ product_id: productId }] });
      const outcome = await orderEffectActivities({ orm: stack.orm, platformUrlTemplate: '', now: () => new Date(instant) }).issueInvoice({ shopId: shop.id, orderId: order.id, source: 'clear' });
      expect(outcome.status).toBe('done');
      return outcome.detail;
    };
    expect(await issueAt('2031-12-31T22:30:00Z')).toBe('FV/2031/1');
    expect(await issueAt('2031-12-31T22:50:00Z')).toBe('FV/2031/2');
    expect(await issueAt('2031-12-31T23:30:00Z')).toBe('FV/2032/1');
    const concurrent = await Promise.all([0, 1, 2, 3].map(() => issueAt('2033-06-01T10:00:00Z')));
    expect(concurrent.sort()).toEqual(['FV/2033/1', 'FV/2033/2', 'FV/2033/3', 'FV/2033/4']);
  });

  it('corrects an invoiced order moved to Canceled once (KOR/<year>/<n>, negated, naming the invoice), Returned after it adds none', async () => {
    const order = await invoicedOrder({ invoice_address: { first_name: 'Zofia', last_name: 'Żak', address: 'ul. Żurawia 3', postcode: '00-515', city: 'Warszawa', country: 'Polska' } });
    const effects = orderEffectActivities({ orm: stack.orm, platformUrlTemplate: '' });
    expect(await effects.correctOrderInvoice({ shopId: shop.id, orderId: order, source: 'status:900001', statusId: shop.statuses.Sent! })).toBeNull();
    const canceled = await effects.correctOrderInvoice({ shopId: shop.id, orderId: order, source: 'status:900002', statusId: shop.statuses.Canceled! });
    expect(canceled).toMatchObject({ status: 'done', detail: expect.stringMatching(/^KOR\/\d{4}\/1 corrects FV\//) });
    const returned = await effects.correctOrderInvoice({ shopId: shop.id, orderId: order, source: 'status:900003', statusId: shop.statuses.Returned! });
    expect(returned!.detail).toContain('(issued before)');
    const list = (await stack.app.inject({ method: 'GET', url: `/api/v1/orders/${order}/invoices`, headers: shop.headers() })).json().data;
    expect(list.map((i: { kind: string }) => i.kind)).toEqual(['invoice', 'correction']);
    const [invoice, correction] = list;
    expect(correction).toMatchObject({ corrects: invoice.number, total: '-246.00', currency: 'PLN' });
    const text = await pdfText((await stack.app.inject({ method: 'GET', url: `/api/v1/orders/${order}/invoices/${correction.id}`, headers: shop.headers() })).rawPayload);
    for (const expected of [correction.number, invoice.number, 'Zofia Żak', '-246,00']) expect(text).toContain(expected);
  });
});

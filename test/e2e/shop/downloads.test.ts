import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEndToEnd, type EndToEnd } from '../../helpers/e2e.ts';
import { makePdf, pageTexts } from '../../helpers/pdf.ts';
import { insertProduct } from '../../helpers/shop-catalogue.ts';
import { adminPost, createTestShop, operator, type TestShop } from '../../helpers/shop.ts';
import { eventually } from '../../helpers/stack.ts';

/** A paid e-book end to end: clearing through HTTP, the worker's download codes, a watermarked download over HTTP. */
let e2e: EndToEnd;
let shop: TestShop;

beforeAll(async () => {
  e2e = await startEndToEnd('shop-downloads');
  shop = await createTestShop(e2e.stack.app, 'downloads');
});
afterAll(() => e2e.close());

describe('buying an e-book', () => {
  it('clears the order, issues a code, and serves the watermarked PDF at the reset link until the limit', async () => {
    const productId = await insertProduct(e2e.stack.orm, shop.id, { name: 'Atlas PDF', price: '49.00', electronic: true });
    const pdf = await makePdf(3);
    const content = await e2e.http('POST', `/api/v1/products/${productId}/electronic_contents`, {
      key: shop.key,
      body: { file: { filename: 'atlas.pdf', content_type: 'application/pdf', data: pdf.toString('base64') }, days_to_expire: 14, usages_to_expire: 2, watermark: '{{IMIE}} {{NAZWISKO}} {{EMAIL}}', watermark_interval: 2 },
    });
    expect(content.status, JSON.stringify(content.body)).toBe(201);

    const order = await adminPost(e2e.stack.app, `/admin/v1/shops/${shop.id}/orders`, {
      email: 'ola@example.com',
      items: [{ product_id: productId, quantity: 1 }],
      invoice_address: { first_name: 'Ola', last_name: 'Wiśniewska', address: 'Polna 2', postcode: '30-001', city: 'Kraków', country: 'PL' },
    });
    expect((await e2e.http('PATCH', `/api/v1/orders/${order.id}/clear`, { key: shop.key })).status).toBe(200);
    const effect = await eventually(async () => {
      const res = await e2e.http('GET', `/admin/v1/shops/${shop.id}/orders/${order.id}/effects`, { headers: operator });
      const found = (res.body.data as { effect: string; status: string; detail: string }[]).find((e) => e.effect === 'download_codes');
      expect(found).toBeDefined();
      return found!;
    });
    expect(effect).toMatchObject({ status: 'done', detail: '1 download codes (1 new)' });

    const reset = await e2e.http('POST', `/api/v1/orders/${order.id}/reset_download_limit`, { key: shop.key });
    expect(reset.status).toBe(200);
    const [code] = reset.body.data.reset_codes;
    expect(code).toMatchObject({ file_name: 'atlas.pdf', usages: 0, usages_to_expire: 2 });
    expect(code.link).toBe(`${e2e.baseUrl}/downloads/${code.link.split('/').pop()}`);

    const first = await fetch(code.link);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('application/pdf');
    expect(first.headers.get('content-disposition')).toContain('filename="atlas.pdf"');
    const texts = await pageTexts(new Uint8Array(await first.arrayBuffer()));
    const mark = Buffer.from('Ola Wisniewska ola@example.com', 'latin1').toString('latin1');
    expect(texts.map((shown) => shown.includes(mark))).toEqual([true, false, true]);

    expect((await fetch(code.link)).status).toBe(200);
    const spent = await fetch(code.link);
    expect(spent.status).toBe(410);
    expect(await spent.json()).toEqual({ error: expect.stringMatching(/used up/) });

    const again = await e2e.http('POST', `/api/v1/orders/${order.id}/reset_download_limit`, { key: shop.key, body: { code_id: code.id } });
    expect(again.body.data.reset_codes).toEqual([{ ...code, usages: 0 }]);
    expect((await fetch(code.link)).status).toBe(200);
  });
});

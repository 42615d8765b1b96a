import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEndToEnd, type EndToEnd } from '../../helpers/e2e.ts';
import { makePdf } from '../../helpers/pdf.ts';
import { createPaymentType, insertProduct } from '../../helpers/shop-catalogue.ts';
import { createTestShop, operator, type TestShop } from '../../helpers/shop.ts';
import { eventually } from '../../helpers/stack.ts';

/**
 * A buyer over HTTP, no key: the catalogue, a cart, a discount code, checkout; the shop clears the
 * order, the worker issues the download code, and the e-book downloads. Then the copy link.
 */
let e2e: EndToEnd;
let shop: TestShop;

beforeAll(async () => {
  e2e = await startEndToEnd('shop-storefront');
  shop = await createTestShop(e2e.stack.app, 'storefront');
});
afterAll(() => e2e.close());

describe('buyer -> cart -> code -> checkout -> clearing -> download', () => {
  it('places the order from the cart, clears it and serves the file; the copy link opens a new cart with the buyer data', async () => {
    const store = (path: string) => `/store/v1/${shop.subdomain}${path}`;
    const productId = await insertProduct(e2e.stack.orm, shop.id, { name: 'Atlas PDF', price: '40.00', electronic: true });
    const transfer = await createPaymentType(e2e.stack.app, shop.id, { name: 'Transfer' });
    const content = await e2e.http('POST', `/api/v1/products/${productId}/electronic_contents`, {
      key: shop.key,
      body: { file: { filename: 'atlas.pdf', content_type: 'application/pdf', data: (await makePdf(1)).toString('base64') }, days_to_expire: 14, usages_to_expire: 3 },
    });
    expect(content.status, JSON.stringify(content.body)).toBe(201);
    const code = await e2e.http('POST', '/api/v1/discount_codes', { key: shop.key, body: { code: 'WELCOME25', discount_type: 'percentage_discount', value: '25' } });
    expect(code.status, JSON.stringify(code.body)).toBe(201);

    const catalogue = await e2e.http('GET', store('/products'));
    expect(catalogue.status).toBe(200);
    expect(catalogue.body.data.map((p: { id: number }) => p.id)).toContain(productId);

    const opened = await e2e.http('POST', store('/carts'), { body: { items: [{ product_id: productId }], email: 'ola@example.com' } });
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    const cartId = opened.body.data.id as string;
    const withCode = await e2e.http('PATCH', store(`/carts/${cartId}`), {
      body: { discount_code: 'WELCOME25', payment_type_id: transfer, invoice_address: { first_name: 'Ola', last_name: 'Nowak', city: 'Kraków' } },
    });
    expect(withCode.status, JSON.stringify(withCode.body)).toBe(200);
    expect(withCode.body.data.pricing).toMatchObject({ products_cost: '40.00', total_discount: '10.00', total: '30.00' });

    const checkout = await e2e.http('POST', store(`/carts/${cartId}/checkout`));
    expect(checkout.status, JSON.stringify(checkout.body)).toBe(201);
    expect(checkout.body.data).toMatchObject({ uuid: cartId, total: '30.00', currency: 'PLN', payment: null });
    const orderId = checkout.body.data.order_id as number;

    const before = await e2e.http('GET', store(`/orders/${cartId}`));
    expect(before.body.data).toMatchObject({ paid: false, order_status: 'New', total: '30.00' });

    expect((await e2e.http('PATCH', `/api/v1/orders/${orderId}/clear`, { key: shop.key })).status).toBe(200);
    await eventually(async () => {
      const res = await e2e.http('GET', `/admin/v1/shops/${shop.id}/orders/${orderId}/effects`, { headers: operator });
      expect((res.body.data as { effect: string; status: string }[]).find((e) => e.effect === 'download_codes')?.status).toBe('done');
    }, { timeoutMs: 60_000 });
    const after = await e2e.http('GET', store(`/orders/${cartId}`));
    expect(after.body.data).toMatchObject({ paid: true, order_status: 'Paid' });

    const reset = await e2e.http('POST', `/api/v1/orders/${orderId}/reset_download_limit`, { key: shop.key });
    expect(reset.status).toBe(200);
    const download = await fetch(reset.body.data.reset_codes[0].link);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/pdf');

    const copyOf = new URL(after.body.data.copy_url as string).searchParams.get('copy_of');
    const copy = await e2e.http('POST', store('/carts'), { body: { copy_of: copyOf } });
    expect(copy.status).toBe(201);
    expect(copy.body.data).toMatchObject({ email: 'ola@example.com', items: [], payment_type_id: transfer, invoice_address: { first_name: 'Ola', city: 'Kraków' } });
  });
});

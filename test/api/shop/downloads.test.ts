import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderEffectActivities } from '../../../activities/shop/order-effects.ts';
import { publicUrlOf } from '../../../domain/shared/config.ts';
import { epubBytes } from '../../helpers/ebooks.ts';
import { makePdf, pageTexts } from '../../helpers/pdf.ts';
import { insertProduct } from '../../helpers/shop-catalogue.ts';
import { adminPost, createTestShop, type TestShop } from '../../helpers/shop.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';

/** Download links and reset_download_limit through app.inject; codes made by the clearing effect's activity. */
let stack: TestStack;
let shop: TestShop;
let other: TestShop;

beforeAll(async () => {
  stack = await startTestApp('shop-downloads');
  [shop, other] = await Promise.all([createTestShop(stack.app, 'dl-one'), createTestShop(stack.app, 'dl-two')]);
});
afterAll(() => stack.close());

interface Code {
  id: number;
  file_name: string;
  link: string;
  usages: number;
  usages_to_expire: number;
}

const fileOf = (bytes: Buffer, filename: string, content_type: string) => ({ filename, content_type, data: bytes.toString('base64') });

/** An electronic product with the given contents (through the products API); returns its id and the contents' ids. */
async function ebook(contents: Record<string, unknown>[], of: TestShop = shop) {
  const productId = await insertProduct(stack.orm, of.id, { name: 'E-book', price: '25.00', electronic: true });
  const ids: number[] = [];
  for (const content of contents) {
    const res = await stack.app.inject({ method: 'POST', url: `/api/v1/products/${productId}/electronic_contents`, headers: of.headers(), payload: { days_to_expire: 30, usages_to_expire: 3, ...content } });
    expect(res.statusCode, res.body).toBe(201);
    ids.push(res.json().data.id);
  }
  return { productId, contentIds: ids };
}

/** A paid order of the product with its download codes made (the clearing effect's activity run directly). */
async function paidOrder(productId: number, of: TestShop = shop, fields: Record<string, unknown> = {}) {
  const order = await adminPost(stack.app, `/admin/v1/shops/${of.id}/orders`, { email: 'buyer@example.com', items: [{ product_id: productId, quantity: 1 }], ...fields });
  expect((await stack.app.inject({ method: 'PATCH', url: `/api/v1/orders/${order.id}/clear`, headers: { 'x-api-key': of.key } })).statusCode).toBe(200);
  const outcome = await orderEffectActivities({ orm: stack.orm, platformUrlTemplate: '' }).createDownloadCodes({ shopId: of.id, orderId: order.id, source: 'clear' });
  expect(outcome.status).toBe('done');
  return order.id as number;
}

const reset = (orderId: number, payload?: unknown, headers: Record<string, string> = shop.headers()) =>
  stack.app.inject({ method: 'POST', url: `/api/v1/orders/${orderId}/reset_download_limit`, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

async function codesOf(orderId: number, of: TestShop = shop): Promise<Code[]> {
  const res = await reset(orderId, undefined, { 'x-api-key': of.key });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.reset_codes;
}

const download = (link: string) => stack.app.inject({ method: 'GET', url: new URL(link).pathname });
const usagesOf = async (codeId: number) =>
  Number((await stack.orm.em.fork().getConnection().execute('select usages from shop_download_codes where id = ?', [codeId]))[0]!.usages);

describe('POST /api/v1/orders/:id/reset_download_limit', () => {
  it('answers every code of the order with a link under PUBLIC_URL, usages back at 0', async () => {
    const { productId } = await ebook([{ file: fileOf(await makePdf(1), 'guide.pdf', 'application/pdf') }, { file: fileOf(epubBytes(), 'guide.epub', 'application/epub+zip'), usages_to_expire: 5 }]);
    const orderId = await paidOrder(productId);
    const res = await reset(orderId, undefined, { 'x-api-key': shop.key });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      data: {
        order_id: orderId,
        reset_codes: [
          { id: expect.any(Number), file_name: 'guide.pdf', link: expect.stringMatching(/^http:\/\/127\.0\.0\.1:3000\/downloads\/[A-Za-z0-9_-]{32}$/), usages: 0, usages_to_expire: 3 },
          { id: expect.any(Number), file_name: 'guide.epub', link: expect.stringMatching(/\/downloads\//), usages: 0, usages_to_expire: 5 },
        ],
      },
    });
    const [pdf] = body.data.reset_codes as Code[];
    expect((await download(pdf!.link)).statusCode).toBe(200);
    expect(await usagesOf(pdf!.id)).toBe(1);
    const again = (await codesOf(orderId)).find((c) => c.id === pdf!.id)!;
    expect(again).toMatchObject({ usages: 0, link: pdf!.link });
    expect(await usagesOf(pdf!.id)).toBe(0);
  });

  it('resets only code_id, and gives an expired code a new term from the content\'s days_to_expire', async () => {
    const { productId } = await ebook([{ file: fileOf(await makePdf(1), 'a.pdf', 'application/pdf') }, { file: fileOf(await makePdf(1), 'b.pdf', 'application/pdf'), days_to_expire: 7 }]);
    const orderId = await paidOrder(productId);
    const [a, b] = await codesOf(orderId);
    await download(a!.link);
    await download(b!.link);
    await stack.orm.em.fork().getConnection().execute(`update shop_download_codes set expires_at = now() - interval '1 day' where id = ?`, [b!.id]);
    expect((await download(b!.link)).statusCode).toBe(410);

    const res = await reset(orderId, { code_id: b!.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.reset_codes).toEqual([{ ...b, usages: 0 }]);
    expect(await usagesOf(a!.id)).toBe(1);
    const [row] = await stack.orm.em.fork().getConnection().execute('select expires_at from shop_download_codes where id = ?', [b!.id]);
    const days = (new Date(row!.expires_at).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThan(7.1);
    expect((await download(b!.link)).statusCode).toBe(200);
  });

  it('answers 422 naming code_id for a code of another order, a deleted file, or no integer; 404 for another shop\'s order', async () => {
    const { productId, contentIds } = await ebook([{ file: fileOf(await makePdf(1), 'c.pdf', 'application/pdf') }]);
    const [first, second] = [await paidOrder(productId), await paidOrder(productId)];
    const [foreignCode] = await codesOf(second);

    for (const payload of [{ code_id: foreignCode!.id }, { code_id: 'x' }, { code_id: 0 }, { code_id: 2 ** 40 }]) {
      const res = await reset(first, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json().errors).toHaveProperty('code_id');
    }
    const unknown = await reset(first, { code: 1 });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors).toHaveProperty('code');

    // Another shop: its key sees neither our order nor, through its own order, our codes.
    expect((await reset(first, undefined, { 'x-api-key': other.key })).statusCode).toBe(404);
    expect((await reset(first, { code_id: foreignCode!.id }, other.headers())).statusCode).toBe(404);
    const { productId: theirs } = await ebook([{ file: fileOf(await makePdf(1), 'theirs.pdf', 'application/pdf') }], other);
    const theirOrder = await paidOrder(theirs, other);
    const res = await reset(theirOrder, { code_id: foreignCode!.id }, other.headers());
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toHaveProperty('code_id');
    expect((await reset(999_999_999)).statusCode).toBe(404);

    const [own] = await codesOf(first);
    expect((await stack.app.inject({ method: 'DELETE', url: `/api/v1/products/${productId}/electronic_contents/${contentIds[0]}`, headers: { 'x-api-key': shop.key } })).statusCode).toBeLessThan(300);
    const deleted = await reset(first, { code_id: own!.id });
    expect(deleted.statusCode).toBe(422);
    expect(deleted.json().errors.code_id[0]).toMatch(/deleted/);
    expect(await codesOf(first)).toEqual([]);
  });

  it('needs write_data; an order without codes answers an empty list', async () => {
    const productId = await insertProduct(stack.orm, shop.id, { name: 'Paper book', price: '30.00' });
    const order = await adminPost(stack.app, `/admin/v1/shops/${shop.id}/orders`, { email: 'x@example.com', items: [{ product_id: productId }] });
    expect((await reset(order.id, undefined, { 'x-api-key': shop.keys.read })).statusCode).toBe(403);
    expect((await reset(order.id, undefined, { 'x-api-key': shop.keys.write_data })).json()).toEqual({ data: { order_id: order.id, reset_codes: [] } });
    expect((await reset(order.id, {}, shop.headers('write_data'))).statusCode).toBe(200);
    expect((await stack.app.inject({ method: 'POST', url: `/api/v1/orders/${order.id}/reset_download_limit` })).statusCode).toBe(401);
  });
});

describe('GET /downloads/:token', () => {
  it('serves the file as stored with its type and name, counts each use, then answers 410', async () => {
    const { productId } = await ebook([{ file: fileOf(epubBytes(), 'Żółta książka.epub', 'application/epub+zip'), usages_to_expire: 2 }]);
    const [code] = await codesOf(await paidOrder(productId));
    const first = await download(code!.link);
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('application/epub+zip');
    expect(first.headers['content-disposition']).toBe(`attachment; filename="Zolta ksiazka.epub"; filename*=UTF-8''${encodeURIComponent('Żółta książka.epub')}`);
    expect(first.rawPayload.equals(epubBytes())).toBe(true);
    expect(await usagesOf(code!.id)).toBe(1);
    expect((await download(code!.link)).statusCode).toBe(200);
    const spent = await download(code!.link);
    expect(spent.statusCode).toBe(410);
    expect(spent.json()).toEqual({ error: expect.stringMatching(/used up/) });
    expect(await usagesOf(code!.id)).toBe(2);
  });

  it('does not count a HEAD request (link checkers)', async () => {
    const { productId } = await ebook([{ file: fileOf(await makePdf(1), 'h.pdf', 'application/pdf') }]);
    const [code] = await codesOf(await paidOrder(productId));
    const head = await stack.app.inject({ method: 'HEAD', url: new URL(code!.link).pathname });
    expect(head.statusCode).not.toBe(200);
    expect(await usagesOf(code!.id)).toBe(0);
  });

  it('answers 410 once expired or when the file was deleted, 404 for an unknown token', async () => {
    const { productId, contentIds } = await ebook([{ file: fileOf(await makePdf(1), 'e.pdf', 'application/pdf') }, { file: fileOf(await makePdf(1), 'f.pdf', 'application/pdf') }]);
    const [expiring, deleting] = await codesOf(await paidOrder(productId));
    await stack.orm.em.fork().getConnection().execute(`update shop_download_codes set expires_at = now() - interval '1 second' where id = ?`, [expiring!.id]);
    const expired = await download(expiring!.link);
    expect(expired.statusCode).toBe(410);
    expect(expired.json().error).toMatch(/expired/);
    expect(await usagesOf(expiring!.id)).toBe(0);

    expect((await stack.app.inject({ method: 'DELETE', url: `/api/v1/products/${productId}/electronic_contents/${contentIds[1]}`, headers: { 'x-api-key': shop.key } })).statusCode).toBeLessThan(300);
    const deleted = await download(deleting!.link);
    expect(deleted.statusCode).toBe(410);
    expect(deleted.json().error).toMatch(/deleted/);

    for (const token of ['A'.repeat(32), 'x', '..%2F..%2Fetc', 'A'.repeat(65), '%00']) {
      const res = await stack.app.inject({ method: 'GET', url: `/downloads/${token}` });
      expect(res.statusCode, token).toBe(404);
      expect(res.json()).toEqual({ error: expect.any(String) });
    }
  });

  it('never passes the limit under concurrent downloads: 3 of 12 served', async () => {
    const { productId } = await ebook([{ file: fileOf(await makePdf(2), 'race.pdf', 'application/pdf'), usages_to_expire: 3 }]);
    const [code] = await codesOf(await paidOrder(productId));
    const replies = await Promise.all(Array.from({ length: 12 }, () => download(code!.link)));
    expect(replies.filter((r) => r.statusCode === 200)).toHaveLength(3);
    expect(replies.filter((r) => r.statusCode === 410)).toHaveLength(9);
    expect(await usagesOf(code!.id)).toBe(3);
  });

  it('stamps the buyer\'s filled watermark on pages 1, 1+n, 1+2n of a PDF; an empty watermark serves the stored bytes', async () => {
    const stored = await makePdf(5);
    const { productId } = await ebook([
      { file: fileOf(stored, 'marked.pdf', 'application/pdf'), watermark: 'Kopia dla {{IMIE}} {{NAZWISKO}} ({{EMAIL}})', watermark_interval: 2 },
      { file: fileOf(stored, 'plain.pdf', 'application/pdf') },
    ]);
    const orderId = await paidOrder(productId, shop, {
      email: 'Jan.Kowalski@Example.com',
      invoice_address: { first_name: 'Jan', last_name: 'Kowalski', address: 'Długa 1', postcode: '00-001', city: 'Warszawa', country: 'PL' },
    });
    const [marked, plain] = await codesOf(orderId);
    const res = await download(marked!.link);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const texts = await pageTexts(res.rawPayload);
    expect(texts).toHaveLength(5);
    texts.forEach((shown, index) => {
      expect(shown).toContain(`Page ${index + 1}`);
      expect(shown.includes('Kopia dla Jan Kowalski (jan.kowalski@example.com)'), `page ${index + 1}`).toBe(index % 2 === 0);
    });

    const untouched = await download(plain!.link);
    expect(untouched.statusCode).toBe(200);
    expect(untouched.rawPayload.equals(stored)).toBe(true);
  });
});

describe('the public base address (PUBLIC_URL)', () => {
  const config = { HOST: '127.0.0.1', PORT: 3000 };
  it('is PUBLIC_URL (trailing slashes dropped), else its older names, else the API on HOST and PORT', () => {
    expect(publicUrlOf({ ...config, PUBLIC_URL: 'https://shop.example.com/', PUBLIC_API_URL: 'https://old.example.com' })).toBe('https://shop.example.com');
    expect(publicUrlOf({ ...config, PUBLIC_API_URL: 'https://api.example.com' })).toBe('https://api.example.com');
    expect(publicUrlOf({ ...config, SHOP_DOWNLOAD_BASE_URL: 'https://files.example.com/base/' })).toBe('https://files.example.com/base');
    expect(publicUrlOf(config)).toBe('http://127.0.0.1:3000');
    expect(publicUrlOf({ HOST: '0.0.0.0', PORT: 8080 })).toBe('http://127.0.0.1:8080');
  });
});

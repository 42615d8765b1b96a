import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localFileStorage } from '../../../adapters/file-storage/local.ts';
import { Product, ShopFile } from '../../../db/entities/shop/index.ts';
import { DEFAULT_STORAGE_DIR } from '../../../domain/shared/config.ts';
import { MAX_CONTENT_BASE64_LENGTH, MAX_CONTENT_BYTES } from '../../../domain/shop/electronic-content-rules.ts';
import { SHOP_SCOPES, type ShopScope } from '../../../domain/shop/scopes.ts';
import { CONTENT_BODY_LIMIT } from '../../../api/shop/electronic-contents/upload.ts';
import { epubBytes, mobiBytes, pdfBytes } from '../../helpers/ebooks.ts';
import { createTestShop, type TestShop } from '../../helpers/shop.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';

let stack: TestStack;
let shop: TestShop;
let other: TestShop;
const storage = localFileStorage(DEFAULT_STORAGE_DIR);

beforeAll(async () => {
  stack = await startTestApp('shop-electronic-contents');
  [shop, other] = await Promise.all([createTestShop(stack.app, 'files'), createTestShop(stack.app, 'others')]);
});
afterAll(() => stack.close());

/** A product row of the shop, written through the ORM (the products API is not what is tested here). */
async function insertProduct(of: TestShop, name = 'E-book'): Promise<number> {
  const em = stack.orm.em.fork();
  em.setFilterParams('shop', { shopId: of.id });
  const product = em.create(Product, { shop: of.id, name, price: '10.00', electronic: true } as never) as { id: number };
  await em.flush();
  return product.id;
}

const base = (productId: number | string) => `/api/v1/products/${productId}/electronic_contents`;
const file = (bytes: Buffer, filename = 'book.pdf', content_type = 'application/pdf') => ({ filename, content_type, data: bytes.toString('base64') });
const upload = { days_to_expire: 30, usages_to_expire: 3 };

function send(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, of: TestShop = shop, scope?: ShopScope) {
  return stack.app.inject({ method, url, headers: of.headers(scope), ...(payload === undefined ? {} : { payload: payload as object }) });
}

async function created(productId: number, body: Record<string, unknown>) {
  const res = await send('POST', base(productId), body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: number; file: { filename: string; content_type: string; byte_size: number } } & Record<string, unknown>;
}

async function storageKeyOf(contentFileName: string) {
  const em = stack.orm.em.fork({ disableContextResolution: true });
  // This shop's only: other test files upload files of the same name into the same database.
  const files = await em.find(ShopFile, { filename: contentFileName, shop: shop.id }, { filters: false });
  return files.map((f) => f.storageKey);
}

describe('POST /api/v1/products/:product_id/electronic_contents', () => {
  it('adds a PDF with defaults, decides the type from the content, never returns a link, and lists it', async () => {
    const productId = await insertProduct(shop);
    const data = await created(productId, { file: file(pdfBytes(2048), 'guide.pdf', 'image/png'), ...upload });
    expect(data).toEqual({
      id: expect.any(Number),
      kind: 'normal',
      content_title: null,
      days_to_expire: 30,
      usages_to_expire: 3,
      watermark: '',
      watermark_interval: 1,
      description: '',
      distribute_via_shop_cas: false,
      file: { filename: 'guide.pdf', content_type: 'application/pdf', byte_size: 2048 },
      created_at: expect.stringMatching(/Z$/),
    });
    expect(JSON.stringify(data)).not.toMatch(/https?:|url|download/i);
    const [key] = await storageKeyOf('guide.pdf');
    expect((await storage.get(key!))?.equals(pdfBytes(2048))).toBe(true);

    const list = await send('GET', base(productId), undefined, shop, 'read');
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual({ data: [data], meta: { page: 1, per_page: 25, total: 1, total_pages: 1 } });
  });

  it('accepts EPUB, MOBI and AZW3 whatever content_type says', async () => {
    const productId = await insertProduct(shop);
    const cases: [Buffer, string][] = [
      [epubBytes(), 'application/epub+zip'],
      [mobiBytes(6), 'application/x-mobipocket-ebook'],
      [mobiBytes(8, '%PDF lookalike title'), 'application/vnd.amazon.ebook'],
    ];
    for (const [bytes, contentType] of cases) {
      const data = await created(productId, { file: file(bytes, 'x.bin', 'text/plain'), ...upload, watermark: '{{EMAIL}}', watermark_interval: 5 });
      expect(data.file).toEqual({ filename: 'x.bin', content_type: contentType, byte_size: bytes.length });
      expect(data).toMatchObject({ watermark: '{{EMAIL}}', watermark_interval: 5 });
    }
  });

  it('answers 422 for an unaccepted type (nothing stored), missing days or usages, and each limit, naming the fields', async () => {
    const productId = await insertProduct(shop);
    const notEbook = await send('POST', base(productId), { file: file(Buffer.from('hello, plain text'), 'notes-unaccepted.pdf'), ...upload });
    expect(notEbook.statusCode).toBe(422);
    expect(notEbook.json().errors).toHaveProperty('file');
    expect(await storageKeyOf('notes-unaccepted.pdf')).toEqual([]);

    const missing = await send('POST', base(productId), { file: file(pdfBytes()) });
    expect(missing.statusCode).toBe(422);
    expect(Object.keys(missing.json().errors).sort()).toEqual(['days_to_expire', 'usages_to_expire']);

    const limits = await send('POST', base(productId), {
      file: file(pdfBytes()),
      ...upload,
      watermark: 'w'.repeat(129),
      description: 'd'.repeat(30_001),
      watermark_interval: 0,
      kind: 'audio',
    });
    expect(limits.statusCode).toBe(422);
    expect(Object.keys(limits.json().errors).sort()).toEqual(['description', 'kind', 'watermark', 'watermark_interval']);

    const atLimits = await send('POST', base(productId), { file: file(pdfBytes()), ...upload, watermark: 'w'.repeat(128), description: 'd'.repeat(30_000) });
    expect(atLimits.statusCode).toBe(201);
  });

  it('answers 400 for a malformed file object, for file with source_content_id, and for neither', async () => {
    const productId = await insertProduct(shop);
    const source = await created(productId, { file: file(pdfBytes()), ...upload });
    for (const body of [
      { file: 'JVBERi0=', ...upload },
      { file: { filename: 'a.pdf', content_type: 'application/pdf' }, ...upload },
      { file: { filename: 'a.pdf', data: 12 }, ...upload },
      { file: [], ...upload },
      { file: null, ...upload },
      { file: file(pdfBytes()), source_content_id: source.id, ...upload },
      { ...upload },
    ]) {
      const res = await send('POST', base(productId), body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.json()).toHaveProperty('error');
    }
  });

  it('refuses hostile input with 4xx naming the field: NUL bytes, unknown fields, wrong types, bad base64, huge strings', async () => {
    const productId = await insertProduct(shop);
    const cases: [Record<string, unknown>, string][] = [
      [{ file: file(pdfBytes(), 'a\u0000.pdf'), ...upload }, 'file.filename'],
      [{ file: file(pdfBytes()), ...upload, description: 'x\u0000y' }, 'description'],
      [{ file: file(pdfBytes()), ...upload, price: '1.00' }, 'price'],
      [{ file: { ...file(pdfBytes()), extra: 1 }, ...upload }, 'file.extra'],
      [{ file: file(pdfBytes()), days_to_expire: '30', usages_to_expire: 1.5 }, 'days_to_expire'],
      [{ file: { filename: 'a.pdf', data: 'not base64 at all!' }, ...upload }, 'file.data'],
      [{ file: { filename: 'a.pdf', data: 'JVBERi0\u0000' }, ...upload }, 'file.data'],
      [{ file: file(pdfBytes()), ...upload, content_title: 'x'.repeat(100_000) }, 'content_title'],
      [{ source_content_id: -1 }, 'source_content_id'],
      [{ source_content_id: 'abc' }, 'source_content_id'],
    ];
    for (const [body, field] of cases) {
      const res = await send('POST', base(productId), body);
      expect(res.statusCode, field).toBe(422);
      expect(Object.keys(res.json().errors), field).toContain(field);
    }
    for (const payload of ['[]', '"text"', 'null', '{"file":']) {
      const res = await stack.app.inject({ method: 'POST', url: base(productId), headers: shop.headers(), payload });
      expect(res.statusCode, payload).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, payload).toBeLessThan(500);
    }
    const notJson = await stack.app.inject({ method: 'POST', url: base(productId), headers: { 'x-api-key': shop.key, 'content-type': 'text/plain' }, payload: 'x' });
    expect(notJson.statusCode).toBe(415);
  });
});

describe('the 50 MB limit', () => {
  it('accepts a file of exactly 50 MB and answers 413 {error} for one byte-group more, before decoding', async () => {
    const productId = await insertProduct(shop);
    const atLimit = await send('POST', base(productId), { file: file(pdfBytes(MAX_CONTENT_BYTES), 'big.pdf'), ...upload });
    expect(atLimit.statusCode, atLimit.body.slice(0, 200)).toBe(201);
    expect(atLimit.json().data.file.byte_size).toBe(MAX_CONTENT_BYTES);
    const [key] = await storageKeyOf('big.pdf');
    const stream = await storage.stream(key!);
    let stored = 0;
    for await (const chunk of stream!) stored += (chunk as Buffer).length;
    expect(stored).toBe(MAX_CONTENT_BYTES);

    // Not valid base64 either: the size alone decides, nothing is decoded.
    const over = await send('POST', base(productId), { file: { filename: 'over.pdf', data: '!'.repeat(MAX_CONTENT_BASE64_LENGTH + 4) }, ...upload });
    expect(over.statusCode).toBe(413);
    expect(over.json()).toEqual({ error: expect.stringContaining('50 MB') });
  });

  it('refuses a body over the route limit with 413 {error}: at once from Content-Length, and while reading a stream', async () => {
    const productId = await insertProduct(shop);
    const declared = await stack.app.inject({
      method: 'POST',
      url: base(productId),
      headers: { ...shop.headers(), 'content-length': String(CONTENT_BODY_LIMIT + 1) },
      payload: '{}',
    });
    expect(declared.statusCode).toBe(413);
    expect(declared.json()).toHaveProperty('error');

    // Without a Content-Length: Fastify counts while reading, stops collecting at the limit and discards the rest.
    let produced = 0;
    const total = 2 * CONTENT_BODY_LIMIT;
    const chunk = Buffer.alloc(1024 * 1024, 0x41);
    const body = Readable.from(
      (function* () {
        yield Buffer.from('{"file":{"filename":"a.pdf","data":"');
        while (produced < total) {
          produced += chunk.length;
          yield chunk;
        }
      })(),
    );
    const streamed = await stack.app.inject({ method: 'POST', url: base(productId), headers: shop.headers(), payload: body });
    expect(streamed.statusCode).toBe(413);
    expect(streamed.json()).toHaveProperty('error');
  });
});

describe('source_content_id', () => {
  it('attaches the same stored file with the source settings, fields sent overriding; deleting the copy keeps the source', async () => {
    const first = await insertProduct(shop);
    const second = await insertProduct(shop);
    const source = await created(first, {
      file: file(epubBytes(), 'shared.epub'),
      days_to_expire: 10,
      usages_to_expire: 2,
      watermark: 'for {{IMIE}}',
      description: 'the book',
      content_title: 'Shared',
    });
    const copy = await created(second, { source_content_id: source.id, usages_to_expire: 9 });
    expect(copy).toMatchObject({ days_to_expire: 10, usages_to_expire: 9, watermark: 'for {{IMIE}}', description: 'the book', content_title: 'Shared', file: source.file });
    const keys = await storageKeyOf('shared.epub');
    expect(keys).toHaveLength(1);

    const deleted = await send('DELETE', `${base(second)}/${copy.id}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ data: { id: copy.id, deleted: true } });
    expect(await storage.get(keys[0]!)).not.toBeNull();
    expect((await send('GET', base(first))).json().data.map((c: { id: number }) => c.id)).toEqual([source.id]);
    expect((await send('DELETE', `${base(second)}/${copy.id}`)).statusCode).toBe(404);

    // The last content of a file takes its bytes with it.
    expect((await send('DELETE', `${base(first)}/${source.id}`)).statusCode).toBe(200);
    expect(await storage.get(keys[0]!)).toBeNull();
    expect(await storageKeyOf('shared.epub')).toEqual([]);
  });

  it('answers 422 for an unknown content and for a content of another shop', async () => {
    const mine = await insertProduct(shop);
    const theirs = await insertProduct(other);
    const foreign = (await send('POST', base(theirs), { file: file(pdfBytes()), ...upload }, other)).json().data;
    for (const id of [foreign.id, 2_147_483_647]) {
      const res = await send('POST', base(mine), { source_content_id: id });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toHaveProperty('source_content_id');
    }
  });
});

describe('PATCH /api/v1/products/:product_id/electronic_contents/:id', () => {
  it('changes only the settings sent; file replaces the bytes and a shared old file stays for its other user', async () => {
    const first = await insertProduct(shop);
    const second = await insertProduct(shop);
    const source = await created(first, { file: file(pdfBytes(3000), 'before.pdf'), ...upload, description: 'keep' });
    const copy = await created(second, { source_content_id: source.id });
    const [oldKey] = await storageKeyOf('before.pdf');

    const settings = await send('PATCH', `${base(first)}/${source.id}`, { watermark: 'x', days_to_expire: 5 });
    expect(settings.statusCode).toBe(200);
    expect(settings.json().data).toMatchObject({ watermark: 'x', days_to_expire: 5, usages_to_expire: 3, description: 'keep', file: source.file });

    const replaced = await send('PATCH', `${base(first)}/${source.id}`, { file: file(mobiBytes(), 'after.mobi') });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json().data.file).toEqual({ filename: 'after.mobi', content_type: 'application/x-mobipocket-ebook', byte_size: mobiBytes().length });
    expect(await storage.get(oldKey!)).not.toBeNull();
    expect((await send('GET', base(second))).json().data[0].file.filename).toBe('before.pdf');

    // Replacing the copy's file too leaves the old bytes unused: they go.
    expect((await send('PATCH', `${base(second)}/${copy.id}`, { file: file(epubBytes(), 'after.epub') })).statusCode).toBe(200);
    expect(await storage.get(oldKey!)).toBeNull();
  });

  it('answers 400, 413 and 422 like POST, and refuses fields POST alone takes', async () => {
    const productId = await insertProduct(shop);
    const content = await created(productId, { file: file(pdfBytes()), ...upload });
    const url = `${base(productId)}/${content.id}`;
    expect((await send('PATCH', url, { file: null })).statusCode).toBe(400);
    expect((await send('PATCH', url, { file: { filename: 'a' } })).statusCode).toBe(400);
    expect((await send('PATCH', url, { file: { filename: 'a', data: 'A'.repeat(MAX_CONTENT_BASE64_LENGTH + 4) } })).statusCode).toBe(413);
    const bad = await send('PATCH', url, { source_content_id: content.id, usages_to_expire: null, watermark: 'w'.repeat(129) });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['source_content_id', 'usages_to_expire', 'watermark']);
    expect((await send('PATCH', url, { file: file(Buffer.from('GIF89a....')) })).statusCode).toBe(422);
    expect((await send('GET', base(productId))).json().data[0]).toEqual(content);
  });
});

describe('tenancy, ids and scopes', () => {
  it('another shop\'s product or content is 404 on every route; so are malformed ids', async () => {
    const theirs = await insertProduct(other);
    const theirContent = (await send('POST', base(theirs), { file: file(pdfBytes()), ...upload }, other)).json().data;
    const mine = await insertProduct(shop);
    const mineContent = await created(mine, { file: file(pdfBytes()), ...upload });

    const attempts: [string, string, unknown][] = [
      ['GET', base(theirs), undefined],
      ['POST', base(theirs), { file: file(pdfBytes()), ...upload }],
      ['PATCH', `${base(theirs)}/${theirContent.id}`, { watermark: 'x' }],
      ['DELETE', `${base(theirs)}/${theirContent.id}`, undefined],
      ['PATCH', `${base(mine)}/${theirContent.id}`, { watermark: 'x' }],
      ['DELETE', `${base(mine)}/${theirContent.id}`, undefined],
    ];
    for (const bad of ['-1', '1.5', 'abc', '0', '99999999999', '1e3']) {
      attempts.push(['GET', base(bad), undefined], ['POST', base(bad), { source_content_id: mineContent.id }]);
      attempts.push(['PATCH', `${base(mine)}/${bad}`, { watermark: 'x' }], ['DELETE', `${base(mine)}/${bad}`, undefined]);
    }
    for (const [method, url, payload] of attempts) {
      const res = await send(method as 'GET', url, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toHaveProperty('error');
    }
    expect((await send('GET', base(theirs), undefined, other)).json().data).toHaveLength(1);
  });

  it('reads need read; adding, changing and deleting need write_data', async () => {
    const productId = await insertProduct(shop);
    const content = await created(productId, { file: file(pdfBytes()), ...upload });
    for (const scope of SHOP_SCOPES) {
      expect((await send('GET', base(productId), undefined, shop, scope)).statusCode, `GET ${scope}`).toBe(scope === 'read' ? 200 : 403);
      if (scope === 'write_data') continue;
      expect((await send('POST', base(productId), { source_content_id: content.id }, shop, scope)).statusCode, `POST ${scope}`).toBe(403);
      expect((await send('PATCH', `${base(productId)}/${content.id}`, { watermark: 'x' }, shop, scope)).statusCode, `PATCH ${scope}`).toBe(403);
      expect((await send('DELETE', `${base(productId)}/${content.id}`, undefined, shop, scope)).statusCode, `DELETE ${scope}`).toBe(403);
    }
    const copy = await send('POST', base(productId), { source_content_id: content.id }, shop, 'write_data');
    expect(copy.statusCode).toBe(201);
    expect((await send('PATCH', `${base(productId)}/${content.id}`, { watermark: 'x' }, shop, 'write_data')).statusCode).toBe(200);
    expect((await send('DELETE', `${base(productId)}/${copy.json().data.id}`, undefined, shop, 'write_data')).statusCode).toBe(200);
  });
});

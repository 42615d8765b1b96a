import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSecret } from '../../../adapters/secrets/secret-box.ts';
import { configure, createConfigurationKey } from '../../helpers/configuration.ts';
import { createPlatform } from '../../helpers/fixtures.ts';
import { insertProduct } from '../../helpers/shop-catalogue.ts';
import { createTestShop, type TestShop } from '../../helpers/shop.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';

/** The club integration (spec: Club integration settings, Endpoints > Club integration, rules 1-5). */
let stack: TestStack;
let shop: TestShop;
let other: TestShop;
let fresh: TestShop;
const products: Record<'a' | 'b' | 'c' | 'foreign', number> = { a: 0, b: 0, c: 0, foreign: 0 };
const logLines: string[] = [];

const TOKEN = 'tok-5f1c0d2e9a7b4c33';
const URL_WITH_TOKEN = `https://club.example.com/hooks/shop?token=${TOKEN}`;
const SECRET = 'club-signing-secret-0123456789';

beforeAll(async () => {
  stack = await startTestApp('shop-club-api', { logLevel: 'info', logStream: { write: (line) => void logLines.push(line) } });
  [shop, other, fresh] = await Promise.all([createTestShop(stack.app, 'club-one'), createTestShop(stack.app, 'club-two'), createTestShop(stack.app, 'club-three')]);
  products.a = await insertProduct(stack.orm, shop.id, { name: 'Atlas' });
  products.b = await insertProduct(stack.orm, shop.id, { name: 'Bestiary' });
  products.c = await insertProduct(stack.orm, shop.id, { name: 'Codex' });
  products.foreign = await insertProduct(stack.orm, other.id, { name: 'Foreign' });
});
afterAll(() => stack.close());

const call = (method: 'GET' | 'PATCH' | 'POST' | 'DELETE', url: string, payload?: unknown, headers: Record<string, string> = shop.headers()) =>
  stack.app.inject({ method, url: `/api/v1/configuration/club${url}`, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
const patch = (payload: unknown, s: TestShop = shop) => call('PATCH', '', payload, s.headers());
const settings = async (s: TestShop = shop) => (await call('GET', '', undefined, s.headers('read'))).json().data;
const storedRow = async (shopId: string) =>
  (await stack.orm.em.fork().getConnection().execute<{ url_sealed: string; secret_sealed: string | null }[]>('select url_sealed, secret_sealed from shop_club_integrations where shop_id = ?', [shopId]))[0];

describe('GET /api/v1/configuration/club', () => {
  it('before the first PATCH: configured false and the defaults (on, the Paid status, every product)', async () => {
    const res = await call('GET', '', undefined, fresh.headers('read'));
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      configured: false,
      active: true,
      webhook_url_configured: false,
      webhook_host: '',
      webhook_secret_key_configured: false,
      order_status_id: fresh.statuses.Paid,
      product_ids: [],
      products: [],
      fires_for_all_products: true,
    });
  });

  it('needs the read scope; writes need write_config (another write scope is a 403), no key is a 401', async () => {
    expect((await call('GET', '', undefined, fresh.headers('write_config'))).statusCode).toBe(403);
    for (const scope of ['read', 'write_data', 'write_storefront', 'write_subscriptions'] as const) {
      expect((await call('PATCH', '', { active: false }, fresh.headers(scope))).statusCode).toBe(403);
      expect((await call('POST', '/products', { product_ids: [1] }, fresh.headers(scope))).statusCode).toBe(403);
      expect((await call('DELETE', '/products/1', undefined, fresh.headers(scope))).statusCode).toBe(403);
    }
    expect((await call('GET', '', undefined, { 'content-type': 'application/json' })).statusCode).toBe(401);
    // The platform's configuration interface shares the prefix but not the keys: its key is a 401 here, and a shop key is one there.
    const platform = await createPlatform(stack.app, 'Club key probe academy');
    const platformKey = await createConfigurationKey(stack.app, platform.id);
    expect((await configure(stack.app, 'GET', '/club', platformKey.token)).statusCode).toBe(401);
    expect((await configure(stack.app, 'GET', '/webhooks', fresh.key)).statusCode).toBe(401);
    expect((await settings(fresh)).configured).toBe(false);
  });
});

describe('PATCH /api/v1/configuration/club', () => {
  it('the first PATCH needs webhook_url (422 naming it) and creates nothing without it', async () => {
    for (const body of [{ active: true }, { webhook_url: '' }]) {
      const res = await patch(body, fresh);
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.webhook_url).toEqual([expect.stringContaining('required')]);
    }
    expect((await settings(fresh)).configured).toBe(false);
  });

  it('creates the integration; the reply shows the host only, never the address (its token) or the key, both sealed at rest', async () => {
    const res = await patch({ webhook_url: URL_WITH_TOKEN, webhook_secret_key: SECRET, product_ids: [products.b, products.a, products.b] });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      configured: true,
      active: true,
      webhook_url_configured: true,
      webhook_host: 'club.example.com',
      webhook_secret_key_configured: true,
      order_status_id: shop.statuses.Paid,
      product_ids: [products.b, products.a],
      products: [
        { id: products.b, name: 'Bestiary' },
        { id: products.a, name: 'Atlas' },
      ],
      fires_for_all_products: false,
    });
    expect(res.body).not.toContain(TOKEN);
    expect(res.body).not.toContain(SECRET);
    const row = await storedRow(shop.id);
    expect(row!.url_sealed).not.toContain(TOKEN);
    expect(openSecret(row!.url_sealed, stack.app.secretsKey)).toBe(URL_WITH_TOKEN);
    expect(openSecret(row!.secret_sealed!, stack.app.secretsKey)).toBe(SECRET);
  });

  it('changes only the fields sent; an empty string keeps the address and the key', async () => {
    const before = await storedRow(shop.id);
    const res = await patch({ active: false, webhook_url: '', webhook_secret_key: '' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ active: false, webhook_host: 'club.example.com', webhook_secret_key_configured: true, product_ids: [products.b, products.a] });
    expect(await storedRow(shop.id)).toEqual(before);
    expect((await patch({ active: true })).json().data.active).toBe(true);
  });

  it('null clears the key, but the address cannot be cleared (422 naming webhook_url)', async () => {
    const refused = await patch({ webhook_url: null });
    expect(refused.statusCode).toBe(422);
    expect(Object.keys(refused.json().errors)).toEqual(['webhook_url']);
    expect((await settings()).webhook_url_configured).toBe(true);

    const cleared = await patch({ webhook_secret_key: null });
    expect(cleared.json().data.webhook_secret_key_configured).toBe(false);
    expect((await storedRow(shop.id))!.secret_sealed).toBeNull();
    expect((await patch({ webhook_secret_key: SECRET })).json().data.webhook_secret_key_configured).toBe(true);
  });

  it('a new address replaces the old one; a bad address is a 422 that does not echo it', async () => {
    const res = await patch({ webhook_url: `https://members.example.org/in?token=${TOKEN}` });
    expect(res.json().data.webhook_host).toBe('members.example.org');
    for (const url of [`ftp://files.example.com/${TOKEN}`, `https://user:${TOKEN}@example.com/`, `not a url ${TOKEN}`]) {
      const bad = await patch({ webhook_url: url });
      expect(bad.statusCode).toBe(422);
      expect(Object.keys(bad.json().errors)).toEqual(['webhook_url']);
      expect(bad.body).not.toContain(TOKEN);
    }
    expect((await settings()).webhook_host).toBe('members.example.org');
    await patch({ webhook_url: URL_WITH_TOKEN });
  });

  it('a host name too long for DNS (over 253 characters, or a label over 63) is a 422 naming webhook_url, not a 500', async () => {
    const label = 'a'.repeat(63);
    for (const host of [`${'b'.repeat(64)}.example.com`, `${[label, label, label, label, label].join('.')}.example.com`]) {
      const bad = await patch({ webhook_url: `https://${host}/in?token=${TOKEN}` });
      expect(bad.statusCode).toBe(422);
      expect(Object.keys(bad.json().errors)).toEqual(['webhook_url']);
    }
    expect((await settings()).webhook_host).toBe('club.example.com');
  });

  it('order_status_id must be a status of this shop (422); a status of the shop is taken', async () => {
    const foreign = await patch({ order_status_id: other.statuses.Sent });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().errors.order_status_id).toBeDefined();
    const res = await patch({ order_status_id: shop.statuses.Sent });
    expect(res.json().data.order_status_id).toBe(shop.statuses.Sent);
    await patch({ order_status_id: shop.statuses.Paid });
  });

  it('product_ids replaces the whole list; a foreign or unknown id is a 422 and nothing of the write is saved', async () => {
    const before = await settings();
    const res = await patch({ active: false, order_status_id: shop.statuses.Sent, webhook_url: 'https://elsewhere.example.net/x', product_ids: [products.c, products.foreign, 2_000_000_000] });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ product_ids: [expect.stringContaining(`${products.foreign}, 2000000000`)] });
    expect(await settings()).toEqual(before);

    const replaced = await patch({ product_ids: [products.c] });
    expect(replaced.json().data.product_ids).toEqual([products.c]);
  });

  it('refuses fields that are not writable and malformed values, naming them', async () => {
    const res = await patch({ webhook_host: 'x.example.com', active: 'yes', product_ids: [0] });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(['active', 'product_ids.0', 'webhook_host']);
  });

  it('two first PATCHes at once make one integration', async () => {
    const racer = await createTestShop(stack.app, 'club-race');
    const results = await Promise.all([patch({ webhook_url: URL_WITH_TOKEN }, racer), patch({ webhook_url: 'https://b.example.com/x', active: false }, racer)]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200]);
    const [count] = await stack.orm.em.fork().getConnection().execute<{ n: string }[]>('select count(*) as n from shop_club_integrations where shop_id = ?', [racer.id]);
    expect(Number(count!.n)).toBe(1);
  });
});

describe('POST /api/v1/configuration/club/products', () => {
  it('404 before the integration exists', async () => {
    const res = await call('POST', '/products', { product_ids: [products.foreign] }, other.headers('write_config'));
    expect(res.statusCode).toBe(404);
  });

  it('adds products, skipping those on the list', async () => {
    const res = await call('POST', '/products', { product_ids: [products.a, products.c, products.b] });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ product_ids: [products.c, products.a, products.b], fires_for_all_products: false });
  });

  it('an unknown or foreign product is a 422 and nothing is added; an empty list is a 422', async () => {
    await patch({ product_ids: [products.a] });
    const res = await call('POST', '/products', { product_ids: [products.b, products.foreign] });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.product_ids).toEqual([expect.stringContaining(String(products.foreign))]);
    expect((await settings()).product_ids).toEqual([products.a]);
    expect((await call('POST', '/products', { product_ids: [] })).statusCode).toBe(422);
    expect((await call('POST', '/products', {})).json().errors).toHaveProperty('product_ids');
  });
});

describe('DELETE /api/v1/configuration/club/products/:product_id', () => {
  it('404 for a product not on the list (or before the integration exists)', async () => {
    expect((await call('DELETE', `/products/${products.b}`)).statusCode).toBe(404);
    expect((await call('DELETE', '/products/abc')).statusCode).toBe(404);
    expect((await call('DELETE', `/products/${products.foreign}`, undefined, other.headers('write_config'))).statusCode).toBe(404);
  });

  it('removing the last product switches to every order', async () => {
    await patch({ product_ids: [products.a, products.b] });
    const first = await call('DELETE', `/products/${products.a}`);
    expect(first.json().data).toMatchObject({ product_ids: [products.b], fires_for_all_products: false });
    const last = await call('DELETE', `/products/${products.b}`);
    expect(last.statusCode).toBe(200);
    expect(last.json().data).toMatchObject({ configured: true, product_ids: [], products: [], fires_for_all_products: true });
  });

  it('a product deleted from the catalogue leaves the list', async () => {
    const doomed = await insertProduct(stack.orm, shop.id, { name: 'Doomed' });
    await patch({ product_ids: [doomed, products.a] });
    expect((await stack.app.inject({ method: 'DELETE', url: `/api/v1/products/${doomed}`, headers: shop.headers() })).statusCode).toBe(200);
    expect((await settings()).product_ids).toEqual([products.a]);
  });
});

describe('hidden products', () => {
  it('a product hidden while listed (deleted with orders) stays on the list and sending the list back is taken; a hidden product not listed is refused', async () => {
    const kept = await insertProduct(stack.orm, shop.id, { name: 'Sold out' });
    const unlisted = await insertProduct(stack.orm, shop.id, { name: 'Gone', hidden: true });
    await patch({ product_ids: [kept, products.a] });
    await stack.orm.em.fork().getConnection().execute('update shop_products set hidden = true where id = ?', [kept]);
    expect((await settings()).product_ids).toEqual([kept, products.a]);
    const again = await patch({ active: true, product_ids: [kept, products.a] });
    expect(again.statusCode, again.body).toBe(200);
    expect((await call('POST', '/products', { product_ids: [kept] })).statusCode).toBe(200);
    const refused = await patch({ product_ids: [kept, unlisted] });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.product_ids).toEqual([expect.stringContaining(String(unlisted))]);
  });
});

describe('secrets in logs', () => {
  it('no log line carries the address token or the key', () => {
    // Every request above is logged at info: the check reads real lines, the club writes among them.
    expect(logLines.filter((line) => line.includes('/configuration/club')).length).toBeGreaterThan(10);
    expect(logLines.join('\n')).not.toContain(TOKEN);
    expect(logLines.join('\n')).not.toContain(SECRET);
  });
});

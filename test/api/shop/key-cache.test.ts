/**
 * The shop keys' cache across api instances (api/shop/key-cache.ts on api/shared/key-cache.ts): two
 * apps on one database, as two api processes would be. A key used on B stays in B's cache for
 * seconds; a revocation or the shop's API switch made through A must reach B at once, through the
 * database's NOTIFY.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { inject } from 'vitest';
import { SHOP_KEY_CHANGES_CHANNEL } from '../../../db/repositories/shop/shops.ts';
import { adminPost, createTestShop, operator } from '../../helpers/shop.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';

let a: TestStack;
let b: TestStack;

beforeAll(async () => {
  [a, b] = await Promise.all([startTestApp('shop-key-cache-a'), startTestApp('shop-key-cache-b')]);
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});

const status = async (stack: TestStack, key: string) => (await stack.app.inject({ method: 'GET', url: '/api/v1/orders', headers: { 'x-api-key': key } })).statusCode;

/** Polls until `check` holds (a generous bound: a loaded machine may be slow). */
async function soon(check: () => Promise<boolean>): Promise<void> {
  const started = Date.now();
  const limit = 20_000;
  while (!(await check())) {
    if (Date.now() - started > limit) throw new Error(`not within ${limit} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Runs `change` and waits (a generous bound) until B's cache holds fewer keys, with no lookup on B
 * meanwhile: an entry past its TTL stays until it is looked up, so only the announcement drops one.
 */
async function forgets(change: () => Promise<unknown>): Promise<void> {
  const before = b.app.shopKeyCache.size;
  expect(before).toBeGreaterThan(0);
  await change();
  await soon(async () => b.app.shopKeyCache.size < before);
}

describe('shop key cache', () => {
  it('serves a key it knows without a statement, and forgets the shop when told', async () => {
    const shop = await createTestShop(a.app, 'cached');
    expect(await status(b, shop.key)).toBe(200);
    // A key revoked behind the api's back (no announcement) still works from the cache: it is the cache that answers.
    const sql = new pg.Client({ connectionString: inject('databaseUrl') });
    await sql.connect();
    try {
      await sql.query('update shop_api_keys set revoked_at = now() where shop_id = $1', [shop.id]);
      expect(await status(b, shop.key)).toBe(200);
      await forgets(() => sql.query('select pg_notify($1, $2)', [SHOP_KEY_CHANGES_CHANNEL, shop.id]));
      expect(await status(b, shop.key)).toBe(401);
    } finally {
      await sql.end();
    }
  });

  it('a key revoked through one instance stops at once there and soon on the instance that has it cached; its other keys work', async () => {
    const shop = await createTestShop(a.app, 'revoked');
    const key = await adminPost<{ id: string; token: string }>(a.app, `/admin/v1/shops/${shop.id}/api_keys`, { name: 'to revoke', scopes: ['read'] });
    expect(await status(a, key.token)).toBe(200);
    expect(await status(b, key.token)).toBe(200);
    expect(await status(b, shop.key)).toBe(200);
    let res!: Awaited<ReturnType<typeof a.app.inject>>;
    await forgets(async () => {
      res = await a.app.inject({ method: 'DELETE', url: `/admin/v1/shops/${shop.id}/api_keys/${key.id}`, headers: operator });
    });
    expect(res.statusCode).toBe(200);
    expect(await status(a, key.token)).toBe(401);
    expect(await status(b, key.token)).toBe(401);
    expect(await status(b, shop.key)).toBe(200);
  });

  it('the API switched off through one instance refuses the shop\'s keys on the other, and on again serves them', async () => {
    const shop = await createTestShop(a.app, 'switched');
    expect(await status(b, shop.key)).toBe(200);
    const patch = async (api_enabled: boolean) => {
      const res = await a.app.inject({ method: 'PATCH', url: `/admin/v1/shops/${shop.id}`, headers: operator, payload: { api_enabled } });
      expect(res.statusCode).toBe(200);
    };
    await forgets(() => patch(false));
    expect(await status(a, shop.key)).toBe(401);
    expect(await status(b, shop.key)).toBe(401);
    await patch(true);
    await soon(async () => (await status(b, shop.key)) === 200);
  });
});

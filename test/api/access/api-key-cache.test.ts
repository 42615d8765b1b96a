/**
 * The access keys' cache across api instances (api/access/api-key-cache.ts, api-key-changes.ts):
 * two apps on one database, as two api processes would be. A key used on B stays in B's cache
 * for seconds; a change made through A must reach B at once, through the database's NOTIFY.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { inject } from 'vitest';
import { createPlatform, operator } from '../../helpers/fixtures.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';

let a: TestStack;
let b: TestStack;

beforeAll(async () => {
  [a, b] = await Promise.all([startTestApp('key-cache-a'), startTestApp('key-cache-b')]);
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});

const status = async (stack: TestStack, key: string, referer?: string) =>
  (await stack.app.inject({ method: 'GET', url: '/api/courses', headers: { 'x-api-key': key, ...(referer && { referer }) } })).statusCode;

/** Polls until `check` holds (a generous bound: a loaded machine may be slow). */
async function soon(check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  const limit = 20_000;
  while (!(await check())) {
    if (Date.now() - started > limit) throw new Error(`not within ${limit} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return Date.now() - started;
}

/**
 * Runs `change` and waits (a generous bound) until B's cache holds fewer keys, with no lookup on B
 * meanwhile: an entry past its TTL stays until it is looked up, so only the announcement drops one.
 */
async function forgets(change: () => Promise<unknown>): Promise<void> {
  const before = b.app.apiKeyCache.size;
  expect(before).toBeGreaterThan(0);
  await change();
  await soon(async () => b.app.apiKeyCache.size < before);
}

describe('API key cache', () => {
  it('serves a key it knows without a statement', async () => {
    const platform = await createPlatform(a.app);
    // The platform's creation was announced too: a lookup B made while hearing it is not kept, the next one is.
    await soon(async () => (await status(b, platform.apiKey)) === 200 && b.app.apiKeyCache.size > 0);
    // A key revoked behind the api's back (no announcement) still works from the cache: it is the cache that answers.
    const sql = new pg.Client({ connectionString: inject('databaseUrl') });
    await sql.connect();
    try {
      await sql.query('update platform_api_keys set revoked_at = now() where platform_id = $1', [platform.id]);
      expect(await status(b, platform.apiKey)).toBe(200);
      await forgets(() => sql.query("select pg_notify('platform_api_key_changes', $1)", [platform.id]));
      expect(await status(b, platform.apiKey)).toBe(401);
    } finally {
      await sql.end();
    }
  });

  it('a key regenerated through one instance stops at once on the instance that has it cached', async () => {
    const platform = await createPlatform(a.app);
    expect(await status(a, platform.apiKey)).toBe(200);
    expect(await status(b, platform.apiKey)).toBe(200);
    await soon(async () => b.app.apiKeyCache.size > 0 && (await status(b, platform.apiKey)) === 200);
    let res!: Awaited<ReturnType<typeof a.app.inject>>;
    await forgets(async () => {
      res = await a.app.inject({ method: 'POST', url: `/admin/v1/platforms/${platform.id}/api_key`, headers: operator });
    });
    expect(res.statusCode).toBe(201);
    // The instance that made the change forgets synchronously, before it replies.
    expect(await status(a, platform.apiKey)).toBe(401);
    expect(await status(b, platform.apiKey)).toBe(401);
    expect(await status(b, res.json().data.api_key)).toBe(200);
  });

  it('allowed domains changed through one instance apply at once on the other', async () => {
    const platform = await createPlatform(a.app);
    const shop = 'https://shop.example.com/';
    const setDomains = async (domains: string[]) => {
      const put = await a.app.inject({ method: 'PUT', url: `/admin/v1/platforms/${platform.id}/allowed_domains`, headers: operator, payload: { domains } });
      expect(put.statusCode).toBe(200);
    };
    await setDomains(['shop.example.com']);
    expect(await status(a, platform.apiKey, shop)).toBe(200);
    expect(await status(b, platform.apiKey, shop)).toBe(200);
    await forgets(() => setDomains(['other.example.org']));
    expect(await status(a, platform.apiKey, shop)).toBe(401);
    expect(await status(b, platform.apiKey, shop)).toBe(401);
    expect(await status(b, platform.apiKey, 'https://other.example.org/x')).toBe(200);
  });
});

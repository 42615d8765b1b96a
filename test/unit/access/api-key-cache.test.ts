import { describe, expect, it } from 'vitest';
import { ApiKeyCache } from '../../../api/access/api-key-cache.ts';
import type { ApiKeyPlatform } from '../../../db/repositories/access/api-keys.ts';

const rowOf = (platformId: string, domains: string[] = []): ApiKeyPlatform => ({ platform_id: platformId, subdomain: `s-${platformId}`, allowed_domains: domains, sandbox: false });

/** A cache on a hand-driven clock, and a loader that counts its statements. */
function setup(ttlMs = 1_000) {
  let now = 0;
  const cache = new ApiKeyCache(ttlMs, () => now);
  cache.setEnabled(true);
  const db = new Map<string, ApiKeyPlatform>();
  let loads = 0;
  const load = (hash: string) => () => {
    loads++;
    return Promise.resolve(db.get(hash));
  };
  return { cache, db, load, loads: () => loads, advance: (ms: number) => (now += ms) };
}

describe('ApiKeyCache', () => {
  it('answers a known key from memory until its time is up, then asks again', async () => {
    const t = setup();
    t.db.set('h1', rowOf('p1'));
    expect(await t.cache.lookup('h1', t.load('h1'))).toEqual(rowOf('p1'));
    expect(await t.cache.lookup('h1', t.load('h1'))).toEqual(rowOf('p1'));
    expect(t.loads()).toBe(1);
    t.advance(1_001);
    await t.cache.lookup('h1', t.load('h1'));
    expect(t.loads()).toBe(2);
  });

  it('never keeps an unknown key: it is asked every time', async () => {
    const t = setup();
    expect(await t.cache.lookup('nope', t.load('nope'))).toBeUndefined();
    expect(await t.cache.lookup('nope', t.load('nope'))).toBeUndefined();
    expect(t.loads()).toBe(2);
    expect(t.cache.size).toBe(0);
  });

  it('forgets every key of a platform at once when a change is announced, and only that platform', async () => {
    const t = setup();
    t.db.set('a1', rowOf('pa'));
    t.db.set('b1', rowOf('pb'));
    await t.cache.lookup('a1', t.load('a1'));
    await t.cache.lookup('b1', t.load('b1'));
    t.db.delete('a1'); // revoked
    t.cache.forgetPlatform('pa');
    expect(await t.cache.lookup('a1', t.load('a1'))).toBeUndefined();
    expect(await t.cache.lookup('b1', t.load('b1'))).toEqual(rowOf('pb'));
    expect(t.loads()).toBe(3);
  });

  it('does not keep a row read while a change was announced (it may be the row from before the change)', async () => {
    const t = setup();
    let release: (row: ApiKeyPlatform) => void = () => undefined;
    const slow = new Promise<ApiKeyPlatform>((resolve) => (release = resolve));
    const lookup = t.cache.lookup('h1', () => slow);
    t.cache.forgetPlatform('p1'); // the revocation commits while the lookup is under way
    release(rowOf('p1'));
    expect(await lookup).toEqual(rowOf('p1'));
    expect(t.cache.size).toBe(0);
  });

  it('keeps nothing while changes cannot be heard', async () => {
    const t = setup();
    t.db.set('h1', rowOf('p1'));
    await t.cache.lookup('h1', t.load('h1'));
    t.cache.setEnabled(false);
    await t.cache.lookup('h1', t.load('h1'));
    await t.cache.lookup('h1', t.load('h1'));
    expect(t.loads()).toBe(3);
    expect(t.cache.size).toBe(0);
  });
});

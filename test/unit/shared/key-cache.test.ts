import { describe, expect, it } from 'vitest';
import { KeyCache } from '../../../api/shared/key-cache.ts';

interface Row {
  tenant: string;
  usable: boolean;
}

/** A cache of rows that keeps only usable ones, on a hand-driven clock, with a loader that counts its statements. */
function setup() {
  const cache = new KeyCache<Row>(
    (row) => row.tenant,
    (row) => row.usable,
    1_000,
    () => 0,
  );
  cache.setEnabled(true);
  const db = new Map<string, Row>();
  let loads = 0;
  const load = (hash: string) => () => {
    loads++;
    return Promise.resolve(db.get(hash));
  };
  return { cache, db, load, loads: () => loads };
}

describe('KeyCache', () => {
  it('keeps a usable row and asks again for one it may not keep (a refused key)', async () => {
    const t = setup();
    t.db.set('ok', { tenant: 't1', usable: true });
    t.db.set('refused', { tenant: 't1', usable: false });
    await t.cache.lookup('ok', t.load('ok'));
    await t.cache.lookup('ok', t.load('ok'));
    expect(t.loads()).toBe(1);
    expect(await t.cache.lookup('refused', t.load('refused'))).toEqual({ tenant: 't1', usable: false });
    await t.cache.lookup('refused', t.load('refused'));
    expect(t.loads()).toBe(3);
    expect(t.cache.size).toBe(1);
  });

  it('forgets the rows of one tenant only', async () => {
    const t = setup();
    t.db.set('a', { tenant: 't1', usable: true });
    t.db.set('b', { tenant: 't2', usable: true });
    await t.cache.lookup('a', t.load('a'));
    await t.cache.lookup('b', t.load('b'));
    t.cache.forgetTenant('t1');
    await t.cache.lookup('a', t.load('a'));
    await t.cache.lookup('b', t.load('b'));
    expect(t.loads()).toBe(3);
  });
});

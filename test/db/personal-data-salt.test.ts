/**
 * The keyed hash of a person's address (db/repositories/shared/personal-data/salt.ts): HMAC-SHA256
 * of the normalised address with the installation's salt, which is read once per database and
 * process (it never changes), not by every grant request and clearing.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { EntityManager } from '@mikro-orm/postgresql';
import { openOrm, type Orm } from '../../db/orm.ts';
import { personalEmailHash, personalEmailHasher } from '../../db/repositories/shared/personal-data/salt.ts';

let orm: Orm;

beforeAll(async () => {
  orm = await openOrm({ databaseUrl: inject('databaseUrl'), poolMax: 2 });
});
afterAll(async () => {
  await orm?.close();
});

/** A fork whose statements are counted. */
function countingFork(): { em: EntityManager; statements: string[] } {
  const em = orm.em.fork();
  const statements: string[] = [];
  const execute = em.execute.bind(em);
  em.execute = ((query: string, ...rest: never[]) => (statements.push(query), execute(query, ...rest))) as typeof em.execute;
  return { em, statements };
}

describe('personalEmailHash', () => {
  it("is the HMAC of the lower-cased address with the database's salt, the salt read at the first hash only", async () => {
    const [stored] = await orm.em.fork().getConnection().execute<{ salt: string }[]>('select salt from personal_data_salt order by id limit 1');
    const expected = createHmac('sha256', stored!.salt).update('buyer@example.com').digest('hex');

    const first = countingFork();
    expect(await personalEmailHash(first.em, 'Buyer@Example.com')).toBe(expected);
    const second = countingFork();
    const hashOf = await personalEmailHasher(second.em);
    expect(hashOf('buyer@example.com')).toBe(expected);
    // One read in all, whichever fork made it first (another file of this process may have).
    expect(first.statements.length + second.statements.length).toBeLessThanOrEqual(1);
    expect(second.statements).toEqual([]);
  });
});

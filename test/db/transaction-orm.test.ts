/**
 * The clearing's one step (issue 26 item 1): forks made through `shopEmIn` run in the step's
 * transaction, and a savepoint's failure rolls back only what that savepoint wrote.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { EntityManager } from '@mikro-orm/postgresql';
import { openOrm, type Orm } from '../../db/orm.ts';
import { inSavepoint, shopEmIn, type TransactionScope } from '../../db/repositories/shared/transaction-orm.ts';

let orm: Orm;
const table = `savepoint_probe_${Math.random().toString(36).slice(2, 10)}`;

beforeAll(async () => {
  orm = await openOrm({ databaseUrl: inject('databaseUrl'), poolMax: 3 });
  await orm.em.fork().execute(`create table ${table} (part text primary key)`);
});
afterAll(async () => {
  await orm?.em.fork().execute(`drop table if exists ${table}`);
  await orm?.close();
});

const write = (em: EntityManager, part: string) => em.execute(`insert into ${table} (part) values (?)`, [part]);
const parts = async (em: EntityManager) => (await em.execute<{ part: string }[]>(`select part from ${table} order by part`)).map((r) => r.part);

describe('shopEmIn and inSavepoint', () => {
  it('run every fork in one transaction and roll back only the failing savepoint', async () => {
    let seenOutside: string[] = [];
    await (orm.em.fork() as EntityManager).transactional(async (tx) => {
      const scope: TransactionScope = { em: tx as EntityManager };
      const inTx = () => shopEmIn(scope, '00000000-0000-4000-8000-000000000001');
      await inSavepoint(scope, () => write(inTx(), 'a'));
      await expect(
        inSavepoint(scope, async () => {
          await write(inTx(), 'b');
          throw new Error('this part fails');
        }),
      ).rejects.toThrow('this part fails');
      // A statement that fails aborts the transaction up to the savepoint only.
      await expect(inSavepoint(scope, () => write(inTx(), 'a'))).rejects.toThrow(/duplicate key/);
      await inSavepoint(scope, () => write(inTx(), 'c'));
      // Not committed yet: another connection sees none of it; the transaction sees a and c.
      seenOutside = await parts(orm.em.fork() as EntityManager);
      expect(await parts(inTx())).toEqual(['a', 'c']);
    });
    expect(seenOutside).toEqual([]);
    expect(await parts(orm.em.fork() as EntityManager)).toEqual(['a', 'c']);
  });

  it('refuse a savepoint inside another (its one name would release the outer), and take parts again after', async () => {
    await (orm.em.fork() as EntityManager).transactional(async (tx) => {
      const scope: TransactionScope = { em: tx as EntityManager };
      await expect(inSavepoint(scope, () => inSavepoint(scope, async () => 'inner'))).rejects.toThrow('inSavepoint does not nest');
      await expect(inSavepoint(scope, async () => 'next')).resolves.toBe('next');
    });
  });
});

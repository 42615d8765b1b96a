/**
 * The grant step's transaction on one pooled connection (db/repositories/shared/pooled-transaction.ts):
 * committed when the work returns, rolled back when it throws, its statements' errors without values.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openOrm, type Orm } from '../../db/orm.ts';
import { pooledTransaction } from '../../db/repositories/shared/pooled-transaction.ts';

let orm: Orm;
const table = `pooled_tx_probe_${randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  orm = await openOrm({ databaseUrl: inject('databaseUrl'), poolMax: 2 });
  await orm.em.fork().getConnection().execute(`create table ${table} (v text primary key)`);
});
afterAll(async () => {
  await orm?.em.fork().getConnection().execute(`drop table if exists ${table}`);
  await orm?.close();
});

const values = async () => (await orm.em.fork().getConnection().execute<{ v: string }[]>(`select v from ${table} order by v`)).map((r) => r.v);

describe('pooledTransaction', () => {
  it('commits what the work wrote and returns its answer; the same statement text runs again as the same prepared statement', async () => {
    const answer = await pooledTransaction(orm.em.fork(), async (tx) => {
      await tx.execute(`insert into ${table} (v) values (?)`, ['a']);
      await tx.execute(`insert into ${table} (v) values (?)`, ['b']);
      return tx.execute<{ n: string }[]>(`select count(*) as n from ${table} where v in (?, ?)`, ['a', 'b']);
    });
    expect(answer).toEqual([{ n: '2' }]);
    expect(await values()).toEqual(['a', 'b']);
  });

  it('rolls back everything when the work throws, and the error carries no statement values', async () => {
    const secret = `leak-probe-${randomUUID()}`;
    const error = await pooledTransaction(orm.em.fork(), async (tx) => {
      await tx.execute(`insert into ${table} (v) values (?)`, [secret]);
      await tx.execute(`insert into ${table} (v) values (?)`, [secret]);
    }).catch((e: Error) => e);
    expect(error).toMatchObject({ code: '23505' });
    expect((error as Error).message).toMatch(/duplicate key value violates unique constraint .* \(in insert into pooled_tx_probe_\w+\)$/);
    expect(error).not.toHaveProperty('detail');
    expect(JSON.stringify(error) + (error as Error).message).not.toContain(secret);
    expect(await values()).not.toContain(secret);
    // The connection went back to the pool usable: the next transaction runs on it.
    expect(await pooledTransaction(orm.em.fork(), (tx) => tx.execute<{ one: number }[]>('select 1 as one'))).toEqual([{ one: 1 }]);
  });
});

/**
 * An activity's fork (tenantEm, shopEm): its plain statements go prepared on a pooled connection
 * (db/repositories/shared/pooled-transaction.ts), and answer as MikroORM's query path would.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openOrm, type Orm } from '../../db/orm.ts';
import { shopEm } from '../../db/repositories/shared/tenant-em.ts';
import { statementsSent } from '../helpers/sent-statements.ts';

let orm: Orm;

beforeAll(async () => {
  orm = await openOrm({ databaseUrl: inject('databaseUrl'), poolMax: 2 });
});
afterAll(() => orm?.close());

describe("an activity's plain statements", () => {
  it('go prepared when every value is one the driver binds as knex does', async () => {
    const em = shopEm(orm, randomUUID());
    const sql = 'select ?::int + 1 as n, ?::text as t, ?::timestamptz as at, ?::jsonb as j, ?::bool as b';
    const values = [41, 'x', new Date('2026-12-08T00:00:00Z'), JSON.stringify({ a: [1] }), null];
    let rows: unknown;
    const statements = await statementsSent(async () => (rows = await em.execute(sql, values)));
    expect(statements).toEqual([{ text: 'select $1::int + 1 as n, $2::text as t, $3::timestamptz as at, $4::jsonb as j, $5::bool as b', prepared: true }]);
    // The same rows as MikroORM's own query path (a fork of the Orm's, not an activity's) answers.
    expect(rows).toEqual(await orm.em.fork().execute(sql, values));
    expect(rows).toEqual([{ n: 42, t: 'x', at: expect.anything(), j: { a: [1] }, b: null }]);
  });

  it('keep knex\'s list for an array value (`in (?)`), on its query path', async () => {
    const em = shopEm(orm, randomUUID());
    const rows = await em.execute<{ n: number }[]>('select n from generate_series(1, 5) as n where n in (?) order by n', [[2, 4]]);
    expect(rows.map((r) => r.n)).toEqual([2, 4]);
  });

  it('go the ORM\'s way without values (several commands in one text) and inside a transaction of the fork\'s own', async () => {
    const em = shopEm(orm, randomUUID());
    expect(await em.execute('select 1 as a; select 2 as b')).toBeDefined();
    const statements = await statementsSent(async () => {
      await em.begin();
      try {
        await em.execute('select ?::int as n', [1]);
      } finally {
        await em.rollback();
      }
    });
    expect(statements.filter((s) => s.text.includes('::int as n'))).toEqual([{ text: expect.any(String), prepared: false }]);
  });
});

/**
 * Database errors carry no statement values (issue 16, item 2): the message is PostgreSQL's own
 * with the kind of statement, `detail` (which repeats row values) is gone, the SQLSTATE stays.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { statementKind } from '../../db/driver-errors.ts';
import { runStatement, statement } from '../../db/repositories/shared/prepared.ts';
import { openOrm, type Orm } from '../../db/orm.ts';

let orm: Orm;
const SECRET = `leak-probe-${Math.random().toString(36).slice(2)}`;

beforeAll(async () => {
  orm = await openOrm({ databaseUrl: inject('databaseUrl'), poolMax: 2 });
});
afterAll(() => orm?.close());

async function failure(work: () => Promise<unknown>): Promise<Error> {
  try {
    await work();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a database error');
}

/** Everything a logger or Temporal could show of the error. */
const shown = (error: Error) => `${error.message}\n${error.stack}\n${JSON.stringify(error)}\n${JSON.stringify(Object.getOwnPropertyNames(error).map((k) => (error as unknown as Record<string, unknown>)[k]))}`;

describe('database errors', () => {
  it('keep the constraint and SQLSTATE but neither the values of the statement nor the failing row', async () => {
    const em = orm.em.fork();
    // One connection for both statements: the table is temporary.
    const error = await em.transactional(async (tx) => {
      await tx.execute(`create temp table probe_rows (v text check (v not like 'leak-probe-%')) on commit drop`);
      return failure(() => tx.execute('insert into probe_rows (v) values (?)', [SECRET]));
    }).catch((e: Error) => e);
    expect(error.message).toBe('new row for relation "probe_rows" violates check constraint "probe_rows_v_check" (in insert into probe_rows)');
    expect(error).toMatchObject({ code: '23514', constraint: 'probe_rows_v_check', table: 'probe_rows' });
    expect(error).not.toHaveProperty('detail');
    expect(shown(error)).not.toContain(SECRET);
  });

  it('elide an input value PostgreSQL quotes in its own message', async () => {
    const error = await failure(() => orm.em.fork().getConnection().execute('select ?::uuid as id', [SECRET]));
    expect(error.message).toBe('invalid input syntax for type uuid: "…" (in select)');
    expect(error).toMatchObject({ code: '22P02' });
    expect(shown(error)).not.toContain(SECRET);
  });

  it('of a prepared statement run on a pool connection (no knex in the path) neither: no detail, no quoted value', async () => {
    const em = orm.em.fork();
    const platformId = randomUUID();
    // A foreign key violation: PostgreSQL's detail names the missing key (the value bound here).
    const insert = statement('probe-participant-insert', 'insert into participants (id, platform_id, email, created_at) values (gen_random_uuid(), :platform, :email, now())', {
      platform: platformId,
      email: SECRET,
    });
    const error = await failure(() => runStatement(em, insert));
    expect(error).toMatchObject({ code: '23503', table: 'participants' });
    expect(error.message).toMatch(/violates foreign key constraint .* \(in insert into participants\)$/);
    expect(error).not.toHaveProperty('detail');
    expect(shown(error)).not.toContain(platformId);
    expect(shown(error)).not.toContain(SECRET);

    const cast = await failure(() => runStatement(em, statement(null, 'select :v::uuid as id', { v: SECRET })));
    expect(cast.message).toBe('invalid input syntax for type uuid: "…" (in select)');
    expect(shown(cast)).not.toContain(SECRET);
  });

  it('name the kind of statement and its table only', () => {
    expect(statementKind(`insert into "webhooks" ("id", "secret_sealed") values ('x', 'y')`)).toBe('insert into "webhooks"');
    expect(statementKind(`update "public"."participants" set "email" = 'a@b.c'`)).toBe('update "public"."participants"');
    expect(statementKind('DELETE  FROM sessions where token = 1')).toBe('delete from sessions');
    expect(statementKind(`select * from x where email = 'a@b.c'`)).toBe('select');
  });
});

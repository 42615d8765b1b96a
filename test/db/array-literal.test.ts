/** The array literals every repository binds (db/repositories/shared/array-literal.ts), read back by PostgreSQL. */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { arrayLiteral, intArray } from '../../db/repositories/shared/array-literal.ts';
import { openOrm, type Orm } from '../../db/orm.ts';

let orm: Orm;

beforeAll(async () => {
  orm = await openOrm({ databaseUrl: inject('databaseUrl'), poolMax: 1 });
});
afterAll(() => orm?.close());

const readBack = async (literal: string, type: string) => (await orm.em.fork().execute<{ v: unknown }[]>(`select ?::${type} as v`, [literal]))[0]!.v;

describe('array literals', () => {
  it('give text back as sent: quotes, backslashes, commas, braces, spaces and NULL as a word', async () => {
    const values = ['plain', 'a "quoted" word', 'back\\slash', 'a,b', '{brace}', ' spaced ', 'NULL', ''];
    expect(await readBack(arrayLiteral(values), 'text[]')).toEqual(values);
  });

  it('give decimals back exactly and whole ids with a fraction cut off', async () => {
    // As text: the driver would read numeric[] as JavaScript numbers and lose the trailing zero.
    expect(await readBack(arrayLiteral(['12.50', '0.01', 3]), 'numeric[]::text')).toBe('{12.50,0.01,3}');
    expect(await readBack(intArray([3, 7.9, -2]), 'int[]')).toEqual([3, 7, -2]);
    expect(await readBack(intArray([]), 'int[]')).toEqual([]);
  });
});

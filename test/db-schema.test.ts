import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Orm } from '../db/orm.ts';
import { openTestOrm } from './helpers/stack.ts';

let orm: Orm;
beforeAll(async () => {
  orm = await openTestOrm();
});
afterAll(() => orm?.close());

describe('committed migrations', () => {
  it('produce exactly the schema the entities describe (no drift, nothing synced at run time)', async () => {
    const diff = await orm.getSchemaGenerator().getUpdateSchemaSQL({ wrap: false, safe: false });
    expect(diff.trim()).toBe('');
  });
});

/**
 * Issue 16, item 2: a database error in a request is logged without the statement's values. A
 * test trigger refuses one webhook insert and, as PostgreSQL does for unique and check violations,
 * repeats the row (sealed secret, URL) in its DETAIL; the api's log must show the failure and none
 * of the values.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../../api/app.ts';
import type { Orm } from '../../../db/orm.ts';
import { configure, createConfigurationKey } from '../../helpers/configuration.ts';
import { createPlatform } from '../../helpers/fixtures.ts';
import { ADMIN_TOKEN, connectTemporal, openTestOrm, uniqueTaskQueue } from '../../helpers/stack.ts';

const probe = randomBytes(6).toString('hex');
const SECRET = `whsec-distinctive-${probe}`;
const EMAIL = `leak.${probe}@example.com`;
const URL_TOKEN = `path-${probe}`;
const lines: string[] = [];
let orm: Orm;
let app: App;
let close: () => Promise<void>;

beforeAll(async () => {
  orm = await openTestOrm();
  const temporal = await connectTemporal();
  app = await buildApp({
    orm,
    temporal,
    taskQueue: uniqueTaskQueue('error-logs'),
    adminToken: ADMIN_TOKEN,
    rateLimits: { enabled: false },
    logLevel: 'info',
    logStream: { write: (line) => void lines.push(line) },
  });
  close = async () => {
    await app.close();
    await temporal.connection.close();
  };
  // Refuses only this test's webhook, so parallel test files are not affected.
  await orm.em.fork().getConnection().execute(`
    create or replace function refuse_probe_${probe}() returns trigger language plpgsql as $$
    begin
      if new.name like 'leak-probe-${probe}%' then
        raise exception 'refused by the test trigger' using detail = 'Failing row contains ' || row_to_json(new)::text;
      end if;
      return new;
    end $$;
    create trigger refuse_probe_${probe} before insert on webhooks for each row execute function refuse_probe_${probe}();`);
});
afterAll(async () => {
  await orm?.em.fork().getConnection().execute(`drop trigger if exists refuse_probe_${probe} on webhooks; drop function if exists refuse_probe_${probe}();`);
  await close?.();
  await orm?.close();
});

describe('a database error in a request', () => {
  it('answers 500 and is logged without the values of the statement', async () => {
    const platform = await createPlatform(app, 'Log probe academy');
    const key = await createConfigurationKey(app, platform.id);
    lines.length = 0;
    const res = await configure(app, 'POST', '/webhooks', key.token, {
      name: `leak-probe-${probe} for ${EMAIL}`,
      url: `https://hooks.example.com/${URL_TOKEN}`,
      events: ['access_granted'],
      secret_key: SECRET,
    });
    expect(res.statusCode, res.body).toBe(500);
    expect(res.body).toBe('{"error":"internal server error"}');

    const log = lines.join('');
    const logged = lines.map((line) => JSON.parse(line) as { msg: string; err?: { message: string; code?: string } });
    const failure = logged.find((entry) => entry.err);
    expect(failure?.err?.message).toMatch(/^refused by the test trigger \(in insert into "webhooks"\)$/);
    expect(failure?.err?.code).toBe('P0001');
    for (const value of [SECRET, EMAIL, URL_TOKEN, probe]) expect(log).not.toContain(value);
    expect(log).not.toMatch(/v1\.[\w-]{16}\.[\w-]{22}\./); // a sealed secret
    expect(log).not.toContain('Failing row');
  });
});

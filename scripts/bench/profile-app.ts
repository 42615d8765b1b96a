/**
 * What the profile scripts share (profile-courses.ts, profile-checkout.ts): the api in this
 * process on a fresh database (Temporal unused), so a `--cpu-prof` profile of the process shows
 * it, and a count of the statements the process sends.
 */
import { randomBytes } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import pg from 'pg';
import { buildApp } from '../../api/app.ts';
import { migrate, openOrm } from '../../db/orm.ts';
import { createFreshDatabase } from '../stack/postgres.ts';
import { POOL_MAX } from './stack.ts';

export interface ProfiledApi {
  apiUrl: string;
  adminToken: string;
  databaseUrl: string;
}

/** Runs `body` against an api in this process on a fresh database (made from DATABASE_URL), then drops it all. */
export async function withProfiledApi(name: string, body: (api: ProfiledApi) => Promise<void>): Promise<void> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error('DATABASE_URL is needed');
  const database = await createFreshDatabase(serverUrl, name);
  const orm = await openOrm({ databaseUrl: database.url, poolMax: POOL_MAX });
  try {
    await migrate(orm);
    const temporal = new Client({ connection: Connection.lazy({ address: '127.0.0.1:1' }) });
    const adminToken = randomBytes(24).toString('base64url');
    const app = await buildApp({ orm, temporal, taskQueue: 'profile', adminToken, rateLimits: { enabled: false } });
    const apiUrl = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      await body({ apiUrl, adminToken, databaseUrl: database.url });
    } finally {
      await app.close();
      await temporal.connection.close().catch(() => undefined);
    }
  } finally {
    await orm.close();
    await database.drop();
  }
}

export interface StatementCounter {
  count: number;
  /** While true, each statement's text (its first 200 characters) is kept in `texts`. */
  keep: boolean;
  texts: string[];
  restore(): void;
}

/** Every statement of the process goes through pg.Client#query: counted (and kept while `keep`) until restore(). */
export function countStatements(): StatementCounter {
  const query = pg.Client.prototype.query;
  const counter: StatementCounter = { count: 0, keep: false, texts: [], restore: () => void (pg.Client.prototype.query = query) };
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    counter.count++;
    if (counter.keep) {
      const first = args[0] as string | { text?: string };
      counter.texts.push((typeof first === 'string' ? first : (first.text ?? '?')).replace(/\s+/g, ' ').slice(0, 200));
    }
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  return counter;
}

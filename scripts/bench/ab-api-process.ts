/**
 * One api of an A/B comparison (ab-orders.ts): the app of the checkout at argv[2] (its own
 * api/app.ts and db/orm.ts), on DATABASE_URL, rate limits off and log level warn as the bench's
 * api, Temporal unused (a lazy connection). Prints `listening <url>` once it listens.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import type * as AppModule from '../../api/app.ts';
import type * as OrmModule from '../../db/orm.ts';

const root = path.resolve(process.argv[2] ?? '.');
const { buildApp } = (await import(pathToFileURL(path.join(root, 'api/app.ts')).href)) as typeof AppModule;
const { openOrm } = (await import(pathToFileURL(path.join(root, 'db/orm.ts')).href)) as typeof OrmModule;
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error('DATABASE_URL is needed');
const orm = await openOrm({ databaseUrl, poolMax: Number(process.env.DATABASE_POOL_MAX ?? 10) });
const temporal = new Client({ connection: Connection.lazy({ address: '127.0.0.1:1' }) });
const app = await buildApp({ orm, temporal, taskQueue: 'ab', adminToken: process.env.ADMIN_TOKEN ?? randomBytes(24).toString('base64url'), logLevel: 'warn', rateLimits: { enabled: false } });
console.log(`listening ${await app.listen({ port: 0, host: '127.0.0.1' })}`);
process.on('SIGTERM', () => void app.close().then(() => orm.close()).then(() => process.exit(0)));

/**
 * Issue 16, item 3: while the database is unreachable the api answers 503 with Retry-After (the
 * request may be repeated as is), not 500. The app's ORM reaches the real PostgreSQL through a TCP
 * relay, which is shut (connections cut, port closed) once the app is up; the errors classified
 * below are real driver errors.
 */
import type { Client } from '@temporalio/client';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildApp, type App } from '../../../api/app.ts';
import { isDatabaseUnavailable } from '../../../api/shared/unavailable.ts';
import { openOrm, type Orm } from '../../../db/orm.ts';
import { ADMIN_TOKEN, connectTemporal, openTestOrm, uniqueTaskQueue } from '../../helpers/stack.ts';

let deadOrm: Orm;
let liveOrm: Orm;
let temporal: Client;
let app: App;

/** A relay to the test database's server; shut() cuts every connection and stops listening. */
async function relayTo(target: URL) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => sockets.delete(socket));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: Object.assign(new URL(target.href), { host: `127.0.0.1:${port}` }).href,
    shut: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

beforeAll(async () => {
  const relay = await relayTo(new URL(inject('databaseUrl')));
  deadOrm = await openOrm({ databaseUrl: relay.url, poolMax: 2 });
  liveOrm = await openTestOrm();
  temporal = await connectTemporal();
  app = await buildApp({ orm: deadOrm, temporal, taskQueue: uniqueTaskQueue('unavailable'), adminToken: ADMIN_TOKEN, rateLimits: { enabled: false } });
  await relay.shut();
});
afterAll(async () => {
  await app?.close();
  await temporal?.connection.close();
  await deadOrm?.close();
  await liveOrm?.close();
});

async function errorOf(work: () => Promise<unknown>): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

describe('requests while the database is unreachable', () => {
  it('answer 503 with Retry-After on every interface, not 500', async () => {
    const requests = [
      { method: 'GET' as const, url: '/api/courses', headers: { 'x-api-key': 'any-key-0123456789' } },
      { method: 'GET' as const, url: '/api/v1/configuration/platform', headers: { 'x-api-key': 'any-key-0123456789' } },
      { method: 'POST' as const, url: '/admin/v1/platforms', headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, payload: { subdomain: 'unreachable-db', title: 'Unreachable' } },
    ];
    for (const request of requests) {
      const res = await app.inject(request);
      expect(res.statusCode, `${request.url}: ${res.body}`).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json()).toEqual({ error: 'the database is unavailable; try again shortly' });
    }
    const health = await app.inject({ method: 'GET', url: '/health' });
    expect(health.statusCode).toBe(503);
    expect(health.json()).toMatchObject({ postgres: false });
  });
});

describe('isDatabaseUnavailable', () => {
  it('is true for a refused connection and a connection the server terminates', async () => {
    expect(isDatabaseUnavailable(await errorOf(() => deadOrm.em.fork().getConnection().execute('select 1')))).toBe(true);
    const victim = await openTestOrm();
    try {
      const terminated = await errorOf(() => victim.em.fork().getConnection().execute('select pg_terminate_backend(pg_backend_pid())'));
      expect(terminated).toMatchObject({ code: '57P01' }); // terminating connection due to administrator command
      expect(isDatabaseUnavailable(terminated)).toBe(true);
    } finally {
      await victim.close();
    }
  });

  it('is false for a failing statement and for other errors', async () => {
    expect(isDatabaseUnavailable(await errorOf(() => liveOrm.em.fork().getConnection().execute('select * from no_such_table')))).toBe(false);
    expect(isDatabaseUnavailable(await errorOf(() => liveOrm.em.fork().getConnection().execute('select 1/0')))).toBe(false);
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
    expect(isDatabaseUnavailable('ECONNREFUSED')).toBe(false);
  });
});

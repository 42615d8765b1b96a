import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { Client } from '@temporalio/client';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { buildApp, type App } from '../../../api/app.ts';
import { errorsPlugin } from '../../../api/shared/errors-plugin.ts';
import { idempotency } from '../../../api/shared/idempotency/index.ts';
import { ormPlugin } from '../../../api/shared/orm-context.ts';
import { openOrm, type Orm } from '../../../db/orm.ts';
import { pooledTransaction } from '../../../db/repositories/shared/pooled-transaction.ts';
import { clearOrderWorkflowId } from '../../../domain/shop/workflow-ids.ts';
import { insertProduct } from '../../helpers/shop-catalogue.ts';
import { adminPost, createTestShop, type TestShop } from '../../helpers/shop.ts';
import { ADMIN_TOKEN, connectTemporal, eventually, openTestOrm, uniqueTaskQueue } from '../../helpers/stack.ts';
import { tcpSwitch, type TcpSwitch } from '../../helpers/tcp-switch.ts';

// Issue 41 item 1: a keyed request's reply is kept in the transaction of the change it answers.
// The app reaches PostgreSQL through a switch the test cuts as a COMMIT goes out; `orm` (the
// test's own) sees what PostgreSQL really holds.
let orm: Orm;
let viaLink: Orm;
let link: TcpSwitch;
let temporal: Client;
let app: App;
let shop: TestShop;
let productId: number;
const started: string[] = [];

beforeAll(async () => {
  orm = await openTestOrm();
  link = await tcpSwitch(new URL(inject('databaseUrl')).host);
  const url = new URL(inject('databaseUrl'));
  url.host = link.address;
  viaLink = await openOrm({ databaseUrl: url.toString(), poolMax: 5 });
  temporal = await connectTemporal();
  // No periodic outbox sweep: a start leaves the outbox only by the dispatch after a commit.
  app = await buildApp({ orm: viaLink, temporal, taskQueue: uniqueTaskQueue('idem-tx'), adminToken: ADMIN_TOKEN, rateLimits: { enabled: false }, workflowOutbox: { intervalMs: 0 } });
  shop = await createTestShop(app, 'idem-tx');
  productId = await insertProduct(orm, shop.id, { name: 'Book', price: '40.00' });
});
afterAll(async () => {
  link?.restore();
  // No worker serves the app's task queue: the started workflows are ended by the test.
  await Promise.all(started.map((id) => temporal.workflow.getHandle(id).terminate('test done').catch(() => undefined)));
  await app?.close();
  await temporal?.connection.close();
  await viaLink?.close();
  await link?.close();
  await orm?.close();
});

const sql = <T>(text: string, params: unknown[] = []) => orm.em.fork().getConnection().execute<T[]>(text, params);
const placeOrder = async () => (await adminPost(app, `/admin/v1/shops/${shop.id}/orders`, { email: 'buyer@example.com', items: [{ product_id: productId, quantity: 1 }] })).id as number;
const clear = (id: number, key: string) => app.inject({ method: 'PATCH', url: `/api/v1/orders/${id}/clear`, headers: { ...shop.headers(), 'idempotency-key': key } });
const paid = async (id: number) => (await sql<{ paid: boolean }>('select paid from shop_orders where id = ?', [id]))[0]?.paid;
const keptKeys = (key: string) => sql<{ status: number }>('select status from idempotency_keys where key = ?', [key]);
/** Every connection of the ORM's pool is back (no keyed request left its transaction open). */
const allReturned = (of: Orm) =>
  eventually(async () => expect((of.em.getKnex().client as { pool: { numUsed(): number } }).pool.numUsed()).toBe(0), { timeoutMs: 5000 });
const pendingStarts = (workflowId: string) => sql<{ id: string }>('select id from pending_workflow_starts where workflow_id = ?', [workflowId]);

/** A keyed clearing whose connection is cut as its COMMIT goes out (`deliver`: PostgreSQL still gets it): answered 503. */
async function clearCutAtCommit(opts: { deliver: boolean }) {
  const id = await placeOrder();
  const key = randomUUID();
  const workflowId = clearOrderWorkflowId({ shopId: shop.id, orderId: id });
  started.push(workflowId);
  const cutting = link.cutOnSending('COMMIT;', opts);
  const lost = await clear(id, key);
  await cutting;
  link.restore();
  expect(lost.statusCode, lost.body).toBe(503);
  return { id, key, workflowId };
}

describe('a keyed clearing whose COMMIT answer is lost', () => {
  it('answers 503 when the connection is cut as the COMMIT reaches PostgreSQL; the retry with the key replays the 200 (not 422 Already Cleared)', async () => {
    const { id, key, workflowId } = await clearCutAtCommit({ deliver: true });
    // It did commit: the order is paid, the reply kept with it, the clearing's start recorded.
    expect(await paid(id)).toBe(true);
    expect(await keptKeys(key)).toEqual([{ status: 200 }]);
    expect(await pendingStarts(workflowId)).toHaveLength(1);

    const retry = await clear(id, key);
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json().data).toMatchObject({ id, paid: true });
    await allReturned(viaLink);
  });

  it('answers 503 and keeps nothing when the COMMIT never reached PostgreSQL; the retry clears the order (a fresh 200)', async () => {
    const { id, key, workflowId } = await clearCutAtCommit({ deliver: false });
    expect(await paid(id)).toBe(false);
    expect(await keptKeys(key)).toEqual([]);
    expect(await pendingStarts(workflowId)).toEqual([]);

    const retry = await clear(id, key);
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(retry.json().data).toMatchObject({ id, paid: true });
    expect(await keptKeys(key)).toEqual([{ status: 200 }]);
    await allReturned(viaLink);
  });

  it("sends a keyed request's recorded workflow start right after its commit (held while the request's transaction is open)", async () => {
    const id = await placeOrder();
    const workflowId = clearOrderWorkflowId({ shopId: shop.id, orderId: id });
    started.push(workflowId);
    const res = await clear(id, randomUUID());
    expect(res.statusCode, res.body).toBe(200);
    expect(await pendingStarts(workflowId)).toEqual([]);
    expect((await temporal.workflow.getHandle(workflowId).describe()).type).toBe('clearOrder');
  });
});

/**
 * The routes' write: a row no interface reads (an idempotency key row of tenant kind `test-row`,
 * without a reply), so the test needs no table of its own in the shared test database.
 */
const writeRow = (em: { execute: Orm['em']['execute'] }, id: string) =>
  em.execute(
    `insert into idempotency_keys (tenant_kind, tenant_id, key, fingerprint, claimed_at, expires_at) values ('test-row', 'rows', ?, ?, now(), now() + interval '1 hour')`,
    [id, 'f'.repeat(64)],
  );

describe('the keyed request transaction', () => {
  // A minimal interface on the real database (not through the switch): routes that write a row, then answer as told.
  let plain: FastifyInstance;
  let runs = 0;
  let slowPids: number[] = [];
  let gate: { opened: Promise<void>; open: () => void };
  const newGate = () => {
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    return { opened, open };
  };

  beforeAll(async () => {
    gate = newGate();
    plain = Fastify();
    await plain.register(errorsPlugin);
    await plain.register(ormPlugin, { orm });
    await plain.register(async (scope) => {
      await scope.register(idempotency, { tenantKind: 'test', tenantOf: () => 'tenant-tx' });
      // Answers its run's status of `answers` (the same body each time: a true retry).
      scope.post<{ Body: { id: string; answers: number[] } }>('/write', async (request, reply) => {
        runs += 1;
        await writeRow(request.em, `${request.body.id}/${runs}`);
        return reply.code(request.body.answers[runs - 1] ?? 201).send({ id: request.body.id, run: runs });
      });
      // A write on a pooled connection of its own, when unkeyed; in a keyed request it joins the request's transaction.
      scope.post<{ Body: { id: string; answer: number } }>('/pooled', async (request, reply) => {
        await pooledTransaction(request.em, (tx) => writeRow(tx, `${request.body.id}/pooled`));
        return reply.code(request.body.answer).send({ id: request.body.id });
      });
      scope.post<{ Body: { id: string } }>('/slow', async (request, reply) => {
        const [{ pid }] = (await request.em.execute<{ pid: number }[]>('select pg_backend_pid() as pid')) as [{ pid: number }];
        slowPids.push(pid);
        if (slowPids.length === 1) await gate.opened;
        await writeRow(request.em, `${request.body.id}/${slowPids.length}`);
        return reply.code(201).send({ id: request.body.id, pid });
      });
    });
    await plain.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    gate?.open();
    await plain?.close();
  });

  const post = (url: string, key: string, body: object) => plain.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', 'idempotency-key': key }, payload: body });
  const rows = (id: string) => sql<{ id: string }>(`select key as id from idempotency_keys where tenant_kind = 'test-row' and key like ? order by key`, [`${id}/%`]);
  const waitFor = async (check: () => boolean) => {
    for (let i = 0; !check() && i < 400; i += 1) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(check()).toBe(true);
  };

  it('rolls back the writes of a 5xx and keeps no key: the retry runs and succeeds, and is replayed after', async () => {
    const id = randomUUID();
    const key = randomUUID();
    runs = 0;
    const body = { id, answers: [503, 201] };
    expect((await post('/write', key, body)).statusCode).toBe(503);
    expect(await rows(id)).toEqual([]);
    const retry = await post('/write', key, body);
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(await rows(id)).toEqual([{ id: `${id}/2` }]);
    const again = await post('/write', key, body);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual({ id, run: 2 });
    expect(runs).toBe(2);
  });

  it("rolls back a pooledTransaction's write with the request's 5xx (it joined the request's transaction)", async () => {
    const id = randomUUID();
    expect((await post('/pooled', randomUUID(), { id, answer: 503 })).statusCode).toBe(503);
    expect(await rows(id)).toEqual([]);
    expect((await post('/pooled', randomUUID(), { id, answer: 201 })).statusCode).toBe(201);
    expect(await rows(id)).toEqual([{ id: `${id}/pooled` }]);
  });

  it('rolls back the writes of a 4xx and keeps its reply: the repeat is refused again without running', async () => {
    const id = randomUUID();
    const key = randomUUID();
    runs = 0;
    const body = { id, answers: [422, 201] };
    const refused = await post('/write', key, body);
    expect(refused.statusCode).toBe(422);
    expect(await rows(id)).toEqual([]);
    const again = await post('/write', key, body);
    expect(again.statusCode).toBe(422);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(runs).toBe(1);
  });

  /** A keyed request held open in its handler (`gate`), and a second with its key answered 409 at once. */
  async function slowHolderWithRefusedSecond() {
    const id = randomUUID();
    const key = randomUUID();
    slowPids = [];
    gate = newGate();
    const first = post('/slow', key, { id });
    await waitFor(() => slowPids.length === 1);
    const during = await post('/slow', key, { id });
    expect(during.statusCode).toBe(409);
    expect(during.headers['retry-after']).toBe('1');
    return { id, key, first };
  }

  it('answers 409 at once to a second request with the key while the first runs; a retry after it ends replays it', async () => {
    const { id, key, first } = await slowHolderWithRefusedSecond();
    gate.open();
    const done = await first;
    expect(done.statusCode, done.body).toBe(201);
    const after = await post('/slow', key, { id });
    expect(after.statusCode).toBe(201);
    expect(after.headers['idempotent-replayed']).toBe('true');
    expect(after.json()).toEqual(done.json());
    expect(slowPids).toHaveLength(1);
    expect(await rows(id)).toEqual([{ id: `${id}/1` }]);
  });

  it('does not let a holder whose connection died block the key: the retry runs at once, the dead one keeps nothing', async () => {
    const { id, key, first } = await slowHolderWithRefusedSecond();
    // Its backend goes away as a crashed process's would (waited for: the lock goes with the process): PostgreSQL releases the key with it.
    await sql('select pg_terminate_backend(?, 5000)', [slowPids[0]]);
    const retry = await post('/slow', key, { id });
    expect(retry.statusCode, retry.body).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(slowPids).toHaveLength(2);
    gate.open();
    const dead = await first;
    expect(dead.statusCode).toBeGreaterThanOrEqual(500);
    expect(await rows(id)).toEqual([{ id: `${id}/2` }]);
    const replayed = await post('/slow', key, { id });
    expect(replayed.statusCode).toBe(201);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.json()).toEqual(retry.json());
    await allReturned(orm);
  });
  it('commits and keeps the reply of a request whose client went away mid-request: the retry replays it', async () => {
    const id = randomUUID();
    const key = randomUUID();
    slowPids = [];
    gate = newGate();
    const { port } = plain.server.address() as { port: number };
    const body = JSON.stringify({ id });
    const req = httpRequest({ host: '127.0.0.1', port, path: '/slow', method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'idempotency-key': key } });
    const gone = new Promise<void>((resolve) => req.on('close', () => resolve()));
    req.on('error', () => undefined);
    req.end(body);
    await waitFor(() => slowPids.length === 1);
    // The client hangs up while its request runs; the request still finishes and commits.
    req.destroy();
    await gone;
    gate.open();
    await eventually(async () => expect(await keptKeys(key)).toEqual([{ status: 201 }]), { timeoutMs: 5000 });
    expect(await rows(id)).toEqual([{ id: `${id}/1` }]);
    const retry = await post('/slow', key, { id });
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(slowPids).toHaveLength(1);
    await allReturned(orm);
  });
});

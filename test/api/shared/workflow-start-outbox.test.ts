import { randomUUID } from 'node:crypto';
import { Client, Connection, WorkflowNotFoundError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { buildApp, type App } from '../../../api/app.ts';
import type { Orm } from '../../../db/orm.ts';
import { clearOrderWorkflowId, timeLimitedDiscountWorkflowId } from '../../../domain/shop/workflow-ids.ts';
import { insertProduct } from '../../helpers/shop-catalogue.ts';
import { adminPost, createTestShop, type TestShop } from '../../helpers/shop.ts';
import { ADMIN_TOKEN, connectTemporal, eventually, openTestOrm, uniqueTaskQueue } from '../../helpers/stack.ts';
import { tcpSwitch, type TcpSwitch } from '../../helpers/tcp-switch.ts';

// Issue 41 item 2: a write whose effects run in a workflow answers with Temporal down; its
// workflow starts, once, when Temporal is back. The app reaches Temporal through a switch the test
// cuts; `direct` (the test's own client) sees what Temporal really holds.
let orm: Orm;
let app: App;
let link: TcpSwitch;
let viaLink: Client;
let direct: Client;
let shop: TestShop;
let productId: number;
const started: string[] = [];

beforeAll(async () => {
  link = await tcpSwitch(inject('temporalAddress'));
  viaLink = new Client({ connection: await Connection.connect({ address: link.address }), namespace: 'default' });
  direct = await connectTemporal();
  orm = await openTestOrm();
  app = await buildApp({
    orm,
    temporal: viaLink,
    taskQueue: uniqueTaskQueue('outbox'),
    adminToken: ADMIN_TOKEN,
    rateLimits: { enabled: false },
    workflowOutbox: { deadlineMs: 1000, retryAfterSeconds: 1, intervalMs: 200 },
  });
  shop = await createTestShop(app, 'outbox');
  productId = await insertProduct(orm, shop.id, { name: 'Book', price: '40.00' });
});
afterAll(async () => {
  link.restore();
  // No worker serves the app's task queue: the started workflows are ended by the test.
  await Promise.all(started.map((id) => direct.workflow.getHandle(id).terminate('test done').catch(() => undefined)));
  await app.close();
  await viaLink.connection.close();
  await direct.connection.close();
  await link.close();
  await orm.close();
});

const pendingStarts = (workflowId: string) => orm.em.fork().getConnection().execute<{ attempts: number }[]>('select attempts from pending_workflow_starts where workflow_id = ?', [workflowId]);
const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString();

describe('Temporal unreachable when a write commits', () => {
  it('a keyed POST of a time-limited discount answers 201 (its keyed retry replays it, no second discount); the price workflow starts once Temporal is back', async () => {
    const body = { discount_type: 'percentage_product_discount', value: '10', relation_with_products: 'all_products', start_date: inDays(1), end_date: inDays(2) };
    const headers = { ...shop.headers(), 'idempotency-key': randomUUID() };
    link.cut();
    const first = await app.inject({ method: 'POST', url: '/api/v1/time_limited_discounts', headers, payload: body });
    expect(first.statusCode, first.body).toBe(201);
    const retry = await app.inject({ method: 'POST', url: '/api/v1/time_limited_discounts', headers, payload: body });
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json().data.id).toBe(first.json().data.id);
    const workflowId = timeLimitedDiscountWorkflowId({ shopId: shop.id, discountId: first.json().data.id });
    started.push(workflowId);
    expect((await pendingStarts(workflowId)).length).toBe(1);
    await expect(direct.workflow.getHandle(workflowId).describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);

    link.restore();
    await eventually(async () => expect((await direct.workflow.getHandle(workflowId).describe()).status.name).toBe('RUNNING'), { timeoutMs: 30_000 });
    await eventually(async () => expect(await pendingStarts(workflowId)).toEqual([]), { timeoutMs: 10_000 });
  });

  it('PATCH /orders/:id/clear answers 200 with the order paid; its one clearing workflow starts once Temporal is back', async () => {
    const orderId = (await adminPost(app, `/admin/v1/shops/${shop.id}/orders`, { email: 'buyer@example.com', items: [{ product_id: productId, quantity: 1 }] })).id as number;
    const workflowId = clearOrderWorkflowId({ shopId: shop.id, orderId });
    started.push(workflowId);
    link.cut();
    const res = await app.inject({ method: 'PATCH', url: `/api/v1/orders/${orderId}/clear`, headers: shop.headers() });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ id: orderId, paid: true });
    expect((await pendingStarts(workflowId)).length).toBe(1);

    link.restore();
    await eventually(async () => expect(await pendingStarts(workflowId)).toEqual([]), { timeoutMs: 30_000 });
    expect((await direct.workflow.getHandle(workflowId).describe()).type).toBe('clearOrder');
  });
});

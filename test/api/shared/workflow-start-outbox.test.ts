import { randomUUID } from 'node:crypto';
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../../api/app.ts';
import type { Orm } from '../../../db/orm.ts';
import { clearOrderWorkflowId, timeLimitedDiscountWorkflowId } from '../../../domain/shop/workflow-ids.ts';
import { insertProduct } from '../../helpers/shop-catalogue.ts';
import { adminPost, createTestShop, type TestShop } from '../../helpers/shop.ts';
import { eventually } from '../../helpers/stack.ts';
import type { TcpSwitch } from '../../helpers/tcp-switch.ts';
import { appBehindTemporalSwitch } from '../../helpers/temporal-behind-switch.ts';

// Issue 41 item 2: a write whose effects run in a workflow answers with Temporal down; its
// workflow starts, once, when Temporal is back (test/helpers/temporal-behind-switch.ts).
let orm: Orm;
let app: App;
let link: TcpSwitch;
let direct: Client;
let shop: TestShop;
let productId: number;
let started: Set<string>;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ link, direct, orm, app, started, close } = await appBehindTemporalSwitch('outbox'));
  shop = await createTestShop(app, 'outbox');
  productId = await insertProduct(orm, shop.id, { name: 'Book', price: '40.00' });
});
afterAll(() => close());

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
    started.add(workflowId);
    expect((await pendingStarts(workflowId)).length).toBe(1);
    await expect(direct.workflow.getHandle(workflowId).describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);

    link.restore();
    await eventually(async () => expect((await direct.workflow.getHandle(workflowId).describe()).status.name).toBe('RUNNING'), { timeoutMs: 30_000 });
    await eventually(async () => expect(await pendingStarts(workflowId)).toEqual([]), { timeoutMs: 10_000 });
  });

  it('PATCH /orders/:id/clear answers 200 with the order paid; its one clearing workflow starts once Temporal is back', async () => {
    const orderId = (await adminPost(app, `/admin/v1/shops/${shop.id}/orders`, { email: 'buyer@example.com', items: [{ product_id: productId, quantity: 1 }] })).id as number;
    const workflowId = clearOrderWorkflowId({ shopId: shop.id, orderId });
    started.add(workflowId);
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

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clubWebhookRedeliveryWorkflowId, shopWebhookRedeliveryWorkflowId } from '../../../domain/shop/workflow-ids.ts';
import { insertProduct } from '../../helpers/shop-catalogue.ts';
import { adminPost, createTestShop, operator, type TestShop } from '../../helpers/shop.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';

/**
 * Issue 28: the shop's and the club's webhook deliveries for the operator (history, redelivery)
 * and the club's redelivery for the shop. No worker runs here: a redelivery's workflow stays
 * queued, so the delivery stays `pending` (its attempt is test/e2e/shop/redelivery.test.ts).
 */
let stack: TestStack;
let shop: TestShop;
let other: TestShop;
const hooks = { mine: '', theirs: '' };
const orders = { mine: 0, theirs: 0 };
const startedWorkflows: string[] = [];

beforeAll(async () => {
  stack = await startTestApp('shop-redelivery-api');
  [shop, other] = await Promise.all([createTestShop(stack.app, 'redeliver-one'), createTestShop(stack.app, 'redeliver-two')]);
  const webhook = (s: TestShop) => adminPost(stack.app, `/admin/v1/shops/${s.id}/webhooks`, { url: 'https://hooks.example.com/x', events: ['order_cleared'], secret_key: 'secret-0123456789abcdef' });
  hooks.mine = (await webhook(shop)).id;
  hooks.theirs = (await webhook(other)).id;
  for (const [name, s] of [['mine', shop], ['theirs', other]] as const) {
    const productId = await insertProduct(stack.orm, s.id, { name: 'Atlas' });
    orders[name] = (await adminPost(stack.app, `/admin/v1/shops/${s.id}/orders`, { email: 'ann@example.com', items: [{ product_id: productId, quantity: 1 }] })).id;
    const club = await stack.app.inject({ method: 'PATCH', url: '/api/v1/configuration/club', headers: s.headers('write_config'), payload: { webhook_url: 'https://club.example.com/hook' } });
    expect(club.statusCode, club.body).toBe(200);
  }
});
afterAll(async () => {
  await Promise.all(startedWorkflows.map((id) => stack.temporal.workflow.getHandle(id).terminate('no worker in this test').catch(() => undefined)));
  await stack.close();
});

const sql = <T = any>(text: string, params: unknown[] = []) => stack.orm.em.fork().getConnection().execute<T[]>(text, params);

/** A shop webhook delivery in `status`, with one failed attempt when it is over. */
async function shopDelivery(s: TestShop, webhookId: string, status: string): Promise<string> {
  const [row] = await sql<{ id: string }>(
    `insert into shop_webhook_deliveries (id, shop_id, webhook_id, event_id, event_key, event_type, payload, occurred_at, status, attempt_count, created_at, updated_at)
     values (gen_random_uuid(), ?, ?, gen_random_uuid(), ?, 'order_cleared', '{"order": {"id": 1}}'::jsonb, now(), ?, 1, clock_timestamp(), clock_timestamp()) returning id`,
    [s.id, webhookId, `order/1/${randomUUID()}`, status],
  );
  if (status !== 'pending') {
    await sql(`insert into shop_webhook_delivery_attempts (id, shop_id, delivery_id, attempted_at, status_code, duration_ms, error, manual) values (gen_random_uuid(), ?, ?, now(), 500, 7, 'HTTP 500', false)`, [s.id, row!.id]);
  }
  return row!.id;
}

let statusSeq = 1000;
/** A club delivery of the shop's order in `status` at a status of its own, created at `at`. */
async function clubDelivery(s: TestShop, orderId: number, status: string, at = new Date()): Promise<{ id: string; statusId: number }> {
  statusSeq += 1;
  const [row] = await sql<{ id: string }>(
    `insert into shop_club_webhook_deliveries (id, shop_id, webhook_id, order_id, order_status_id, source, event_id, event_type, payload, occurred_at, status, attempt_count, created_at, updated_at)
     select gen_random_uuid(), c.shop_id, c.id, ?, ?, 'clear', gen_random_uuid(), 'club_order_status_reached', '{}'::jsonb, ?, ?, 1, ?, ? from shop_club_integrations c where c.shop_id = ? returning id`,
    [orderId, statusSeq, at, status, at, at, s.id],
  );
  await sql(`insert into shop_club_webhook_delivery_attempts (id, shop_id, delivery_id, attempted_at, status_code, duration_ms, error, manual) values (gen_random_uuid(), ?, ?, ?, null, 3, 'refused', false)`, [
    s.id,
    row!.id,
    at,
  ]);
  return { id: row!.id, statusId: statusSeq };
}

const adminRedeliver = (shopId: string, webhookId: string, deliveryId: string) =>
  stack.app.inject({ method: 'POST', url: `/admin/v1/shops/${shopId}/webhooks/${webhookId}/deliveries/${deliveryId}/redeliver`, headers: operator });
const adminClubRedeliver = (shopId: string, deliveryId: string) => stack.app.inject({ method: 'POST', url: `/admin/v1/shops/${shopId}/club/deliveries/${deliveryId}/redeliver`, headers: operator });
const shopClubRedeliver = (s: TestShop, deliveryId: string, scope: 'write_config' | 'read' = 'write_config') =>
  stack.app.inject({ method: 'POST', url: `/api/v1/configuration/club/deliveries/${deliveryId}/redeliver`, headers: { 'x-api-key': s.keys[scope] } });
const deliveryRow = async (table: string, id: string) => (await sql<{ status: string; redeliveries: number }>(`select status, redeliveries from ${table} where id = ?`, [id]))[0]!;

describe('POST /admin/v1/shops/:shop_id/webhooks/:id/deliveries/:delivery_id/redeliver', () => {
  it('redelivers a finished delivery: 202 pending, one one-attempt workflow; then 409 while it is pending', async () => {
    const id = await shopDelivery(shop, hooks.mine, 'failed');
    const res = await adminRedeliver(shop.id, hooks.mine, id);
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().data).toMatchObject({ id, status: 'pending', event_type: 'order_cleared', order_id: 1, attempts: [expect.objectContaining({ status_code: 500, manual: false })] });
    const workflowId = shopWebhookRedeliveryWorkflowId({ shopId: shop.id, webhookId: hooks.mine, deliveryId: id, redelivery: 1 });
    startedWorkflows.push(workflowId);
    const described = await stack.temporal.workflow.getHandle(workflowId).describe();
    expect(described.type).toBe('redeliverShopWebhook');
    expect(await deliveryRow('shop_webhook_deliveries', id)).toEqual({ status: 'pending', redeliveries: 1 });
    const again = await adminRedeliver(shop.id, hooks.mine, id);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toContain('pending');
  });

  it('two concurrent requests: one 202, one 409, one workflow', async () => {
    const id = await shopDelivery(shop, hooks.mine, 'succeeded');
    const replies = await Promise.all([adminRedeliver(shop.id, hooks.mine, id), adminRedeliver(shop.id, hooks.mine, id)]);
    expect(replies.map((r) => r.statusCode).sort()).toEqual([202, 409]);
    expect(await deliveryRow('shop_webhook_deliveries', id)).toEqual({ status: 'pending', redeliveries: 1 });
    startedWorkflows.push(shopWebhookRedeliveryWorkflowId({ shopId: shop.id, webhookId: hooks.mine, deliveryId: id, redelivery: 1 }));
    const second = shopWebhookRedeliveryWorkflowId({ shopId: shop.id, webhookId: hooks.mine, deliveryId: id, redelivery: 2 });
    await expect(stack.temporal.workflow.getHandle(second).describe()).rejects.toThrow();
  });

  it('409 for a pending delivery, 404 across shops and for unknown ids, 422 for an id that is not a uuid', async () => {
    const pending = await shopDelivery(shop, hooks.mine, 'pending');
    expect((await adminRedeliver(shop.id, hooks.mine, pending)).statusCode).toBe(409);
    const theirs = await shopDelivery(other, hooks.theirs, 'failed');
    const mine = await shopDelivery(shop, hooks.mine, 'failed');
    // Another shop's webhook, another shop's delivery (through my webhook), my delivery through their shop id.
    expect((await adminRedeliver(shop.id, hooks.theirs, theirs)).statusCode).toBe(404);
    expect((await adminRedeliver(shop.id, hooks.mine, theirs)).statusCode).toBe(404);
    expect((await adminRedeliver(other.id, hooks.mine, mine)).statusCode).toBe(404);
    expect((await adminRedeliver(shop.id, hooks.mine, randomUUID())).statusCode).toBe(404);
    expect((await adminRedeliver(randomUUID(), hooks.mine, mine)).statusCode).toBe(404);
    const malformed = await adminRedeliver(shop.id, hooks.mine, 'not-a-uuid');
    expect(malformed.statusCode).toBe(422);
    expect(Object.keys(malformed.json().errors)).toContain('params.delivery_id');
    // Nothing was claimed by the refused requests.
    expect(await deliveryRow('shop_webhook_deliveries', theirs)).toEqual({ status: 'failed', redeliveries: 0 });
    expect(await deliveryRow('shop_webhook_deliveries', mine)).toEqual({ status: 'failed', redeliveries: 0 });
  });

  it('409 when the webhook is switched off or deleted', async () => {
    const hook = (await adminPost(stack.app, `/admin/v1/shops/${shop.id}/webhooks`, { url: 'https://hooks.example.com/y', events: ['order_cleared'], secret_key: 'secret-0123456789abcdef' })).id as string;
    const id = await shopDelivery(shop, hook, 'failed');
    await sql('update shop_webhooks set active = false where id = ?', [hook]);
    const off = await adminRedeliver(shop.id, hook, id);
    expect(off.statusCode).toBe(409);
    expect(off.json().error).toContain('not active');
    await sql('update shop_webhooks set active = true where id = ?', [hook]);
    expect((await stack.app.inject({ method: 'DELETE', url: `/admin/v1/shops/${shop.id}/webhooks/${hook}`, headers: operator })).statusCode).toBe(200);
    const deleted = await adminRedeliver(shop.id, hook, id);
    expect(deleted.statusCode).toBe(409);
    expect(deleted.json().error).toContain('deleted');
    expect(await deliveryRow('shop_webhook_deliveries', id)).toEqual({ status: 'failed', redeliveries: 0 });
  });
});

describe('GET /admin/v1/shops/:shop_id/club/deliveries', () => {
  it('25 a page, newest first, with attempts; only the shop\'s; 404 for an unknown shop, 422 for page 0', async () => {
    const fresh = await createTestShop(stack.app, 'redeliver-three');
    const productId = await insertProduct(stack.orm, fresh.id, { name: 'Codex' });
    const orderId = (await adminPost(stack.app, `/admin/v1/shops/${fresh.id}/orders`, { email: 'bo@example.com', items: [{ product_id: productId, quantity: 1 }] })).id as number;
    await stack.app.inject({ method: 'PATCH', url: '/api/v1/configuration/club', headers: fresh.headers('write_config'), payload: { webhook_url: 'https://club.example.com/hook' } });
    for (let i = 0; i < 26; i += 1) await clubDelivery(fresh, orderId, i === 25 ? 'succeeded' : 'failed', new Date(Date.UTC(2026, 0, 1, 0, i)));
    await clubDelivery(other, orders.theirs, 'failed');

    const list = (page?: number, shopId = fresh.id) => stack.app.inject({ method: 'GET', url: `/admin/v1/shops/${shopId}/club/deliveries${page === undefined ? '' : `?page=${page}`}`, headers: operator });
    const first = await list();
    expect(first.statusCode, first.body).toBe(200);
    const body = first.json();
    expect(body.meta).toEqual({ page: 1, per_page: 25, total: 26, total_pages: 2 });
    expect(body.data).toHaveLength(25);
    expect(body.data[0]).toMatchObject({ status: 'succeeded', order_id: orderId, event_type: 'club_order_status_reached', created_at: '2026-01-01T00:25:00.000Z' });
    expect(body.data[0].attempts).toEqual([{ attempted_at: '2026-01-01T00:25:00.000Z', status_code: null, duration_ms: 3, error: 'refused', manual: false }]);
    const created = body.data.map((d: { created_at: string }) => d.created_at);
    expect([...created].sort().reverse()).toEqual(created);
    expect((await list(2)).json().data.map((d: { created_at: string }) => d.created_at)).toEqual(['2026-01-01T00:00:00.000Z']);
    expect((await list(0)).statusCode).toBe(422);
    expect((await list(undefined, randomUUID())).statusCode).toBe(404);
    // The shop's own route reads the same history.
    const own = await stack.app.inject({ method: 'GET', url: '/api/v1/configuration/club/deliveries', headers: fresh.headers('read') });
    expect(own.json().data.map((d: { id: string }) => d.id)).toEqual(body.data.map((d: { id: string }) => d.id));
  });
});

describe('POST .../club/deliveries/:delivery_id/redeliver (operator and shop)', () => {
  it('the operator redelivers: 202 pending with a one-attempt workflow under the order\'s club id; then 409; 404 across shops', async () => {
    const delivery = await clubDelivery(shop, orders.mine, 'failed');
    const theirs = await clubDelivery(other, orders.theirs, 'failed');
    expect((await adminClubRedeliver(shop.id, theirs.id)).statusCode).toBe(404);
    expect((await adminClubRedeliver(other.id, delivery.id)).statusCode).toBe(404);
    expect((await adminClubRedeliver(shop.id, randomUUID())).statusCode).toBe(404);
    expect((await adminClubRedeliver(randomUUID(), delivery.id)).statusCode).toBe(404);
    expect((await adminClubRedeliver(shop.id, 'nope')).statusCode).toBe(422);

    const res = await adminClubRedeliver(shop.id, delivery.id);
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().data).toMatchObject({ id: delivery.id, status: 'pending', order_id: orders.mine });
    const workflowId = clubWebhookRedeliveryWorkflowId({ shopId: shop.id, orderId: orders.mine, statusId: delivery.statusId, redelivery: 1 });
    expect(workflowId.startsWith(`shop/${shop.id}/order/${orders.mine}/club-webhook/`)).toBe(true);
    startedWorkflows.push(workflowId);
    expect((await stack.temporal.workflow.getHandle(workflowId).describe()).type).toBe('deliverClubWebhook');
    expect((await adminClubRedeliver(shop.id, delivery.id)).statusCode).toBe(409);
    expect(await deliveryRow('shop_club_webhook_deliveries', theirs.id)).toEqual({ status: 'failed', redeliveries: 0 });
  });

  it('two concurrent requests (operator and shop): one 202, one 409', async () => {
    const delivery = await clubDelivery(shop, orders.mine, 'failed');
    const replies = await Promise.all([adminClubRedeliver(shop.id, delivery.id), shopClubRedeliver(shop, delivery.id)]);
    expect(replies.map((r) => r.statusCode).sort()).toEqual([202, 409]);
    expect(await deliveryRow('shop_club_webhook_deliveries', delivery.id)).toEqual({ status: 'pending', redeliveries: 1 });
    startedWorkflows.push(clubWebhookRedeliveryWorkflowId({ shopId: shop.id, orderId: orders.mine, statusId: delivery.statusId, redelivery: 1 }));
  });

  it('the shop redelivers its own with write_config: 403 with read, 404 for another shop\'s delivery', async () => {
    const delivery = await clubDelivery(shop, orders.mine, 'failed');
    const theirs = await clubDelivery(other, orders.theirs, 'failed');
    expect((await shopClubRedeliver(shop, delivery.id, 'read')).statusCode).toBe(403);
    expect((await shopClubRedeliver(shop, theirs.id)).statusCode).toBe(404);
    const res = await shopClubRedeliver(shop, delivery.id);
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().data).toMatchObject({ id: delivery.id, status: 'pending' });
    startedWorkflows.push(clubWebhookRedeliveryWorkflowId({ shopId: shop.id, orderId: orders.mine, statusId: delivery.statusId, redelivery: 1 }));
    expect(await deliveryRow('shop_club_webhook_deliveries', theirs.id)).toEqual({ status: 'failed', redeliveries: 0 });
  });

  it('409 when the club integration is switched off', async () => {
    const delivery = await clubDelivery(other, orders.theirs, 'failed');
    await stack.app.inject({ method: 'PATCH', url: '/api/v1/configuration/club', headers: other.headers('write_config'), payload: { active: false } });
    const res = await shopClubRedeliver(other, delivery.id);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toContain('club integration is not active');
    expect(await deliveryRow('shop_club_webhook_deliveries', delivery.id)).toEqual({ status: 'failed', redeliveries: 0 });
  });
});

/**
 * Shop webhooks end to end: the API, a worker with real activities and a receiver on loopback
 * (reachable through the allowlist 127.0.0.1/32, as the platform's webhook tests do). Clearing an
 * order and changing its status reach the shop's subscribed webhooks, signed exactly as the
 * platform's; a private address is refused without connecting; the history shows every attempt.
 */
import { WorkflowNotFoundError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearOrderWorkflowId, orderStatusWorkflowId, shopWebhookDeliveryWorkflowId } from '../../../domain/shop/workflow-ids.ts';
import { startWebhookEndToEnd, type WebhookEndToEnd } from '../../helpers/e2e.ts';
import { insertProduct } from '../../helpers/shop-catalogue.ts';
import { adminPost, createTestShop, type TestShop } from '../../helpers/shop.ts';
import { eventually, type TestStack } from '../../helpers/stack.ts';
import { verifySignatures, type WebhookReceiver } from '../../helpers/webhook-receiver.ts';

const SECRET = 'shop-e2e-signing-secret-0123456789';
const WHSEC = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const PRIVATE_URL = 'http://169.254.169.254/latest/meta-data';

let e2e: WebhookEndToEnd;
let stack: TestStack;
let receiver: WebhookReceiver;
let http: WebhookEndToEnd['http'];
let guard: WebhookEndToEnd['guard'];
let shop: TestShop;
let productId: number;
const hooks: Record<'both' | 'statusOnly' | 'flaky' | 'private' | 'placed', string> = { both: '', statusOnly: '', flaky: '', private: '', placed: '' };

beforeAll(async () => {
  e2e = await startWebhookEndToEnd('e2e-shop-webhooks', [200, 200, 200]);
  ({ stack, receiver, http, guard } = e2e);
  shop = await createTestShop(stack.app, 'hooks');
  productId = await insertProduct(stack.orm, shop.id, { name: 'Atlas', sku: 'ATLAS', price: '120.00' });
  const create = async (url: string, events: string[], secret_key: string) => (await adminPost(stack.app, `/admin/v1/shops/${shop.id}/webhooks`, { url, events, secret_key })).id as string;
  hooks.both = await create(receiver.url('/both'), ['order_cleared', 'order_status_changed'], SECRET);
  hooks.statusOnly = await create(receiver.url('/status-only'), ['order_status_changed'], WHSEC);
  hooks.flaky = await create(receiver.url('/flaky'), ['order_cleared'], SECRET);
  hooks.private = await create(PRIVATE_URL, ['order_cleared'], SECRET);
  hooks.placed = await create(receiver.url('/placed'), ['order_placed'], SECRET);
  // The first request to /flaky fails: the platform's retry schedule sends it again.
  receiver.on('/flaky', (_request, nth) => (nth === 1 ? { status: 503 } : { status: 200 }));
});
afterAll(() => e2e?.close());

const shopApi = (method: string, path: string, body?: unknown) => http(method, path, { headers: { 'x-api-key': shop.key }, body });
const deliveries = async (webhookId: string) => {
  const res = await http('GET', `/admin/v1/shops/${shop.id}/webhooks/${webhookId}/deliveries`, { operator: true });
  expect(res.status).toBe(200);
  return res.body.data as { event_id: string; event_type: string; order_id: number; status: string; attempts: { status_code: number | null; error: string | null }[] }[];
};
/** The `webhook` lines of the order's effect log after placing (placing's own line is checked apart). */
const webhookEffects = async (orderId: number) => {
  const res = await http('GET', `/admin/v1/shops/${shop.id}/orders/${orderId}/effects`, { operator: true });
  return (res.body.data as { effect: string; source: string; status: string; detail: string }[]).filter((e) => e.effect === 'webhook' && e.source !== 'placed');
};
const placingWebhookEffects = async (orderId: number) => {
  const res = await http('GET', `/admin/v1/shops/${shop.id}/orders/${orderId}/effects`, { operator: true });
  return (res.body.data as { effect: string; source: string; status: string; detail: string }[]).filter((e) => e.effect === 'webhook' && e.source === 'placed');
};

describe('shop webhooks', () => {
  let order: { id: number; ordinal_number: number };

  it('clearing sends order_cleared to every subscribed webhook, signed as the platform signs, and order_status_changed for the Paid status', async () => {
    order = await adminPost(stack.app, `/admin/v1/shops/${shop.id}/orders`, { email: 'ann@example.com', items: [{ product_id: productId, quantity: 2 }] });
    // Placing raised `order_placed` (DESIGN.md section 10): signed, to the one webhook subscribed to it, logged once.
    const placed = await eventually(async () => {
      const requests = receiver.requests('/placed');
      expect(requests).toHaveLength(1);
      return requests[0]!;
    });
    expect(verifySignatures(placed, SECRET)).toEqual({ xWebhookSignature: true, standardWebhooks: true });
    expect(placed.json).toMatchObject({ type: 'order_placed', data: { order: { id: order.id, order_status_id: shop.statuses.New } } });
    await eventually(async () => expect(await placingWebhookEffects(order.id)).toEqual([expect.objectContaining({ status: 'done', detail: expect.stringMatching(new RegExp(`^order_placed delivered to webhook ${hooks.placed} .*\\(HTTP 200\\)$`)) })]));
    expect((await shopApi('PATCH', `/api/v1/orders/${order.id}/clear`)).status).toBe(200);

    const cleared = await eventually(async () => {
      const requests = receiver.requests('/both').filter((r) => r.json.type === 'order_cleared');
      expect(requests).toHaveLength(1);
      return requests[0];
    });
    expect(verifySignatures(cleared!, SECRET)).toEqual({ xWebhookSignature: true, standardWebhooks: true });
    expect(cleared!.headers['content-type']).toBe('application/json');
    expect(Number(cleared!.headers['webhook-timestamp'])).toBeGreaterThan(Date.now() / 1000 - 60);
    const body = cleared!.json;
    expect(Object.keys(body).sort()).toEqual(['data', 'timestamp', 'type']);
    expect(body.type).toBe('order_cleared');
    expect(body.data.id).toBe(cleared!.headers['webhook-id']);
    expect(body.data.order).toMatchObject({ id: order.id, ordinal_number: order.ordinal_number, paid: true, total: '240.00', currency: 'PLN', order_status: 'Paid', email: 'ann@example.com' });
    expect(body.data.order.items).toEqual([expect.objectContaining({ product_id: productId, quantity: 2, sku: 'ATLAS' })]);
    // The order's uuid (a cart's access key) is never sent.
    expect(cleared!.body).not.toMatch(/"uuid"/);

    // The flaky receiver got the same event twice (a 503, then the retry), with the same webhook-id.
    const flaky = await eventually(async () => {
      const requests = receiver.requests('/flaky');
      expect(requests).toHaveLength(2);
      return requests;
    });
    expect(flaky.map((r) => r.headers['webhook-id'])).toEqual([cleared!.headers['webhook-id'], cleared!.headers['webhook-id']]);
    expect(flaky.map((r) => r.body)).toEqual([flaky[0]!.body, flaky[0]!.body]);
    for (const request of flaky) expect(verifySignatures(request, SECRET)).toEqual({ xWebhookSignature: true, standardWebhooks: true });
    // The clearing set the Paid status: what a change to Paid sends goes too (issue 22), one event for both webhooks subscribed to it.
    const [paidStatus] = await eventually(async () => {
      const requests = receiver.requests('/status-only');
      expect(requests).toHaveLength(1);
      return requests;
    });
    expect(paidStatus!.json).toMatchObject({ type: 'order_status_changed', data: { order: { id: order.id, order_status: 'Paid', paid: true } } });
    const paidBoth = await eventually(async () => {
      const requests = receiver.requests('/both').filter((r) => r.json.type === 'order_status_changed');
      expect(requests).toHaveLength(1);
      return requests[0]!;
    });
    expect(paidBoth.headers['webhook-id']).toBe(paidStatus!.headers['webhook-id']);
    expect(paidBoth.headers['webhook-id']).not.toBe(cleared!.headers['webhook-id']);

    // One effect-log line per webhook and event, naming the webhook, saying what happened once the
    // delivery is over: delivered (the flaky one after its retry), failed for the refused address.
    const effects = await eventually(async () => {
      const rows = await webhookEffects(order.id);
      expect(rows).toHaveLength(5);
      expect(rows.filter((e) => e.detail.includes('under way'))).toEqual([]);
      return rows;
    });
    for (const id of [hooks.both, hooks.flaky, hooks.private, hooks.statusOnly]) expect(effects.some((e) => e.detail.includes(id))).toBe(true);
    expect(effects.filter((e) => e.detail.includes(hooks.private))).toEqual([expect.objectContaining({ status: 'failed', detail: expect.stringContaining('refused') })]);
    expect(effects.filter((e) => !e.detail.includes(hooks.private)).every((e) => e.status === 'done' && e.detail.endsWith('(HTTP 200)'))).toBe(true);
  });

  it('keeps the attempt history: succeeded after a retry, and a private address refused without connecting', async () => {
    const [flaky] = await eventually(async () => {
      const rows = await deliveries(hooks.flaky);
      expect(rows[0]?.status).toBe('succeeded');
      return rows;
    });
    expect(flaky).toMatchObject({ event_type: 'order_cleared', order_id: order.id });
    expect(flaky!.attempts.map((a) => a.status_code)).toEqual([200, 503]);

    const [refused] = await eventually(async () => {
      const rows = await deliveries(hooks.private);
      expect(rows[0]?.status).toBe('failed');
      return rows;
    });
    expect(refused!.attempts).toHaveLength(1);
    expect(refused!.attempts[0]).toMatchObject({ status_code: null, error: expect.stringContaining('refused') });
    expect(guard.calls.some((call) => call.address === '169.254.169.254' || call.url.hostname === '169.254.169.254')).toBe(false);
  });

  it('a status change sends order_status_changed once to the webhooks subscribed to it, with either kind of secret', async () => {
    const change = () => shopApi('PATCH', `/api/v1/orders/${order.id}/status`, { order_status_id: shop.statuses.Sent });
    expect((await change()).status).toBe(200);
    expect((await change()).status).toBe(200);
    const statusOnly = await eventually(async () => {
      const requests = receiver.requests('/status-only');
      expect(requests).toHaveLength(2);
      return requests[1];
    });
    const both = await eventually(async () => {
      const requests = receiver.requests('/both');
      expect(requests).toHaveLength(3);
      return requests.filter((r) => r.json.type === 'order_cleared').concat(requests.filter((r) => r.json.data?.order?.order_status === 'Sent'));
    });
    expect(verifySignatures(statusOnly!, WHSEC)).toEqual({ xWebhookSignature: true, standardWebhooks: true });
    expect(verifySignatures(both[1]!, SECRET)).toEqual({ xWebhookSignature: true, standardWebhooks: true });
    expect(statusOnly!.json).toMatchObject({ type: 'order_status_changed', data: { order: { id: order.id, order_status: 'Sent', order_status_id: shop.statuses.Sent } } });
    // One event: the same id for both webhooks, and not the clearing's.
    expect(both[1]!.headers['webhook-id']).toBe(statusOnly!.headers['webhook-id']);
    expect(both[1]!.headers['webhook-id']).not.toBe(both[0]!.headers['webhook-id']);

    // The repeated PATCH changed nothing and sent nothing: it recorded no second change (its start
    // joined the one change's run), and that run, which started every delivery of its event, is over.
    const changes = await stack.orm.em
      .fork()
      .getConnection()
      .execute<{ id: number }[]>('select id from shop_order_status_changes where shop_id = ? and order_id = ? and to_status_id = ?', [shop.id, order.id, shop.statuses.Sent]);
    expect(changes).toHaveLength(1);
    await stack.temporal.workflow.getHandle(orderStatusWorkflowId({ shopId: shop.id, orderId: order.id, changeId: changes[0]!.id })).result();
    expect(receiver.requests('/status-only')).toHaveLength(2);
    expect(receiver.requests('/both')).toHaveLength(3);
    expect((await deliveries(hooks.both)).map((d) => [d.event_type, d.status]).sort()).toEqual([
      ['order_cleared', 'succeeded'],
      ['order_status_changed', 'succeeded'],
      ['order_status_changed', 'succeeded'],
    ]);
    expect(await webhookEffects(order.id)).toHaveLength(7);
  });
});

describe("a slow receiver and the clearing's local slots", () => {
  it('gets the first attempt of one clearing inline; while the worker sees it slow, the next clearing leaves its first attempt to the delivery workflow', async () => {
    const slowShop = await createTestShop(stack.app, 'slow-hooks');
    const book = await insertProduct(stack.orm, slowShop.id, { name: 'Atlas', sku: 'ATLAS', price: '10.00' });
    const webhookId = (await adminPost(stack.app, `/admin/v1/shops/${slowShop.id}/webhooks`, { url: receiver.url('/slow'), events: ['order_cleared'], secret_key: SECRET })).id as string;
    // Slower than the worker's bound for a call made inline (SLOW_CALL_MS, 1 s).
    receiver.on('/slow', () => ({ status: 200, delayMs: 1_500 }));
    const clearOne = async (email: string) => {
      const placed = await adminPost<{ id: number }>(stack.app, `/admin/v1/shops/${slowShop.id}/orders`, { email, items: [{ product_id: book }] });
      expect((await http('PATCH', `/api/v1/orders/${placed.id}/clear`, { headers: { 'x-api-key': slowShop.key } })).status).toBe(200);
      await stack.temporal.workflow.getHandle(clearOrderWorkflowId({ shopId: slowShop.id, orderId: placed.id })).result();
      return placed.id;
    };
    const deliveryWorkflow = (orderId: number) => stack.temporal.workflow.getHandle(shopWebhookDeliveryWorkflowId({ shopId: slowShop.id, webhookId, orderId, source: 'clear' }));

    const first = await clearOne('slow-1@example.com');
    expect(receiver.requests('/slow')).toHaveLength(1);
    await expect(deliveryWorkflow(first).describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);

    const second = await clearOne('slow-2@example.com');
    // The clearing made no attempt of its own: its delivery workflow made the first, and delivered it.
    expect(await deliveryWorkflow(second).result()).toMatchObject({ status: 'succeeded' });
    expect(receiver.requests('/slow')).toHaveLength(2);
    expect(new Set(receiver.requests('/slow').map((r) => r.json.data.order.id))).toEqual(new Set([first, second]));
  });
});

/**
 * A worker killed (SIGKILL) while a clearing's outside calls (a local activity) wait on a webhook's
 * first attempt (DESIGN.md section 4, "Deliveries"): another worker takes the clearing over (its
 * workflow task: the step and the calls run again), the receiver gets
 * the same `webhook-id` and body again, there is one delivery, its effect is recorded once, and the
 * clearing completes.
 */
import { describe, expect, it } from 'vitest';
import { clearOrderWorkflowId } from '../../../domain/shop/workflow-ids.ts';
import { insertProduct } from '../../helpers/shop-catalogue.ts';
import { adminPost, createTestShop, operator } from '../../helpers/shop.ts';
import { eventually } from '../../helpers/stack.ts';
import { useWorkerHandover } from '../../helpers/worker-handover.ts';

const handover = useWorkerHandover('e2e-clearing-durability');

describe("a worker killed during a clearing's first attempt", () => {
  it('is taken over by another worker: the same webhook-id, one delivery, its effect recorded once, the clearing complete', async () => {
    const { stack, receiver } = handover;
    const shop = await createTestShop(stack.app, 'durable-clearing');
    const productId = await insertProduct(stack.orm, shop.id, { name: 'Atlas', sku: 'ATLAS', price: '30.00' });
    const webhook = await adminPost<{ id: string }>(stack.app, `/admin/v1/shops/${shop.id}/webhooks`, { url: receiver.url('/cleared'), events: ['order_cleared'], secret_key: 'durable-clearing-secret-0123456789' });
    // The first request never gets an answer: the worker is killed while it waits.
    receiver.on('/cleared', (_request, nth) => (nth === 1 ? 'hang' : { status: 200 }));

    const firstWorker = await handover.startFirst();
    const order = await adminPost<{ id: number }>(stack.app, `/admin/v1/shops/${shop.id}/orders`, { email: 'kim@example.com', items: [{ product_id: productId }] });
    const cleared = await stack.app.inject({ method: 'PATCH', url: `/api/v1/orders/${order.id}/clear`, headers: { 'x-api-key': shop.key } });
    expect(cleared.statusCode).toBe(200);
    await eventually(async () => expect(receiver.requests('/cleared')).toHaveLength(1), { timeoutMs: 30_000 });
    await firstWorker.kill('SIGKILL');

    await handover.startSecond();
    await eventually(async () => expect(receiver.requests('/cleared')).toHaveLength(2), { timeoutMs: 30_000 });
    const [sent, resent] = receiver.requests('/cleared');
    expect(resent!.headers['webhook-id']).toBe(sent!.headers['webhook-id']);
    expect(resent!.body).toBe(sent!.body);

    // The clearing's one workflow completes on the second worker.
    await stack.temporal.workflow.getHandle(clearOrderWorkflowId({ shopId: shop.id, orderId: order.id })).result();
    const deliveries = await eventually(async () => {
      const res = await stack.app.inject({ method: 'GET', url: `/admin/v1/shops/${shop.id}/webhooks/${webhook.id}/deliveries`, headers: operator });
      const data = res.json().data as { event_id: string; status: string }[];
      expect(data.map((d) => d.status)).toEqual(['succeeded']);
      return data;
    });
    expect(deliveries[0]!.event_id).toBe(sent!.headers['webhook-id']);
    const effects = await eventually(async () => {
      const res = await stack.app.inject({ method: 'GET', url: `/admin/v1/shops/${shop.id}/orders/${order.id}/effects`, headers: operator });
      const rows = (res.json().data as { effect: string; source: string; status: string; detail: string }[]).filter((e) => e.effect === 'webhook' && e.source === 'clear');
      expect(rows.map((e) => e.status)).toEqual(['done']);
      expect(rows[0]!.detail).not.toContain('under way');
      return rows;
    });
    expect(effects).toHaveLength(1);
    // Nothing was sent a third time: the clearing and the delivery are over (above).
    expect(receiver.requests('/cleared')).toHaveLength(2);
    const rows: { n: number }[] = await stack.orm.em.fork().getConnection().execute('select count(*)::int as n from shop_webhook_deliveries where webhook_id = ?', [webhook.id]);
    expect(rows).toEqual([{ n: 1 }]);
  });
});

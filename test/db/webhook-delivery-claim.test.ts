/**
 * The two statements of a webhook attempt's bookkeeping (db/repositories/shared/webhook-deliveries.ts):
 * the claim that also reads the delivery, which only one of two attempts at once wins, and the
 * record of an attempt with the delivery's new state (and a 410's switch-off) in one statement.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimDeliveryToAttempt, recordAttempt, SHOP_WEBHOOK_TABLES, type TenantDelivery } from '../../db/repositories/shared/webhook-deliveries.ts';
import { adminPost, createTestShop, type TestShop } from '../helpers/shop.ts';
import { startTestApp, type TestStack } from '../helpers/stack.ts';

let stack: TestStack;
let shop: TestShop;
let webhookId: string;

beforeAll(async () => {
  stack = await startTestApp('webhook-delivery-claim');
  shop = await createTestShop(stack.app, 'claim');
  webhookId = (await adminPost(stack.app, `/admin/v1/shops/${shop.id}/webhooks`, { url: 'https://hooks.example.com/x', events: ['order_cleared'], secret_key: 'secret-0123456789abcdef' })).id;
});
afterAll(async () => {
  await stack?.close();
});

const sql = <T = any>(text: string, params: unknown[] = []) => stack.orm.em.fork().getConnection().execute<T[]>(text, params);

/** A delivery of the shop's webhook in `status`, due at `dueAt` (null: now). */
async function delivery(status: string, dueAt: Date | null = null): Promise<TenantDelivery> {
  const [row] = await sql<{ id: string }>(
    `insert into shop_webhook_deliveries (id, shop_id, webhook_id, event_id, event_key, event_type, payload, occurred_at, status, next_attempt_at, attempt_count, created_at, updated_at)
     values (gen_random_uuid(), ?, ?, gen_random_uuid(), 'order/1/' || gen_random_uuid(), 'order_cleared', '{"order": {"id": 1}}'::jsonb, now(), ?, ?, 0, clock_timestamp(), clock_timestamp()) returning id`,
    [shop.id, webhookId, status, dueAt],
  );
  return { tables: SHOP_WEBHOOK_TABLES, tenantId: shop.id, deliveryId: row!.id };
}

const inTenSeconds = () => new Date(Date.now() + 10_000);

describe('claimDeliveryToAttempt', () => {
  it('is won by one of two attempts at once; the winner reads the delivery as it was before its claim', async () => {
    const ref = await delivery('pending');
    const now = new Date();
    const [a, b] = await Promise.all([claimDeliveryToAttempt(stack.orm.em.fork(), ref, inTenSeconds(), now), claimDeliveryToAttempt(stack.orm.em.fork(), ref, inTenSeconds(), now)]);
    expect([a!.claimed, b!.claimed].sort()).toEqual([false, true]);
    for (const read of [a!, b!]) expect(read).toMatchObject({ webhook_id: webhookId, type: 'order_cleared', url: 'https://hooks.example.com/x', active: true, payload: { order: { id: 1 } } });
    expect([a!, b!].find((r) => r.claimed)!.next_attempt_at).toBeNull();
    const [lease] = await sql<{ next_attempt_at: string }>('select next_attempt_at from shop_webhook_deliveries where id = ?', [ref.deliveryId]);
    expect(new Date(lease!.next_attempt_at).getTime()).toBeGreaterThan(now.getTime());
  });

  it('does not claim a delivery that is not due, nor one that is over; a missing one reads nothing', async () => {
    const later = new Date(Date.now() + 60_000);
    const notDue = await claimDeliveryToAttempt(stack.orm.em.fork(), await delivery('pending', later), inTenSeconds(), new Date());
    expect(notDue).toMatchObject({ status: 'pending', claimed: false });
    expect(new Date(notDue!.next_attempt_at!).getTime()).toBe(later.getTime());
    expect(await claimDeliveryToAttempt(stack.orm.em.fork(), await delivery('succeeded'), inTenSeconds(), new Date())).toMatchObject({ status: 'succeeded', claimed: false });
    const missing = { tables: SHOP_WEBHOOK_TABLES, tenantId: shop.id, deliveryId: '00000000-0000-4000-8000-000000000000' };
    expect(await claimDeliveryToAttempt(stack.orm.em.fork(), missing, inTenSeconds(), new Date())).toBeUndefined();
  });
});

describe('recordAttempt', () => {
  const state = async (ref: TenantDelivery) =>
    (
      await sql<{ status: string; attempt_count: number; attempts: string; active: boolean }>(
        `select d.status, d.attempt_count, (select count(*) from shop_webhook_delivery_attempts a where a.delivery_id = d.id) as attempts, w.active
           from shop_webhook_deliveries d join shop_webhooks w on w.id = d.webhook_id where d.id = ?`,
        [ref.deliveryId],
      )
    )[0];

  it("records the attempt and the delivery's new state together, and leaves the webhook on after a 500", async () => {
    const ref = await delivery('pending');
    const next = inTenSeconds();
    await recordAttempt(stack.orm.em.fork(), { ...ref, webhookId }, { at: new Date(), statusCode: 500, durationMs: 12, error: 'HTTP 500', manual: false }, { status: 'pending', nextAttemptAt: next });
    expect(await state(ref)).toEqual({ status: 'pending', attempt_count: 1, attempts: '1', active: true });
  });

  it('records an attempt nothing answered (no status code) without touching the webhook', async () => {
    const ref = await delivery('pending');
    await recordAttempt(stack.orm.em.fork(), { ...ref, webhookId }, { at: new Date(), statusCode: null, durationMs: 9, error: 'cannot resolve', manual: false }, { status: 'pending', nextAttemptAt: inTenSeconds() });
    expect(await state(ref)).toEqual({ status: 'pending', attempt_count: 1, attempts: '1', active: true });
  });

  it('switches the webhook off on a 410, in the same statement', async () => {
    const ref = await delivery('pending');
    await recordAttempt(stack.orm.em.fork(), { ...ref, webhookId }, { at: new Date(), statusCode: 410, durationMs: 3, error: 'HTTP 410', manual: false }, { status: 'failed', nextAttemptAt: null });
    expect(await state(ref)).toEqual({ status: 'failed', attempt_count: 1, attempts: '1', active: false });
  });
});

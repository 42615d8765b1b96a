import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clubWebhookActivities, type OpenClubDeliveryInput } from '../../../activities/shop/club-webhook.ts';
import type { EffectSource } from '../../../domain/shop/effects.ts';
import { insertProduct } from '../../helpers/shop-catalogue.ts';
import { adminPost, createTestShop, type TestShop } from '../../helpers/shop.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';

/** Opening the club webhook against the database: the decision, the payload, once per order and status. */
let stack: TestStack;
let shop: TestShop;
const products = { listed: 0, other: 0 };
let activities: ReturnType<typeof clubWebhookActivities>;

beforeAll(async () => {
  stack = await startTestApp('shop-club-activities');
  shop = await createTestShop(stack.app, 'club-act');
  products.listed = await insertProduct(stack.orm, shop.id, { name: 'Pass' });
  products.other = await insertProduct(stack.orm, shop.id, { name: 'Mug' });
  activities = clubWebhookActivities({ orm: stack.orm, platformUrlTemplate: '', secretsKey: stack.app.secretsKey });
});
afterAll(() => stack.close());

const place = async (productId: number) => (await adminPost(stack.app, `/admin/v1/shops/${shop.id}/orders`, { email: 'm@example.com', items: [{ product_id: productId }] })).id as number;
const configure = (payload: object) =>
  stack.app.inject({ method: 'PATCH', url: '/api/v1/configuration/club', headers: shop.headers(), payload }).then((r) => expect(r.statusCode, r.body).toBe(200));
const open = (orderId: number, source: EffectSource, statusId: number | null = shop.statuses.Paid!) =>
  activities.openClubWebhookDelivery({ shopId: shop.id, orderId, source, statusId, eventId: randomUUID(), occurredAt: new Date().toISOString() } satisfies OpenClubDeliveryInput);
const deliveries = (orderId: number) =>
  stack.orm.em.fork().getConnection().execute<{ id: string; source: string; order_status_id: number; event_type: string; payload: any }[]>(
    'select id, source, order_status_id, event_type, payload from shop_club_webhook_deliveries where shop_id = ? and order_id = ?',
    [shop.id, orderId],
  );

describe('openClubWebhookDelivery', () => {
  it('skips without an integration', async () => {
    expect(await open(await place(products.listed), 'status:1')).toEqual({ skipped: 'no club integration' });
  });

  it('opens one delivery per order and status: the same transition finds it again, another transition is skipped', async () => {
    await configure({ webhook_url: 'https://club.example.com/in?token=t', webhook_secret_key: 'k', product_ids: [products.listed] });
    const orderId = await place(products.listed);
    const first = await open(orderId, 'status:7');
    expect(first).toEqual({ deliveryId: expect.any(String), host: 'club.example.com', statusId: shop.statuses.Paid });
    const [again, other] = await Promise.all([open(orderId, 'status:7'), open(orderId, 'clear', null)]);
    expect(again).toEqual(first);
    expect(other).toEqual({ skipped: 'sent once per order and status: already at status:7' });
    const rows = await deliveries(orderId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ source: 'status:7', order_status_id: shop.statuses.Paid, event_type: 'club_order_status_reached' });
    expect(rows[0]!.payload).toMatchObject({ order: { id: orderId }, club: { order_status_id: shop.statuses.Paid, fires_for_all_products: false, products: [{ id: products.listed, name: 'Pass' }] } });
    expect(rows[0]!.payload.order).not.toHaveProperty('uuid');
  });

  it('two transitions to the status at once: exactly one opens the delivery', async () => {
    const orderId = await place(products.listed);
    const results = await Promise.all([open(orderId, 'status:40'), open(orderId, 'clear', null), open(orderId, 'status:41')]);
    expect(results.filter((r) => 'deliveryId' in r)).toHaveLength(1);
    expect(results.filter((r) => 'skipped' in r)).toHaveLength(2);
    expect(await deliveries(orderId)).toHaveLength(1);
  });

  it('clearing (statusId null) means the Paid status; another status of the same order is its own delivery', async () => {
    const orderId = await place(products.listed);
    expect(await open(orderId, 'clear', null)).toMatchObject({ statusId: shop.statuses.Paid });
    await configure({ order_status_id: shop.statuses.Sent });
    expect(await open(orderId, 'status:9', shop.statuses.Sent)).toMatchObject({ statusId: shop.statuses.Sent });
    expect((await deliveries(orderId)).map((d) => d.order_status_id).sort()).toEqual([shop.statuses.Paid, shop.statuses.Sent].sort());
    await configure({ order_status_id: shop.statuses.Paid });
  });

  it('skips an order without a listed product, another status, and a switched-off integration', async () => {
    const mug = await place(products.other);
    expect(await open(mug, 'status:20')).toEqual({ skipped: 'the order holds no product of the club list' });
    const pass = await place(products.listed);
    expect(await open(pass, 'status:21', shop.statuses.Sent)).toMatchObject({ skipped: expect.stringContaining('not') });
    await configure({ active: false });
    expect(await open(pass, 'status:22')).toEqual({ skipped: 'the club integration is switched off' });
    await configure({ active: true });
    expect(await deliveries(mug)).toEqual([]);
  });

  it('an unknown order is a non-retryable failure', async () => {
    await expect(open(2_000_000_000, 'status:30')).rejects.toMatchObject({ type: 'OrderNotFound', nonRetryable: true });
  });
});

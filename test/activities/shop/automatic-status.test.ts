import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { automaticStatusActivities } from '../../../activities/shop/automatic-status.ts';
import { shopEm } from '../../../db/repositories/shared/tenant-em.ts';
import { recordStatusChange, markOrderCleared } from '../../../db/repositories/shop/order-transitions.ts';
import { insertProduct } from '../../helpers/shop-catalogue.ts';
import { adminPost, createTestShop, type TestShop } from '../../helpers/shop.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';

/** Planning and applying automatic statuses against the database (the timer itself: test/workflows). */
let stack: TestStack;
let shop: TestShop;
let paidProduct: number;
let freeProduct: number;
let activities: ReturnType<typeof automaticStatusActivities>;

beforeAll(async () => {
  stack = await startTestApp('shop-auto-status-activities');
  shop = await createTestShop(stack.app, 'auto-act');
  paidProduct = await insertProduct(stack.orm, shop.id, { name: 'Book', price: '30.00' });
  freeProduct = await insertProduct(stack.orm, shop.id, { name: 'Free', price: '0.00', allowPriceChange: true, minimalPrice: '0.00', allowZeroMinimalPrice: true });
  activities = automaticStatusActivities({ orm: stack.orm, platformUrlTemplate: '' });
});
afterAll(() => stack.close());

const status = async (name: string) => (await adminPost(stack.app, `/admin/v1/shops/${shop.id}/order_statuses`, { name })).id as number;
const rule = (statusId: number, automatically_set: object | null) =>
  stack.app.inject({ method: 'PATCH', url: `/api/v1/configuration/order_statuses/${statusId}`, headers: shop.headers(), payload: { automatically_set } }).then((r) => expect(r.statusCode, r.body).toBe(200));
const place = async (fields: object = {}) => (await adminPost(stack.app, `/admin/v1/shops/${shop.id}/orders`, { email: 'x@example.com', items: [{ product_id: paidProduct }], ...fields })).id as number;
const move = async (orderId: number, statusId: number) => (await recordStatusChange(shopEm(stack.orm, shop.id), shop.id, orderId, statusId))!.changeId;
const statusOf = async (orderId: number) => Number((await stack.orm.em.fork().getConnection().execute('select order_status_id from shop_orders where id = ?', [orderId]))[0]!.order_status_id);

describe('planAutomaticStatuses', () => {
  it('plans every status set after the reached one, due at the change\'s moment plus the offset', async () => {
    const [a, b, c] = [await status('A1'), await status('B1'), await status('C1')];
    await rule(b, { automatically_set_after_status_id: a, automatically_set_offset_days: 1, automatically_set_offset_hours: 2 });
    await rule(c, { automatically_set_after_status_id: a });
    const orderId = await place();
    const changeId = await move(orderId, a);
    const [change] = await stack.orm.em.fork().getConnection().execute<{ at: Date }[]>('select at from shop_order_status_changes where id = ?', [changeId]);
    const planned = await activities.planAutomaticStatuses({ shopId: shop.id, orderId, source: `status:${changeId}` });
    expect(planned).toEqual([
      { fromStatusId: a, expectedChangeId: changeId, toStatusId: b, dueAt: new Date(new Date(change!.at).getTime() + 26 * 3600_000).toISOString() },
      { fromStatusId: a, expectedChangeId: changeId, toStatusId: c, dueAt: new Date(change!.at).toISOString() },
    ]);
  });

  it('plans nothing when the order moved on before planning, or the conditions exclude it', async () => {
    const [a, b, other] = [await status('A2'), await status('B2'), await status('X2')];
    await rule(b, { automatically_set_after_status_id: a, automatically_set_if_total_zero: true, automatically_set_only_for_shop_origin_orders: true });
    const moved = await place({ items: [{ product_id: freeProduct, price: '0.00' }], placed_ip: '203.0.113.5' });
    const first = await move(moved, a);
    await move(moved, other);
    expect(await activities.planAutomaticStatuses({ shopId: shop.id, orderId: moved, source: `status:${first}` })).toEqual([]);

    const notFree = await place({ placed_ip: '203.0.113.5' });
    expect(await activities.planAutomaticStatuses({ shopId: shop.id, orderId: notFree, source: `status:${await move(notFree, a)}` })).toEqual([]);
    const fromPanel = await place({ items: [{ product_id: freeProduct, price: '0.00' }] });
    expect(await activities.planAutomaticStatuses({ shopId: shop.id, orderId: fromPanel, source: `status:${await move(fromPanel, a)}` })).toEqual([]);
    const admitted = await place({ items: [{ product_id: freeProduct, price: '0.00' }], placed_ip: '203.0.113.5' });
    expect(await activities.planAutomaticStatuses({ shopId: shop.id, orderId: admitted, source: `status:${await move(admitted, a)}` })).toHaveLength(1);
  });

  it('plans the rules after Paid for a clearing, from the clearing\'s moment', async () => {
    const b = await status('After paid');
    await rule(b, { automatically_set_after_status_id: shop.statuses.Paid, automatically_set_offset_hours: 1 });
    const orderId = await place();
    const cleared = await markOrderCleared(stack.orm.em.fork(), shop.id, orderId, new Date('2026-05-01T10:00:00Z'));
    expect(cleared).not.toBeNull();
    expect(await activities.planAutomaticStatuses({ shopId: shop.id, orderId, source: 'clear' })).toEqual([
      { fromStatusId: shop.statuses.Paid, expectedChangeId: null, toStatusId: b, dueAt: '2026-05-01T11:00:00.000Z' },
    ]);
    await rule(b, null);
  });
});

describe('applyAutomaticStatus', () => {
  it('sets the status when the order is still where it was, and a retried call finds its own change', async () => {
    const [a, b] = [await status('A3'), await status('B3')];
    await rule(b, { automatically_set_after_status_id: a });
    const orderId = await place();
    const changeId = await move(orderId, a);
    const input = { shopId: shop.id, orderId, fromStatusId: a, expectedChangeId: changeId, toStatusId: b };
    const applied = await activities.applyAutomaticStatus(input);
    expect(applied).toEqual({ changeId: expect.any(Number) });
    expect(await statusOf(orderId)).toBe(b);
    expect(await activities.applyAutomaticStatus(input)).toEqual(applied);
  });

  it('is obsolete after a status change in between (even back to the same status), or once the rule is removed', async () => {
    const [a, b, other] = [await status('A4'), await status('B4'), await status('X4')];
    await rule(b, { automatically_set_after_status_id: a });
    const orderId = await place();
    const changeId = await move(orderId, a);
    await move(orderId, other);
    await move(orderId, a);
    expect(await activities.applyAutomaticStatus({ shopId: shop.id, orderId, fromStatusId: a, expectedChangeId: changeId, toStatusId: b })).toBeNull();
    expect(await statusOf(orderId)).toBe(a);

    const second = await place();
    const secondChange = await move(second, a);
    await rule(b, null);
    expect(await activities.applyAutomaticStatus({ shopId: shop.id, orderId: second, fromStatusId: a, expectedChangeId: secondChange, toStatusId: b })).toBeNull();
    expect(await statusOf(second)).toBe(a);
  });

  it('lets one of concurrent firings set the status', async () => {
    const [a, b] = [await status('A5'), await status('B5')];
    await rule(b, { automatically_set_after_status_id: a });
    const orderId = await place();
    const changeId = await move(orderId, a);
    const input = { shopId: shop.id, orderId, fromStatusId: a, expectedChangeId: changeId, toStatusId: b };
    const results = await Promise.all(Array.from({ length: 5 }, () => activities.applyAutomaticStatus(input)));
    expect(new Set(results.map((r) => r?.changeId)).size).toBe(1);
    const [{ n }] = await stack.orm.em.fork().getConnection().execute<{ n: string }[]>('select count(*) as n from shop_order_status_changes where order_id = ?', [orderId]) as [{ n: string }];
    expect(Number(n)).toBe(2);
  });
});

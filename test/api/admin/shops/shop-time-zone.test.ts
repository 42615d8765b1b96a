import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestShop, operator, type TestShop } from '../../../helpers/shop.ts';
import { startTestApp, type TestStack } from '../../../helpers/stack.ts';

/** Section 10, the panel's edits: `time_zone` on the shop, followed by reports and order-list dates. */
let stack: TestStack;
let shop: TestShop;

beforeAll(async () => {
  stack = await startTestApp('shop-time-zone');
  shop = await createTestShop(stack.app, 'tz');
});
afterAll(() => stack.close());

const patch = (payload: object, shopId = shop.id) => stack.app.inject({ method: 'PATCH', url: `/admin/v1/shops/${shopId}`, headers: operator, payload });

let ordinal = 0;
async function insertOrder(target: TestShop, placedAt: string, total: string) {
  await stack.orm.em.getConnection().execute(
    `insert into shop_orders (shop_id, uuid, ordinal_number, internal_status, order_status_id, email, currency, products_cost, delivery_cost,
       payment_cost, total_discount, total, paid, order_attributes, notes, placed_at, created_at, updated_at)
     values (?, ?, ?, 'placed', ?, 'buyer@example.com', 'PLN', ?, 0, 0, 0, ?, false, '[]', '[]', ?, now(), now())`,
    [target.id, randomUUID(), ++ordinal, target.statuses.New, total, total, placedAt],
  );
}

describe('PATCH /admin/v1/shops/:shop_id {time_zone}', () => {
  it('defaults to Europe/Warsaw and answers the zone set', async () => {
    const fresh = await createTestShop(stack.app, 'tz-default');
    expect((await patch({ name: 'Renamed' }, fresh.id)).json().data).toMatchObject({ name: 'Renamed', time_zone: 'Europe/Warsaw' });
    const res = await patch({ time_zone: 'America/New_York' }, fresh.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ id: fresh.id, name: 'Renamed', time_zone: 'America/New_York' });
    const [row] = await stack.orm.em.fork().getConnection().execute<{ time_zone: string }[]>('select time_zone from shops where id = ?', [fresh.id]);
    expect(row!.time_zone).toBe('America/New_York');
  });

  it.each([
    ['an unknown zone', 'Europe/Atlantis'],
    ['an offset, which is no zone', '+01:00'],
    ['an empty name', ''],
    ['a name too long', `Europe/${'a'.repeat(80)}`],
    ['a number', 2],
  ])('answers 422 naming time_zone for %s, and keeps the zone', async (_case, value) => {
    const res = await patch({ time_zone: value });
    expect(res.statusCode, res.body).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['time_zone']);
    const [row] = await stack.orm.em.fork().getConnection().execute<{ time_zone: string }[]>('select time_zone from shops where id = ?', [shop.id]);
    expect(row!.time_zone).toBe('Europe/Warsaw');
  });

  it('answers 404 for an unknown shop', async () => {
    expect((await patch({ time_zone: 'UTC' }, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });
});

describe("reports and order-list dates in the shop's zone", () => {
  let ny: TestShop;

  beforeAll(async () => {
    ny = await createTestShop(stack.app, 'tz-ny');
    // 2026-03-02 03:30 UTC: Monday 2 March in Warsaw, still Sunday 1 March in New York (UTC-5).
    for (const target of [shop, ny]) await insertOrder(target, '2026-03-02T03:30:00Z', '5.00');
    // A key read before the change: the cached key must not keep the old zone.
    expect((await stack.app.inject({ method: 'GET', url: '/api/v1/orders', headers: ny.headers() })).statusCode).toBe(200);
    expect((await patch({ time_zone: 'America/New_York' }, ny.id)).statusCode).toBe(200);
  });

  const buckets = async (target: TestShop, group: string) => {
    const res = await stack.app.inject({ method: 'GET', url: `/api/v1/reports/sales?date_from=2026-02-23&date_to=2026-03-08&group_by=${group}`, headers: target.headers() });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().data.buckets as { date: string; orders_count: number }[]).filter((b) => b.orders_count > 0).map((b) => b.date);
  };

  it('buckets a report by days and weeks of the zone', async () => {
    expect(await buckets(shop, 'day')).toEqual(['2026-03-02']);
    expect(await buckets(ny, 'day')).toEqual(['2026-03-01']);
    expect(await buckets(shop, 'week')).toEqual(['2026-03-02']);
    expect(await buckets(ny, 'week')).toEqual(['2026-02-23']);
  });

  it("filters the order list by days of the zone", async () => {
    const count = async (target: TestShop, day: string) =>
      (await stack.app.inject({ method: 'GET', url: `/api/v1/orders?date_from=${day}&date_to=${day}`, headers: target.headers() })).json().data.length;
    expect([await count(shop, '2026-03-01'), await count(shop, '2026-03-02')]).toEqual([0, 1]);
    expect([await count(ny, '2026-03-01'), await count(ny, '2026-03-02')]).toEqual([1, 0]);
  });
});

import { createActivities } from '../../../activities/index.ts';
/**
 * Issue 14 end to end: a course sold in the shop grants access on the linked course platform.
 * From a shop order to visible lessons, the cancellation, and a shop of another platform.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEndToEnd, type EndToEnd } from '../../helpers/e2e.ts';
import { createCourse, createPlatform, lessonIds, uniqueEmail, type TestCourse, type TestPlatform } from '../../helpers/fixtures.ts';
import { adminPost, createTestShop, type TestShop } from '../../helpers/shop.ts';
import { eventually } from '../../helpers/stack.ts';

let e2e: EndToEnd;
let platform: TestPlatform;
let basics: TestCourse;
let masterclass: TestCourse;
let shop: TestShop;
let productId: number;

beforeAll(async () => {
  e2e = await startEndToEnd('shop-course-access');
  platform = await createPlatform(e2e.stack.app, 'Course platform');
  basics = await createCourse(e2e.stack.app, platform.id);
  masterclass = await createCourse(e2e.stack.app, platform.id);
  shop = await createTestShop(e2e.stack.app, 'courses');
  const link = await e2e.http('PUT', `/admin/v1/shops/${shop.id}/course_platform`, { operator: true, body: { platform_id: platform.id } });
  expect(link).toMatchObject({ status: 200, body: { data: { shop_id: shop.id, platform_id: platform.id } } });
  const product = await e2e.http('POST', '/api/v1/products', {
    key: shop.key,
    body: {
      name: 'Course bundle',
      price: '199.00',
      distribution: 'course',
      course_access: [
        { course_id: basics.id, access_level: 0 },
        { course_id: masterclass.id, access_level: 1 },
      ],
    },
  });
  expect(product.status, JSON.stringify(product.body)).toBe(201);
  productId = product.body.data.id;
});
afterAll(() => e2e?.close());

const effectsOf = async (shopId: string, orderId: number) =>
  (await e2e.http('GET', `/admin/v1/shops/${shopId}/orders/${orderId}/effects`, { operator: true })).body.data as { effect: string; status: string; detail: string }[];

/** The effect's line once the workflow has recorded it. */
const effectWhen = (shopId: string, orderId: number, effect: string, count = 1) =>
  eventually(async () => {
    const rows = (await effectsOf(shopId, orderId)).filter((e) => e.effect === effect);
    expect(rows).toHaveLength(count);
    return rows;
  });

const accessOrderOf = async (platformId: string, externalId: string) =>
  (await e2e.stack.orm.em.fork().getConnection().execute<{ id: string; status: string; email: string }[]>(
    'select id, status, email from orders where platform_id = ? and external_id = ?',
    [platformId, externalId],
  ))[0];

const placeAndClear = async (target: TestShop, product: number, email: string) => {
  const order = await adminPost(e2e.stack.app, `/admin/v1/shops/${target.id}/orders`, { email, items: [{ product_id: product, quantity: 1 }] });
  const cleared = await e2e.http('PATCH', `/api/v1/orders/${order.id}/clear`, { key: target.key });
  expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
  return order as { id: number; ordinal_number: number };
};

describe('a cleared shop order of a course product', () => {
  it('registers an access order through fulfilOrder (a child of the clearing): the buyer sees the lessons of the levels bought', async () => {
    const email = uniqueEmail('buyer');
    const order = await placeAndClear(shop, productId, email);
    const [effect] = await effectWhen(shop.id, order.id, 'course_access');
    expect(effect).toMatchObject({ status: 'done' });

    const externalId = `shop-${shop.id}-${order.ordinal_number}`;
    const accessOrder = await accessOrderOf(platform.id, externalId);
    expect(accessOrder).toMatchObject({ status: 'registered', email });
    expect(effect!.detail).toContain(accessOrder!.id);

    const participant = await e2e.participantWhen(platform.id, email, (data) => expect(data.courses.filter((c: any) => c.active)).toHaveLength(2));
    const byCourse = Object.fromEntries(participant.courses.map((c: any) => [c.course_id, c]));
    expect(byCourse[basics.id]).toMatchObject({ access_level: 0, active: true });
    expect(byCourse[basics.id].visible_lesson_ids.sort()).toEqual(lessonIds(basics, 0).sort());
    expect(byCourse[masterclass.id]).toMatchObject({ access_level: 1, active: true });
    expect(byCourse[masterclass.id].visible_lesson_ids.sort()).toEqual(lessonIds(masterclass, 1).sort());
    expect(participant.invited).toBe(true);

    // The same workflow as POST /api/orders, under its id, started by the shop's clearing workflow.
    const fulfil = e2e.stack.temporal.workflow.getHandle(`platform/${platform.id}/order/${accessOrder!.id}/fulfil`);
    await fulfil.result();
    const description = await fulfil.describe();
    expect(description.type).toBe('fulfilOrder');
    expect(description.parentExecution?.workflowId).toBeTruthy();
    expect((await e2e.stack.temporal.workflow.getHandle(String(description.parentExecution!.workflowId)).describe()).type).toBe('clearOrder');

    const fulfilled = await eventually(async () => {
      const events = (await e2e.events(platform.id, 'order_fulfilled')).filter((e) => e.payload.order?.id === accessOrder!.id);
      expect(events).toHaveLength(1);
      return events;
    });
    expect(fulfilled[0]!.payload.order.external_id).toBe(externalId);
    const granted = (await e2e.events(platform.id, 'access_granted')).filter((e) => e.payload.participant?.email === email);
    expect(granted.length).toBeGreaterThanOrEqual(2);
  });

  it('a Canceled status cancels the access order: the access the order granted is withdrawn, a direct grant stays', async () => {
    const email = uniqueEmail('returner');
    const order = await placeAndClear(shop, productId, email);
    await e2e.participantWhen(platform.id, email, (data) => expect(data.courses.filter((c: any) => c.active)).toHaveLength(2));
    // Another source of the basics course: a direct grant through the access interface.
    const direct = await e2e.http('POST', '/api/courses/subscribe', { key: platform.apiKey, body: { subscriptions: [{ email, course_id: basics.id }] } });
    expect(direct.status, JSON.stringify(direct.body)).toBeLessThan(300);
    await eventually(async () => {
      const sources = await e2e.stack.orm.em.fork().getConnection().execute(
        `select s.id from access_sources s join participants p on p.id = s.participant_id
          where s.platform_id = ? and p.email = ? and s.course_id = ? and s.order_id is null and s.revoked_at is null`,
        [platform.id, email, basics.id],
      );
      expect(sources).toHaveLength(1);
    });

    const changed = await e2e.http('PATCH', `/api/v1/orders/${order.id}/status`, { key: shop.key, body: { order_status_id: shop.statuses.Canceled } });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const effect = await eventually(async () => {
      const rows = (await effectsOf(shop.id, order.id)).filter((e) => e.effect === 'course_access' && e.detail.includes('cancelled'));
      expect(rows).toHaveLength(1);
      return rows[0];
    });
    expect(effect).toMatchObject({ status: 'done' });
    const accessOrder = await accessOrderOf(platform.id, `shop-${shop.id}-${order.ordinal_number}`);
    expect(accessOrder!.status).toBe('cancelled');
    await e2e.stack.temporal.workflow.getHandle(`platform/${platform.id}/order/${accessOrder!.id}/cancel`).result();

    const participant = await e2e.participantWhen(platform.id, email, (data) => expect(data.courses.filter((c: any) => c.active)).toHaveLength(1));
    const byCourse = Object.fromEntries(participant.courses.map((c: any) => [c.course_id, c]));
    expect(byCourse[basics.id]).toMatchObject({ active: true, access_level: 0 });
    expect(byCourse[masterclass.id]).toMatchObject({ active: false, visible_lesson_ids: [] });
  });

  it('grants nothing when the order is canceled by the time the clearing effect runs (a cancel that ran first found nothing)', async () => {
    const order = await adminPost(e2e.stack.app, `/admin/v1/shops/${shop.id}/orders`, { email: uniqueEmail('race'), items: [{ product_id: productId }] });
    await e2e.stack.orm.em.fork().getConnection().execute('update shop_orders set paid = true, order_status_id = ? where id = ?', [shop.statuses.Canceled, order.id]);
    const activities = createActivities({ orm: e2e.stack.orm, platformUrlTemplate: 'https://{subdomain}.test.local' });
    const step = await activities.registerCourseAccessOrder({ shopId: shop.id, orderId: order.id, source: 'clear' });
    expect(step).toEqual({ outcome: { status: 'skipped', detail: 'the order is canceled or returned' } });
    expect(await accessOrderOf(platform.id, `shop-${shop.id}-${order.ordinal_number}`)).toBeUndefined();
  });

  it('a status that is neither canceled nor returned leaves the access order alone', async () => {
    const email = uniqueEmail('sent');
    const order = await placeAndClear(shop, productId, email);
    await effectWhen(shop.id, order.id, 'course_access');
    const changed = await e2e.http('PATCH', `/api/v1/orders/${order.id}/status`, { key: shop.key, body: { order_status_id: shop.statuses.Sent } });
    expect(changed.status).toBe(200);
    const rows = await effectWhen(shop.id, order.id, 'course_access', 2);
    expect(rows.map((r) => r.status).sort()).toEqual(['done', 'skipped']);
    expect((await accessOrderOf(platform.id, `shop-${shop.id}-${order.ordinal_number}`))!.status).toBe('registered');
  });
});

describe('a shop linked to another platform', () => {
  let other: TestPlatform;
  let otherCourse: TestCourse;
  let otherShop: TestShop;

  beforeAll(async () => {
    other = await createPlatform(e2e.stack.app, 'Other platform');
    otherCourse = await createCourse(e2e.stack.app, other.id);
    otherShop = await createTestShop(e2e.stack.app, 'other');
    expect((await e2e.http('PUT', `/admin/v1/shops/${otherShop.id}/course_platform`, { operator: true, body: { platform_id: other.id } })).status).toBe(200);
  });

  it('cannot sell this platform\'s courses (422 naming course_access)', async () => {
    const res = await e2e.http('POST', '/api/v1/products', { key: otherShop.key, body: { name: 'Stolen', price: '1.00', course_access: [{ course_id: basics.id, access_level: 1 }] } });
    expect(res.status).toBe(422);
    expect(res.body.errors.course_access[0]).toContain(basics.id);
  });

  it('grants its courses on its own platform and never touches this one', async () => {
    const product = await e2e.http('POST', '/api/v1/products', { key: otherShop.key, body: { name: 'Other course', price: '10.00', course_access: [{ course_id: otherCourse.id, access_level: 0 }] } });
    expect(product.status).toBe(201);
    const email = uniqueEmail('elsewhere');
    const order = await placeAndClear(otherShop, product.body.data.id, email);
    await e2e.participantWhen(other.id, email, (data) => expect(data.courses.filter((c: any) => c.active)).toHaveLength(1));
    const [effect] = await effectWhen(otherShop.id, order.id, 'course_access');
    expect(effect!.status).toBe('done');
    const externalId = `shop-${otherShop.id}-${order.ordinal_number}`;
    expect(await accessOrderOf(other.id, externalId)).toBeDefined();
    expect(await accessOrderOf(platform.id, externalId)).toBeUndefined();
    const here = await e2e.http('GET', `/admin/v1/platforms/${platform.id}/participants?email=${encodeURIComponent(email)}`, { operator: true });
    expect(here.status).toBe(404);
  });
});

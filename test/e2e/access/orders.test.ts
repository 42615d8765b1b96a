/** Orders end to end: registration, idempotency, the content rules, cancellation. */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEndToEnd, type EndToEnd } from '../../helpers/e2e.ts';
import { createCourse, createPlatform, lessonIds, uniqueEmail, type TestCourse, type TestPlatform } from '../../helpers/fixtures.ts';

let e2e: EndToEnd;
let platform: TestPlatform;
let courseA: TestCourse;
let courseB: TestCourse;
let courseC: TestCourse;

beforeAll(async () => {
  e2e = await startEndToEnd('e2e-orders');
  platform = await createPlatform(e2e.stack.app);
  [courseA, courseB, courseC] = (await Promise.all([1, 2, 3].map(() => createCourse(e2e.stack.app, platform.id)))) as [TestCourse, TestCourse, TestCourse];
});
afterAll(() => e2e?.close());

const call = (method: string, path: string, body?: unknown, key = platform.apiKey) => e2e.http(method, path, { key, body });
const order = (fields: Record<string, unknown> = {}): Record<string, any> => ({ email: uniqueEmail('buyer'), external_id: `ext-${randomUUID()}`, ordered_contents: [{ course_ids: [courseA.id] }], ...fields });
const levelsOf = (data: any) => Object.fromEntries(data.courses.filter((c: any) => c.active).map((c: any) => [c.course_id, c.access_level]));
const fulfilled = (orderId: string) => e2e.stack.temporal.workflow.getHandle(`platform/${platform.id}/order/${orderId}/fulfil`).result();
const cancelled = (orderId: string) => e2e.stack.temporal.workflow.getHandle(`platform/${platform.id}/order/${orderId}/cancel`).result();

describe('POST /api/orders', () => {
  it('answers 201 {id} and grants the union of course_ids and courses, levels from courses (rules 1-3)', async () => {
    const o = order({
      ordinal_number: 'A/7',
      gift_code: 'GIFT',
      ordered_contents: [
        { product_id: 'p1', product_name: 'Bundle', course_ids: [courseA.id, courseB.id], courses: [{ id: courseB.id, access_level: 1 }, { id: courseC.id }] },
        { product_id: 'p2', file_keys: [{ key: 'ebook.pdf', name: 'E-book', uri: 's3://bucket/ebook.pdf', extra: 1 }] },
      ],
    });
    const res = await call('POST', '/api/orders', { order: o });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.any(String) });
    await fulfilled(res.body.id);

    const data = await e2e.participantWhen(platform.id, o.email, (d) => expect(d.courses).toHaveLength(3));
    expect(levelsOf(data)).toEqual({ [courseA.id]: 0, [courseB.id]: 1, [courseC.id]: 0 });
    expect(data.invited).toBe(true);
    expect(data.courses.find((c: any) => c.course_id === courseB.id).visible_lesson_ids).toEqual(lessonIds(courseB, 1));

    const [stored]: any[] = await e2e.stack.orm.em.fork().getConnection().execute('select ordered_contents, ordinal_number, gift_code from orders where id = ?', [res.body.id]);
    expect(stored.ordered_contents[1].file_keys).toEqual(o.ordered_contents[1].file_keys);
    expect(stored).toMatchObject({ ordinal_number: 'A/7', gift_code: 'GIFT' });

    const fulfilledEvents = (await e2e.events(platform.id, 'order_fulfilled')).filter((e) => e.payload.order.id === res.body.id);
    expect(fulfilledEvents).toHaveLength(1);
    expect(fulfilledEvents[0]?.payload).toMatchObject({ order: { external_id: o.external_id, ordinal_number: 'A/7' }, participant: { email: o.email } });
  });

  it('answers 200 with the same id for a known external_id, also for many identical requests at once', async () => {
    const o = order();
    const replies = await Promise.all(Array.from({ length: 12 }, () => call('POST', '/api/orders', { order: o })));
    expect(replies.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(replies.map((r) => r.body.id)).size).toBe(1);
    const again = await call('POST', '/api/orders', { order: { ...o, ordered_contents: [{ course_ids: [courseC.id] }] } });
    expect(again).toMatchObject({ status: 200, body: { id: replies[0]!.body.id } });
    await fulfilled(replies[0]!.body.id);
    const [{ n }]: any[] = await e2e.stack.orm.em.fork().getConnection().execute('select count(*)::int as n from orders where platform_id = ? and external_id = ?', [platform.id, o.external_id]);
    expect(n).toBe(1);
    const data = await e2e.participantWhen(platform.id, o.email, (d) => expect(d.courses).toHaveLength(1));
    expect(levelsOf(data)).toEqual({ [courseA.id]: 0 });
  });

  it('a repeat after a first request that died before starting the fulfilment grants the stored order, not the repeat', async () => {
    const o = order({ ordered_contents: [{ course_ids: [courseA.id] }] });
    const [{ id }]: any[] = await e2e.stack.orm.em.fork().getConnection().execute(
      `insert into orders (id, platform_id, external_id, email, ordered_contents, status, seq, created_at)
       values (gen_random_uuid(), ?, ?, ?, ?::jsonb, 'registered', nextval('access_command_seq'), now()) returning id`,
      [platform.id, o.external_id, o.email, JSON.stringify(o.ordered_contents)],
    );
    const repeat = await call('POST', '/api/orders', { order: { ...o, email: uniqueEmail('other'), ordered_contents: [{ course_ids: [courseC.id] }] } });
    expect(repeat).toMatchObject({ status: 200, body: { id } });
    await fulfilled(id);
    const data = await e2e.participantWhen(platform.id, o.email, (d) => expect(d.courses).toHaveLength(1));
    expect(levelsOf(data)).toEqual({ [courseA.id]: 0 });
  });

  it.each([
    ['email', { email: undefined }, 'body.order.email'],
    ['email', { email: 'not-mail' }, 'body.order.email'],
    ['external_id', { external_id: undefined }, 'body.order.external_id'],
    ['external_id', { external_id: { a: 1 } }, 'body.order.external_id'],
    ['ordered_contents', { ordered_contents: undefined }, 'body.order.ordered_contents'],
    ['ordered_contents', { ordered_contents: 'x' }, 'body.order.ordered_contents'],
    ['ordered_contents', { ordered_contents: [{ course_ids: ['x'] }] }, 'body.order.ordered_contents.0.course_ids.0'],
  ])('answers 400 naming %s when it is missing or malformed', async (_field, change, key) => {
    const res = await call('POST', '/api/orders', { order: order(change) });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.errors)).toContain(key);
  });

  it('answers 400 for a body without order, for null, and for an unknown or foreign course', async () => {
    expect((await call('POST', '/api/orders', {})).status).toBe(400);
    expect((await call('POST', '/api/orders', { order: null })).status).toBe(400);
    const other = await createPlatform(e2e.stack.app);
    const foreign = await createCourse(e2e.stack.app, other.id);
    const res = await call('POST', '/api/orders', { order: order({ ordered_contents: [{ courses: [{ id: foreign.id, access_level: 1 }] }] }) });
    expect(res.status).toBe(400);
    expect(res.body.errors['body.order.ordered_contents'][0]).toContain(foreign.id);
  });
});

describe('order files and gift codes (issue 40 item 5)', () => {
  const file = (key: string, name: string) => ({ key, name, description: `${name} text`, cover_key: `covers/${key}`, uri: `https://cdn.example.com/${key}`, chat: { id: 1 } });
  const shown = (key: string, name: string) => ({ key, name, description: `${name} text`, cover_key: `covers/${key}`, uri: `https://cdn.example.com/${key}` });

  it("lists a fulfilled order's files in the participant view, the export, the order read and order_fulfilled; a cancellation withdraws only what no other order gives", async () => {
    const email = uniqueEmail('files');
    const first = order({ email, gift_code: 'GIFT-1', ordered_contents: [{ course_ids: [courseA.id], file_keys: [file('a.pdf', 'A'), file('b.pdf', 'B')] }] });
    const second = order({ email, ordered_contents: [{ file_keys: [file('b.pdf', 'B')] }] });
    const one = await call('POST', '/api/orders', { order: first });
    await fulfilled(one.body.id);
    const two = await call('POST', '/api/orders', { order: second });
    await fulfilled(two.body.id);

    await e2e.participantWhen(platform.id, email, (d) => expect(d.files).toEqual([shown('a.pdf', 'A'), shown('b.pdf', 'B')]));
    const exported = await e2e.http('GET', `/admin/v1/platforms/${platform.id}/participants/export?email=${encodeURIComponent(email)}`, { operator: true });
    expect(exported.body.data.files).toEqual([shown('a.pdf', 'A'), shown('b.pdf', 'B')]);
    const read = await e2e.http('GET', `/admin/v1/platforms/${platform.id}/orders/${one.body.id}`, { operator: true });
    expect(read.body.data).toMatchObject({ id: one.body.id, gift_code: 'GIFT-1', status: 'registered', files: [shown('a.pdf', 'A'), shown('b.pdf', 'B')] });
    const [event] = (await e2e.events(platform.id, 'order_fulfilled')).filter((e) => e.payload.order.id === one.body.id);
    expect(event?.payload).toMatchObject({ order: { gift_code: 'GIFT-1' }, files: [shown('a.pdf', 'A'), shown('b.pdf', 'B')] });

    expect((await call('DELETE', `/api/orders/${one.body.id}`)).status).toBe(200);
    const after = await e2e.participantWhen(platform.id, email, (d) => expect(d.files).toEqual([shown('b.pdf', 'B')]));
    expect(after.files).toEqual([shown('b.pdf', 'B')]);
    const cancelledRead = await e2e.http('GET', `/admin/v1/platforms/${platform.id}/orders/${one.body.id}`, { operator: true });
    expect(cancelledRead.body.data).toMatchObject({ status: 'cancelled', gift_code: 'GIFT-1' });
  });

  it('answers 400 naming the member for a file without a key or with a script uri, and 404 for an unknown order read', async () => {
    const noKey = await call('POST', '/api/orders', { order: order({ ordered_contents: [{ course_ids: [courseA.id], file_keys: [{ name: 'x' }] }] }) });
    expect(noKey.status).toBe(400);
    expect(Object.keys(noKey.body.errors)).toContain('body.order.ordered_contents.0.file_keys.0.key');
    const script = await call('POST', '/api/orders', { order: order({ ordered_contents: [{ course_ids: [courseA.id], file_keys: [{ key: 'k', uri: 'javascript:alert(1)' }] }] }) });
    expect(Object.keys(script.body.errors)).toContain('body.order.ordered_contents.0.file_keys.0.uri');
    expect((await e2e.http('GET', `/admin/v1/platforms/${platform.id}/orders/${randomUUID()}`, { operator: true })).status).toBe(404);
  });
});

describe('DELETE /api/orders/:id', () => {
  it('answers 200, withdraws the access the order granted, and 200 again when already cancelled', async () => {
    const o = order({ ordered_contents: [{ courses: [{ id: courseB.id, access_level: 1 }] }] });
    const { body } = await call('POST', '/api/orders', { order: o });
    await fulfilled(body.id);
    const res = await call('DELETE', `/api/orders/${body.id}`);
    expect(res).toMatchObject({ status: 200, body: { id: body.id, status: 'cancelled' } });
    await cancelled(body.id);
    expect((await call('GET', `/api/users/enrollments?email=${o.email}`)).body.courses).toEqual([]);
    expect((await call('DELETE', `/api/orders/${body.id}`)).status).toBe(200);
    const revoked = (await e2e.events(platform.id, 'access_revoked')).filter((e) => e.payload.source.order_id === body.id);
    expect(revoked).toHaveLength(1);
  });

  it('keeps a course that something else also grants, at the level left', async () => {
    const email = uniqueEmail('both');
    const first = await call('POST', '/api/orders', { order: order({ email, ordered_contents: [{ course_ids: [courseA.id], courses: [{ id: courseC.id, access_level: 1 }] }] }) });
    const direct = await call('POST', '/api/courses/subscribe', { subscriptions: { course_id: courseC.id, email } });
    await Promise.all([fulfilled(first.body.id), ...direct.body.workflow_ids.map((id: string) => e2e.stack.temporal.workflow.getHandle(id).result())]);
    await e2e.participantWhen(platform.id, email, (d) => expect(levelsOf(d)).toEqual({ [courseA.id]: 0, [courseC.id]: 1 }));

    await call('DELETE', `/api/orders/${first.body.id}`);
    await cancelled(first.body.id);
    const data = await e2e.participantWhen(platform.id, email, (d) => expect(levelsOf(d)).toEqual({ [courseC.id]: 0 }));
    expect(data.courses.find((c: any) => c.course_id === courseC.id).visible_lesson_ids).toEqual(lessonIds(courseC, 0));
  });

  it('a cancellation that arrives before fulfilment leaves no access behind', async () => {
    const o = order();
    const { body } = await call('POST', '/api/orders', { order: o });
    await call('DELETE', `/api/orders/${body.id}`);
    await Promise.all([fulfilled(body.id), cancelled(body.id)]);
    expect((await call('GET', `/api/users/enrollments?email=${o.email}`)).body.courses).toEqual([]);
  });

  it("answers 404 for an unknown id, a malformed id, and another account's order", async () => {
    const other = await createPlatform(e2e.stack.app);
    const { body } = await call('POST', '/api/orders', { order: order() });
    expect((await call('DELETE', `/api/orders/${randomUUID()}`)).status).toBe(404);
    expect((await call('DELETE', '/api/orders/not-a-uuid')).status).toBe(404);
    const foreign = await call('DELETE', `/api/orders/${body.id}`, undefined, other.apiKey);
    expect(foreign).toMatchObject({ status: 404, body: { error: expect.any(String) } });
  });
});

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSecret } from '../../../adapters/secrets/secret-box.ts';
import { DOMAIN_EVENT_TYPES } from '../../../domain/shared/events.ts';
import { webhookRedeliveryWorkflowId } from '../../../domain/shared/workflow-ids.ts';
import { auditLog, configure, createConfigurationKey, type TestConfigurationKey } from '../../helpers/configuration.ts';
import { createPlatform, type TestPlatform } from '../../helpers/fixtures.ts';
import { startTestApp, type TestStack } from '../../helpers/stack.ts';

let stack: TestStack;
let platform: TestPlatform;
let other: TestPlatform;
let full: TestConfigurationKey;
let reader: TestConfigurationKey;
let writer: TestConfigurationKey;
let appearance: TestConfigurationKey;

beforeAll(async () => {
  stack = await startTestApp('configuration-webhooks');
  [platform, other] = await Promise.all([createPlatform(stack.app, 'Hooks academy'), createPlatform(stack.app, 'Other')]);
  [full, reader, writer, appearance] = await Promise.all([
    createConfigurationKey(stack.app, platform.id),
    createConfigurationKey(stack.app, platform.id, ['read']),
    createConfigurationKey(stack.app, platform.id, ['write_config']),
    createConfigurationKey(stack.app, platform.id, ['read', 'write_appearance']),
  ]);
});
afterAll(() => stack?.close());

const validBody = (extra: Record<string, unknown> = {}) => ({
  name: 'CRM',
  url: 'https://hooks.example.com/coursehub',
  events: ['access_granted', 'order_fulfilled'],
  secret_key: 's3cret-signing-key-0123456789',
  ...extra,
});

async function createWebhook(extra: Record<string, unknown> = {}, key = full.token) {
  const res = await configure(stack.app, 'POST', '/webhooks', key, validBody(extra));
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
}

describe('POST /webhooks', () => {
  it('creates a webhook and never returns its secret', async () => {
    const res = await configure(stack.app, 'POST', '/webhooks', writer.token, validBody());
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({
      data: {
        id: expect.any(String),
        name: 'CRM',
        url: 'https://hooks.example.com/coursehub',
        events: ['access_granted', 'order_fulfilled'],
        active: true,
        secret_key_configured: true,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    });
    expect(res.body).not.toContain('s3cret');
  });

  it('keeps the secret encrypted at rest', async () => {
    const { id } = await createWebhook({ secret_key: 'whsec_c2VjcmV0LWJ5dGVzLWZvci10aGUtdGVzdA==' });
    const [row]: any[] = await stack.orm.em.fork().getConnection().execute('select secret_sealed from webhooks where id = ?', [id]);
    expect(row.secret_sealed).not.toContain('whsec');
    expect(openSecret(row.secret_sealed, stack.app.secretsKey)).toBe('whsec_c2VjcmV0LWJ5dGVzLWZvci10aGUtdGVzdA==');
  });

  it.each([
    ['an unknown event', { events: ['access_granted', 'payment_received'] }, 'events.1'],
    ['no events', { events: [] }, 'events'],
    ['a malformed URL', { url: 'not a url' }, 'url'],
    ['a relative URL', { url: '/hooks' }, 'url'],
    ['a non-http URL', { url: 'ftp://example.com/hook' }, 'url'],
    ['credentials in the URL', { url: 'https://user:pw@example.com/hook' }, 'url'],
    ['an empty name', { name: '' }, 'name'],
    ['a missing secret', { secret_key: undefined }, 'secret_key'],
    ['an empty secret', { secret_key: '' }, 'secret_key'],
    ['an unknown field', { retries: 3 }, 'retries'],
    ['a non-boolean active', { active: 'yes' }, 'active'],
  ])('answers 422 for %s', async (_label, extra, field) => {
    const res = await configure(stack.app, 'POST', '/webhooks', full.token, validBody(extra));
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toEqual({ error: expect.any(String), errors: { [field]: expect.any(Array) } });
  });

  it('names the available events when one is unknown', async () => {
    const res = await configure(stack.app, 'POST', '/webhooks', full.token, validBody({ events: ['nope'] }));
    expect(res.json().errors['events.0'][0]).toContain('lesson_completed');
  });

  it('needs write_config (403) and JSON (415)', async () => {
    expect((await configure(stack.app, 'POST', '/webhooks', reader.token, validBody())).statusCode).toBe(403);
    expect((await configure(stack.app, 'POST', '/webhooks', appearance.token, validBody())).statusCode).toBe(403);
    expect((await configure(stack.app, 'POST', '/webhooks', undefined, validBody())).statusCode).toBe(401);
    const res = await configure(stack.app, 'POST', '/webhooks', full.token, 'name=x', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(res.statusCode).toBe(415);
  });
});

describe('GET /webhooks', () => {
  it('lists the webhooks with meta.available_events, for a read key only', async () => {
    const created = await createWebhook({ name: 'Listed' });
    const res = await configure(stack.app, 'GET', '/webhooks', reader.token);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.meta).toMatchObject({ available_events: [...DOMAIN_EVENT_TYPES], page: 1, per_page: 25 });
    expect(body.meta.available_events).toEqual(['lesson_completed', 'course_completed', 'quiz_passed', 'user_registered', 'access_granted', 'access_revoked', 'order_fulfilled', 'participant_erased']);
    expect(body.data.map((w: { id: string }) => w.id)).toContain(created.id);
    expect(res.body).not.toContain('s3cret');
    expect((await configure(stack.app, 'GET', '/webhooks', writer.token)).statusCode).toBe(403);
  });

  it("shows another platform's webhooks to nobody", async () => {
    const otherKey = await createConfigurationKey(stack.app, other.id);
    const mine = await createWebhook();
    const res = await configure(stack.app, 'GET', '/webhooks', otherKey.token);
    expect(res.json().data.map((w: { id: string }) => w.id)).not.toContain(mine.id);
    expect((await configure(stack.app, 'GET', `/webhooks/${mine.id}`, otherKey.token)).statusCode).toBe(404);
    expect((await configure(stack.app, 'PATCH', `/webhooks/${mine.id}`, otherKey.token, { active: false })).statusCode).toBe(404);
  });
});

describe('GET, PATCH, DELETE /webhooks/:id', () => {
  it('reads one webhook; unknown ids are 404', async () => {
    const created = await createWebhook();
    const res = await configure(stack.app, 'GET', `/webhooks/${created.id}`, reader.token);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual(created);
    expect((await configure(stack.app, 'GET', `/webhooks/${randomUUID()}`, reader.token)).statusCode).toBe(404);
    expect((await configure(stack.app, 'GET', '/webhooks/not-an-id', reader.token)).statusCode).toBe(422);
  });

  it('changes only the fields sent; an omitted or empty secret keeps the stored one', async () => {
    const created = await createWebhook();
    const sealed = async () => (await stack.orm.em.fork().getConnection().execute<any[]>('select secret_sealed from webhooks where id = ?', [created.id]))[0].secret_sealed;
    const before = await sealed();
    let res = await configure(stack.app, 'PATCH', `/webhooks/${created.id}`, writer.token, { active: false, events: ['quiz_passed', 'quiz_passed'] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ name: 'CRM', url: created.url, active: false, events: ['quiz_passed'], secret_key_configured: true });
    res = await configure(stack.app, 'PATCH', `/webhooks/${created.id}`, writer.token, { secret_key: '' });
    expect(res.statusCode).toBe(200);
    expect(await sealed()).toBe(before);
    res = await configure(stack.app, 'PATCH', `/webhooks/${created.id}`, writer.token, { secret_key: 'a-new-secret' });
    expect(res.statusCode).toBe(200);
    expect(openSecret(await sealed(), stack.app.secretsKey)).toBe('a-new-secret');
  });

  it('answers 422 for bad values and 403 without write_config', async () => {
    const created = await createWebhook();
    expect((await configure(stack.app, 'PATCH', `/webhooks/${created.id}`, full.token, { url: 'http//broken' })).statusCode).toBe(422);
    expect((await configure(stack.app, 'PATCH', `/webhooks/${created.id}`, full.token, { events: ['unknown'] })).statusCode).toBe(422);
    expect((await configure(stack.app, 'PATCH', `/webhooks/${created.id}`, reader.token, { active: false })).statusCode).toBe(403);
    expect((await configure(stack.app, 'DELETE', `/webhooks/${created.id}`, reader.token)).statusCode).toBe(403);
  });

  it('deletes a webhook: gone from reads, 404 after', async () => {
    const created = await createWebhook();
    const res = await configure(stack.app, 'DELETE', `/webhooks/${created.id}`, writer.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { id: created.id, deleted: true } });
    expect((await configure(stack.app, 'GET', `/webhooks/${created.id}`, reader.token)).statusCode).toBe(404);
    expect((await configure(stack.app, 'DELETE', `/webhooks/${created.id}`, writer.token)).statusCode).toBe(404);
  });

  it('records every webhook request in the audit log, refused ones included', async () => {
    await configure(stack.app, 'POST', '/webhooks', reader.token, validBody());
    const entries = await auditLog(stack.app, platform.id);
    expect(entries.some((e) => e.method === 'POST' && e.path.endsWith('/webhooks') && e.status === 403 && e.key_prefix === reader.prefix)).toBe(true);
  });
});

describe('GET /webhooks/:id/deliveries', () => {
  it('pages the history 25 at a time, newest first, with each delivery’s attempts newest first', async () => {
    const webhook = await createWebhook();
    const connection = stack.orm.em.fork().getConnection();
    // 27 deliveries, one a minute; the newest has two attempts.
    for (let i = 0; i < 27; i++) {
      const at = new Date(Date.UTC(2026, 0, 1, 0, i));
      const [event]: any[] = await connection.execute(
        `insert into domain_events (id, platform_id, type, payload, operation_key, occurred_at) values (gen_random_uuid(), ?, 'access_granted', '{}', ?, ?) returning id`,
        [platform.id, `test/${randomUUID()}`, at],
      );
      const [delivery]: any[] = await connection.execute(
        `insert into webhook_deliveries (id, platform_id, webhook_id, event_id, event_type, status, attempt_count, redeliveries, created_at, updated_at)
         values (gen_random_uuid(), ?, ?, ?, 'access_granted', ?, ?, 0, ?, ?) returning id`,
        [platform.id, webhook.id, event.id, i === 26 ? 'succeeded' : 'failed', i === 26 ? 2 : 1, at, at],
      );
      const attempts = i === 26 ? [[500, 'HTTP 500'], [200, null]] : [[null, 'refused']];
      for (const [n, [status, error]] of attempts.entries()) {
        await connection.execute(
          `insert into webhook_delivery_attempts (id, platform_id, delivery_id, attempted_at, status_code, duration_ms, error, manual) values (gen_random_uuid(), ?, ?, ?, ?, 12, ?, false)`,
          [platform.id, delivery.id, new Date(at.getTime() + n * 1000), status, error],
        );
      }
    }
    const first = await configure(stack.app, 'GET', `/webhooks/${webhook.id}/deliveries`, reader.token);
    expect(first.statusCode, first.body).toBe(200);
    const page1 = first.json();
    expect(page1.meta).toEqual({ page: 1, per_page: 25, total: 27, total_pages: 2 });
    expect(page1.data).toHaveLength(25);
    expect(page1.data[0]).toMatchObject({ status: 'succeeded', event_type: 'access_granted', attempt_count: 2, created_at: '2026-01-01T00:26:00.000Z' });
    expect(page1.data[0].attempts).toEqual([
      { attempted_at: '2026-01-01T00:26:01.000Z', status_code: 200, duration_ms: 12, error: null, manual: false },
      { attempted_at: '2026-01-01T00:26:00.000Z', status_code: 500, duration_ms: 12, error: 'HTTP 500', manual: false },
    ]);
    const created = page1.data.map((d: { created_at: string }) => d.created_at);
    expect([...created].sort().reverse()).toEqual(created);
    const page2 = (await configure(stack.app, 'GET', `/webhooks/${webhook.id}/deliveries?page=2`, reader.token)).json();
    expect(page2.data.map((d: { created_at: string }) => d.created_at)).toEqual(['2026-01-01T00:01:00.000Z', '2026-01-01T00:00:00.000Z']);
    expect((await configure(stack.app, 'GET', `/webhooks/${webhook.id}/deliveries?page=0`, reader.token)).statusCode).toBe(422);
    expect((await configure(stack.app, 'GET', `/webhooks/${webhook.id}/deliveries`, writer.token)).statusCode).toBe(403);
    expect((await configure(stack.app, 'GET', `/webhooks/${randomUUID()}/deliveries`, reader.token)).statusCode).toBe(404);

    // Redelivery: 404 for an unknown delivery, 403 for a read key, 202 for a finished delivery, 409 while pending.
    const finished = page1.data[1].id;
    expect((await configure(stack.app, 'POST', `/webhooks/${webhook.id}/deliveries/${randomUUID()}/redeliver`, writer.token)).statusCode).toBe(404);
    expect((await configure(stack.app, 'POST', `/webhooks/${webhook.id}/deliveries/${finished}/redeliver`, reader.token)).statusCode).toBe(403);
    const redelivered = await configure(stack.app, 'POST', `/webhooks/${webhook.id}/deliveries/${finished}/redeliver`, writer.token);
    expect(redelivered.statusCode, redelivered.body).toBe(202);
    expect(redelivered.json().data).toMatchObject({ id: finished, status: 'pending' });
    expect((await configure(stack.app, 'POST', `/webhooks/${webhook.id}/deliveries/${finished}/redeliver`, writer.token)).statusCode).toBe(409);
    const handle = stack.temporal.workflow.getHandle(
      webhookRedeliveryWorkflowId({ platformId: platform.id, webhookId: webhook.id, eventId: page1.data[1].event_id, redelivery: 1 }),
    );
    expect((await handle.describe()).type).toBe('deliverWebhook');
    await handle.terminate('no worker in this test');
  });
});

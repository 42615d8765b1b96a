import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_CLEANUP, ensureSchedule, scheduleId } from '../../../worker/schedules.ts';
import { eventually, startTestApp, startTestWorker, type RunningWorker, type TestStack } from '../../helpers/stack.ts';

/** The hourly schedule that forgets expired Idempotency-Key replies, on the real server with the real activity. */
let stack: TestStack;
let worker: RunningWorker;

beforeAll(async () => {
  stack = await startTestApp('idempotency-cleanup');
  worker = await startTestWorker({ taskQueue: stack.taskQueue, orm: stack.orm });
});
afterAll(async () => {
  await stack?.temporal.schedule.getHandle(scheduleId(IDEMPOTENCY_KEY_CLEANUP, stack.taskQueue)).delete().catch(() => undefined);
  await worker?.stop();
  await stack?.close();
});

const tenant = randomUUID();

async function insertKey(expiresInSql: string): Promise<string> {
  const key = randomUUID();
  await stack.orm.em.fork().getConnection().execute(
    `insert into idempotency_keys (tenant_kind, tenant_id, key, fingerprint, state, claimed_at, expires_at) values ('shop', ?, ?, ?, 'done', now() - interval '1 day', now() + interval '${expiresInSql}')`,
    [tenant, key, 'f'.repeat(64)],
  );
  return key;
}

const exists = async (key: string) => (await stack.orm.em.fork().getConnection().execute('select 1 from idempotency_keys where tenant_id = ? and key = ?', [tenant, key])).length === 1;

describe('idempotency-key-cleanup schedule', () => {
  it('is created once (a repeat is a no-op), runs hourly, and when it fires deletes the expired keys and keeps the live ones', async () => {
    const expired = await Promise.all([insertKey('-1 second'), insertKey('-2 days')]);
    const live = await insertKey('1 hour');

    await ensureSchedule(stack.temporal, IDEMPOTENCY_KEY_CLEANUP, stack.taskQueue);
    await ensureSchedule(stack.temporal, IDEMPOTENCY_KEY_CLEANUP, stack.taskQueue);
    const handle = stack.temporal.schedule.getHandle(scheduleId(IDEMPOTENCY_KEY_CLEANUP, stack.taskQueue));
    const described = await handle.describe();
    expect(described.action).toMatchObject({ type: 'startWorkflow', workflowType: 'idempotencyKeyCleanup', taskQueue: stack.taskQueue });
    expect(described.spec.calendars).toEqual([expect.objectContaining({ minute: [{ start: 41, end: 41, step: 1 }], hour: [{ start: 0, end: 23, step: 1 }] })]);

    await handle.trigger();
    await eventually(async () => {
      for (const key of expired) expect(await exists(key)).toBe(false);
    }, { timeoutMs: 60_000, intervalMs: 250 });
    expect(await exists(live)).toBe(true);
  });
});

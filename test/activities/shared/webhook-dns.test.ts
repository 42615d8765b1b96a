/**
 * Issue 16, item 4: a webhook target whose name does not resolve gets an attempt in its delivery
 * history that says so (ENOTFOUND, EAI_AGAIN, or no answer in time), instead of a pending delivery
 * without a reason. The attempt activity is called directly, as the worker would.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActivities, type Activities } from '../../../activities/index.ts';
import { systemResolver, type Resolver } from '../../../activities/webhooks/transport.ts';
import { configure, createConfigurationKey, type TestConfigurationKey } from '../../helpers/configuration.ts';
import { createPlatform, type TestPlatform } from '../../helpers/fixtures.ts';
import { PLATFORM_URL_TEMPLATE, startTestApp, type TestStack } from '../../helpers/stack.ts';

const probe = randomBytes(4).toString('hex');
/** RFC 6761: `.invalid` never resolves. */
const MISSING_HOST = `hooks-${probe}.invalid`;
/** A name whose lookup never answers (a name server that drops the query). */
const SILENT_HOST = `silent-${probe}.example.com`;
const TIMEOUT_MS = 300;

let stack: TestStack;
let platform: TestPlatform;
let key: TestConfigurationKey;
let activities: Activities;
const resolve: Resolver = (hostname) => (hostname === SILENT_HOST ? new Promise(() => undefined) : systemResolver(hostname));

beforeAll(async () => {
  stack = await startTestApp('webhook-dns');
  platform = await createPlatform(stack.app, 'DNS academy');
  key = await createConfigurationKey(stack.app, platform.id);
  activities = createActivities({
    orm: stack.orm,
    platformUrlTemplate: PLATFORM_URL_TEMPLATE,
    secretsKey: stack.app.secretsKey,
    webhooks: { allowlist: [], retrySchedule: [60_000, 60_000], timeoutMs: TIMEOUT_MS, resolve },
  });
});
afterAll(() => stack?.close());

/** A webhook to `url`, an event, its delivery, one attempt; then the delivery as the history shows it. */
async function attemptOnce(url: string) {
  const created = await configure(stack.app, 'POST', '/webhooks', key.token, { name: url, url, events: ['access_granted'], secret_key: 'dns-secret' });
  expect(created.statusCode, created.body).toBe(201);
  const webhookId: string = created.json().data.id;
  const [event] = await stack.orm.em.fork().getConnection().execute<{ id: string }[]>(
    `insert into domain_events (id, platform_id, type, payload, operation_key, occurred_at) values (gen_random_uuid(), ?, 'access_granted', '{}', ?, now()) returning id`,
    [platform.id, `dns-test/${webhookId}`],
  );
  const { deliveryId } = await activities.openWebhookDelivery({ platformId: platform.id, webhookId, eventId: event!.id });
  const started = Date.now();
  const result = await activities.attemptWebhookDelivery({ platformId: platform.id, deliveryId });
  const tookMs = Date.now() - started;
  const history = await configure(stack.app, 'GET', `/webhooks/${webhookId}/deliveries`, key.token);
  expect(history.statusCode, history.body).toBe(200);
  return { result, tookMs, delivery: history.json().data[0] };
}

describe('webhook targets whose name does not resolve', () => {
  it('record the DNS error as the attempt\'s error and stay pending for the next attempt', async () => {
    const { result, delivery } = await attemptOnce(`https://${MISSING_HOST}/hook`);
    expect(result).toMatchObject({ status: 'pending', statusCode: null, nextAttemptInMs: expect.any(Number) });
    expect(delivery).toMatchObject({ status: 'pending', attempt_count: 1, next_attempt_at: expect.any(String) });
    expect(delivery.attempts).toEqual([
      expect.objectContaining({ status_code: null, manual: false, error: expect.stringMatching(new RegExp(`^cannot resolve ${MISSING_HOST}: (ENOTFOUND \\(the name does not exist\\)|EAI_AGAIN \\(temporary DNS failure\\))$`)) }),
    ]);
  });

  it('record a lookup that does not answer in time as EAI_AGAIN, within the attempt timeout', async () => {
    const { result, tookMs, delivery } = await attemptOnce(`https://${SILENT_HOST}/hook`);
    expect(result).toMatchObject({ status: 'pending', statusCode: null });
    expect(tookMs).toBeLessThan(TIMEOUT_MS + 5_000);
    expect(delivery.attempts).toEqual([
      expect.objectContaining({ status_code: null, error: `cannot resolve ${SILENT_HOST}: EAI_AGAIN (no answer within ${TIMEOUT_MS} ms)` }),
    ]);
  });
});

/**
 * Rule 5 (webhooks to private or local network addresses are not sent), as delivery attempts on the
 * real stack WITHOUT the private allowlist: each target is refused before any connection, the
 * delivery is `failed` with one recorded attempt, and nothing reaches the receiver. The transport
 * is guarded as well: had the sender's checks let a non-loopback address through, the guard would
 * refuse to connect and the test would fail on `guard.calls`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActivities } from '../../../activities/index.ts';
import { createConfigurationKey, CONFIGURATION } from '../../helpers/configuration.ts';
import { createCourse, createPlatform, uniqueEmail, type TestPlatform } from '../../helpers/fixtures.ts';
import { httpClient } from '../../helpers/http.ts';
import { eventually, PLATFORM_URL_TEMPLATE, startTestApp, startTestWorker, type RunningWorker, type TestStack } from '../../helpers/stack.ts';
import { loopbackOnlyTransport, startWebhookReceiver, type WebhookReceiver } from '../../helpers/webhook-receiver.ts';

let stack: TestStack;
let worker: RunningWorker;
let receiver: WebhookReceiver;
let http: ReturnType<typeof httpClient>;
let platform: TestPlatform;
let key: string;
const guard = loopbackOnlyTransport();

beforeAll(async () => {
  stack = await startTestApp('e2e-webhooks-ssrf');
  receiver = await startWebhookReceiver();
  const activities = createActivities({
    orm: stack.orm,
    platformUrlTemplate: PLATFORM_URL_TEMPLATE,
    webhooks: { allowlist: [], retrySchedule: [200, 200], timeoutMs: 10_000, transport: guard.transport },
  });
  worker = await startTestWorker({ taskQueue: stack.taskQueue, activities });
  http = httpClient(await stack.app.listen({ port: 0, host: '127.0.0.1' }));
  platform = await createPlatform(stack.app, 'SSRF academy');
  key = (await createConfigurationKey(stack.app, platform.id)).token;
});
afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
  await stack?.close();
});

describe('webhook targets in private or local networks', () => {
  it('refuses every private, loopback, link-local, unique-local, unspecified and mapped form before connecting', async () => {
    const port = receiver.port;
    const targets: [string, RegExp][] = [
      ['http://10.0.0.1/hook', /10\.0\.0\.1 is in the private range/],
      ['http://172.16.0.1/hook', /172\.16\.0\.1 is in the private range/],
      ['http://192.168.1.1/hook', /192\.168\.1\.1 is in the private range/],
      [`http://127.0.0.1:${port}/plain`, /127\.0\.0\.1 is in the loopback range/],
      [`http://127.1:${port}/short`, /127\.0\.0\.1 is in the loopback range/],
      [`http://0.0.0.0:${port}/unspecified`, /0\.0\.0\.0 is in the unspecified range/],
      ['http://169.254.169.254/latest/meta-data/', /169\.254\.169\.254 is in the link-local range/],
      [`http://[::1]:${port}/v6-loopback`, /is in the loopback range/],
      ['http://[fc00::1]/hook', /is in the unique-local range/],
      ['http://[fe80::1]/hook', /is in the link-local range/],
      [`http://[::ffff:127.0.0.1]:${port}/mapped`, /is in the loopback range/],
      [`http://2130706433:${port}/decimal`, /127\.0\.0\.1 is in the loopback range/],
      [`http://0177.0.0.1:${port}/octal`, /127\.0\.0\.1 is in the loopback range/],
      [`http://0x7f.0.0.1:${port}/hex`, /127\.0\.0\.1 is in the loopback range/],
      [`http://localhost:${port}/name`, /localhost resolves to .* is in the loopback range/],
    ];
    const webhooks: { id: string; url: string; reason: RegExp }[] = [];
    for (const [url, reason] of targets) {
      const res = await http('POST', `${CONFIGURATION}/webhooks`, { key, body: { name: url, url, events: ['user_registered'], secret_key: 'ssrf-secret' } });
      expect(res.status, `${url}: ${JSON.stringify(res.body)}`).toBe(201);
      webhooks.push({ id: res.body.data.id, url, reason });
    }

    const course = await createCourse(stack.app, platform.id);
    const grant = await http('POST', '/api/courses/subscribe', { key: platform.apiKey, body: { subscriptions: { course_id: course.id, email: uniqueEmail() } } });
    expect(grant.status).toBe(200);

    for (const { id, url, reason } of webhooks) {
      const delivery = await eventually(async () => {
        const res = await http('GET', `${CONFIGURATION}/webhooks/${id}/deliveries`, { key });
        expect(res.body.data).toHaveLength(1);
        expect(res.body.data[0].status).toBe('failed');
        return res.body.data[0];
      });
      expect(delivery.attempt_count, url).toBe(1);
      expect(delivery.attempts, url).toEqual([{ attempted_at: expect.any(String), status_code: null, duration_ms: expect.any(Number), error: expect.stringMatching(reason), manual: false }]);
      expect(delivery.attempts[0].error).toMatch(/^refused: /);
    }
    expect(guard.calls).toEqual([]);
    expect(receiver.requests()).toEqual([]);
  });
});

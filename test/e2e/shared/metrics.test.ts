/**
 * `/metrics` on both processes, scraped over HTTP: the api's request series by route pattern,
 * status and duration, and the worker's (an OS process as `npm run worker` runs it) Temporal SDK
 * runtime series beside our counters of mails and order effects.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCourse, createPlatform, uniqueEmail } from '../../helpers/fixtures.ts';
import { httpClient } from '../../helpers/http.ts';
import { insertProduct } from '../../helpers/shop-catalogue.ts';
import { adminPost, createTestShop } from '../../helpers/shop.ts';
import { eventually, startTestApp, type TestStack } from '../../helpers/stack.ts';
import { spawnWorkerProcess, type WorkerProcess } from '../../helpers/worker-process.ts';

let stack: TestStack;
let worker: WorkerProcess;
let baseUrl: string;
let http: ReturnType<typeof httpClient>;

beforeAll(async () => {
  stack = await startTestApp('e2e-metrics');
  worker = spawnWorkerProcess({ taskQueue: stack.taskQueue, readyTimeoutMs: 120_000, env: { WORKER_METRICS_PORT: '0' } });
  await worker.ready;
  baseUrl = await stack.app.listen({ port: 0, host: '127.0.0.1' });
  http = httpClient(baseUrl);
});
afterAll(async () => {
  await worker?.kill('SIGTERM');
  await stack?.close();
});

async function scrape(url: string): Promise<string> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
  return res.text();
}

/** The value of one series line (`name{labels} value`), or undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics on the api', () => {
  it('counts requests by method, route pattern and status code, with their durations', async () => {
    const platform = await createPlatform(stack.app, 'Metered academy');
    for (const key of ['wrong-key-1', 'wrong-key-2']) expect((await http('GET', '/api/courses', { key })).status).toBe(401);
    expect((await http('GET', '/api/courses', { key: platform.apiKey })).status).toBe(200);
    // Two platforms' ids, one route pattern: one series, never one per id.
    for (const id of [platform.id, '00000000-0000-4000-8000-000000000000']) await http('GET', `/admin/v1/platforms/${id}/emails`, { operator: true });
    expect((await http('GET', '/no/such/route')).status).toBe(404);

    const text = await scrape(`${baseUrl}/metrics`);
    expect(sample(text, 'http_requests_total{method="GET",route="/api/courses",status_code="401"}')).toBe(2);
    expect(sample(text, 'http_requests_total{method="GET",route="/api/courses",status_code="200"}')).toBe(1);
    expect(sample(text, 'http_request_duration_seconds_count{method="GET",route="/api/courses",status_code="200"}')).toBe(1);
    expect(sample(text, 'http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/api/courses",status_code="200"}')).toBe(1);
    expect(sample(text, 'http_requests_total{method="GET",route="/admin/v1/platforms/:platform_id/emails",status_code="200"}')).toBe(1);
    expect(sample(text, 'http_requests_total{method="GET",route="/admin/v1/platforms/:platform_id/emails",status_code="404"}')).toBe(1);
    expect(sample(text, 'http_requests_total{method="GET",route="unmatched",status_code="404"}')).toBe(1);
    expect(text).not.toContain(platform.id);
    expect(text).toMatch(/^process_cpu_seconds_total \d/m);
  });
});

describe("the worker's /metrics", () => {
  const workerMetricsUrl = () => {
    const found = worker.output().match(/worker metrics at (http:\/\/\S+\/metrics)/);
    expect(found, worker.output()).not.toBeNull();
    return found![1]!;
  };

  it("serves the Temporal SDK's runtime metrics and our counters of mails and order effects", async () => {
    const platform = await createPlatform(stack.app, 'Metered worker academy');
    const course = await createCourse(stack.app, platform.id);
    const granted = await http('POST', '/api/courses/subscribe', { key: platform.apiKey, body: { subscriptions: { course_id: course.id, email: uniqueEmail('metered') } } });
    expect(granted.status).toBe(200);

    const shop = await createTestShop(stack.app, 'metered');
    await http('PATCH', `/admin/v1/shops/${shop.id}`, { operator: true, body: { automatic_invoicing: true } });
    const productId = await insertProduct(stack.orm, shop.id, { name: 'Atlas', price: '20.00' });
    const order = await adminPost(stack.app, `/admin/v1/shops/${shop.id}/orders`, { email: 'ann@example.com', items: [{ product_id: productId }] });
    expect((await http('PATCH', `/api/v1/orders/${order.id}/clear`, { headers: { 'x-api-key': shop.key } })).status).toBe(200);

    const text = await eventually(async () => {
      const scraped = await scrape(workerMetricsUrl());
      // No transport configured: the invitation is recorded in the mail log only.
      expect(sample(scraped, 'coursehub_mails_total{sender="platform",transport="platform",outcome="recorded"}')).toBeGreaterThanOrEqual(1);
      expect(sample(scraped, 'coursehub_order_effects_total{effect="invoice",outcome="done"}')).toBe(1);
      return scraped;
    }, { timeoutMs: 60_000, intervalMs: 500 });
    for (const name of ['coursehub_webhook_attempts_total', 'coursehub_renewal_charges_total', 'coursehub_mails_total', 'coursehub_order_effects_total']) {
      expect(text).toContain(`# TYPE ${name} counter`);
    }
    // The SDK's own: workflow and activity task processing of this worker.
    expect(text).toMatch(/^temporal_workflow_task_execution_latency_(bucket|count)\{/m);
    expect(text).toMatch(new RegExp(`^temporal_\\w+\\{[^}]*task_queue="${stack.taskQueue}"`, 'm'));
  });
});

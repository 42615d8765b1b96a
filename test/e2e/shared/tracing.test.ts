/**
 * One trace from the HTTP request to the grant's activity: the api's request span, the Temporal
 * client's workflow start, the grant workflow (its interceptors are in the bundle) and the grant
 * step it runs as a local activity, exported to an in-memory exporter through the same wiring
 * api/main.ts and worker/main.ts use when OTEL_EXPORTER_OTLP_ENDPOINT is set.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, type Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createActivities } from '../../../activities/index.ts';
import { startTracing, tracingClientInterceptors, type Tracing } from '../../../adapters/tracing.ts';
import { buildApp, type App } from '../../../api/app.ts';
import type { Orm } from '../../../db/orm.ts';
import { bundleWorkflows, createWorker } from '../../../worker/create-worker.ts';
import { createCourse, createPlatform, uniqueEmail } from '../../helpers/fixtures.ts';
import { httpClient } from '../../helpers/http.ts';
import { ADMIN_TOKEN, eventually, openTestOrm, PLATFORM_URL_TEMPLATE, uniqueTaskQueue } from '../../helpers/stack.ts';

const exporter = new InMemorySpanExporter();
/** What reached a collector over OTLP/HTTP (JSON): the spans as the exporter serialized them. */
const collected: { name: string; spanId: string; parentSpanId?: string; traceId: string }[] = [];
let collector: Server;
let tracing: Tracing;
let orm: Orm;
let client: Client;
let app: App;
let worker: Worker;
let running: Promise<void>;
let workerConnection: NativeConnection;
let http: ReturnType<typeof httpClient>;

beforeAll(async () => {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  collector = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      for (const resource of body.resourceSpans ?? []) for (const scope of resource.scopeSpans ?? []) collected.push(...scope.spans);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  const otlp = new SimpleSpanProcessor(new OTLPTraceExporter({ url: `http://127.0.0.1:${(collector.address() as AddressInfo).port}/v1/traces` }));
  tracing = startTracing('coursehub-test', both(new SimpleSpanProcessor(exporter), otlp));
  orm = await openTestOrm();
  const taskQueue = uniqueTaskQueue('e2e-tracing');
  client = new Client({ connection: await Connection.connect({ address: inject('temporalAddress') }), namespace: 'default', interceptors: tracingClientInterceptors(tracing) });
  app = await buildApp({ orm, temporal: client, taskQueue, adminToken: ADMIN_TOKEN, rateLimits: { enabled: false }, tracing: true });
  workerConnection = await NativeConnection.connect({ address: inject('temporalAddress') });
  worker = await createWorker({
    connection: workerConnection,
    namespace: 'default',
    taskQueue,
    activities: createActivities({ orm, platformUrlTemplate: PLATFORM_URL_TEMPLATE }),
    workflowBundle: await bundleWorkflows({ tracing: true }),
    tracing,
  });
  running = worker.run();
  http = httpClient(await app.listen({ port: 0, host: '127.0.0.1' }));
});
afterAll(async () => {
  worker?.shutdown();
  await running;
  await workerConnection?.close();
  await app?.close();
  await client?.connection.close();
  await orm?.close();
  await tracing?.shutdown();
  collector?.close();
});

function both(a: SpanProcessor, b: SpanProcessor): SpanProcessor {
  return {
    onStart: (span, parent) => (a.onStart(span, parent), b.onStart(span, parent)),
    onEnd: (span) => (a.onEnd(span), b.onEnd(span)),
    forceFlush: () => Promise.all([a.forceFlush(), b.forceFlush()]).then(() => undefined),
    shutdown: () => Promise.all([a.shutdown(), b.shutdown()]).then(() => undefined),
  };
}

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe('tracing', () => {
  it('POST /api/courses/subscribe -> StartWorkflow -> RunWorkflow -> the grant step (a local activity) is one trace', async () => {
    const platform = await createPlatform(app, 'Traced academy');
    const course = await createCourse(app, platform.id);
    exporter.reset();
    const caller = '0af7651916cd43dd8448eb211c80319c';
    const res = await http('POST', '/api/courses/subscribe', {
      key: platform.apiKey,
      headers: { traceparent: `00-${caller}-b7ad6b7169203331-01` },
      body: { subscriptions: { course_id: course.id, email: uniqueEmail('traced') } },
    });
    expect(res.status).toBe(200);

    const spans = await eventually(async () => {
      const all = exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === caller);
      // Workflow spans leave the sandbox through the sink once they end (the workflow's, when it completes).
      expect(all.map((s) => s.name)).toEqual(expect.arrayContaining(['StartActivity:grantCourse', 'RunActivity:grantCourse', 'RunWorkflow:grantCourseAccess']));
      return all;
    }, { timeoutMs: 60_000, intervalMs: 250 });
    const byName = (name: string) => {
      const found = spans.find((s) => s.name === name);
      expect(found, `${name} in ${spans.map((s) => s.name).join(', ')}`).toBeDefined();
      return found!;
    };

    // The caller's traceparent is continued; each span is the child of the one before.
    const request = byName('POST /api/courses/subscribe');
    expect(parentOf(request)).toBe('b7ad6b7169203331');
    expect(request.attributes['http.response.status_code']).toBe(200);
    const start = byName('StartWorkflow:grantCourseAccess');
    expect(parentOf(start)).toBe(request.spanContext().spanId);
    const run = byName('RunWorkflow:grantCourseAccess');
    expect(parentOf(run)).toBe(start.spanContext().spanId);
    const schedule = byName('StartActivity:grantCourse');
    expect(parentOf(schedule)).toBe(run.spanContext().spanId);
    const activity = byName('RunActivity:grantCourse');
    expect(parentOf(activity)).toBe(schedule.spanContext().spanId);
    // The workflow's spans carry the names the OTLP exporter reads.
    expect(run.instrumentationScope.name).toBeTruthy();
    expect(run.resource.attributes['service.name']).toBe('coursehub-test');

    // And so over OTLP: the collector receives the same chain, the workflow's spans with their parents.
    const sent = await eventually(async () => {
      const names = new Map(collected.filter((c) => c.traceId === caller).map((c) => [c.name, c]));
      for (const name of ['POST /api/courses/subscribe', 'StartWorkflow:grantCourseAccess', 'RunWorkflow:grantCourseAccess', 'StartActivity:grantCourse', 'RunActivity:grantCourse']) expect(names.has(name), name).toBe(true);
      return names;
    }, { timeoutMs: 30_000, intervalMs: 250 });
    expect(sent.get('RunWorkflow:grantCourseAccess')!.parentSpanId).toBe(sent.get('StartWorkflow:grantCourseAccess')!.spanId);
    expect(sent.get('StartActivity:grantCourse')!.parentSpanId).toBe(sent.get('RunWorkflow:grantCourseAccess')!.spanId);
  });
});

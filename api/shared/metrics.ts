import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import { z } from 'zod';

/** The process's own series (CPU, memory, event loop, GC), collected once per process however many apps it builds. */
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/** Seconds; from a fast read to a slow batch. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * `GET /metrics` (Prometheus text): `http_requests_total` and `http_request_duration_seconds` by
 * method, route pattern (`/api/v1/orders/:id`, never the raw URL: one series per route, not per
 * id; `unmatched` for a 404 no route answered) and status code, plus the process's default series.
 * For the operator's scraper: a deployment does not route `/metrics` from the public internet.
 */
export const metricsPlugin = fp(
  async (app: FastifyInstance) => {
    const registry = new Registry();
    const labelNames = ['method', 'route', 'status_code'] as const;
    const requests = new Counter({ name: 'http_requests_total', help: 'HTTP requests answered, by method, route pattern and status code', labelNames, registers: [registry] });
    const durations = new Histogram({ name: 'http_request_duration_seconds', help: 'Time to answer an HTTP request, by method, route pattern and status code', labelNames, buckets: DURATION_BUCKETS, registers: [registry] });

    // A callback hook: no promise per request (issue 26 item 4).
    app.addHook('onResponse', (request, reply, done) => {
      const labels = { method: request.method, route: request.routeOptions.url ?? 'unmatched', status_code: String(reply.statusCode) };
      requests.inc(labels);
      durations.observe(labels, reply.elapsedTime / 1000);
      done();
    });

    const merged = Registry.merge([registry, processMetrics()]);
    app.get(
      '/metrics',
      {
        schema: {
          operationId: 'admin.metrics.get',
          summary: 'Prometheus metrics of this api process',
          description: 'Requests by route pattern, status and duration, and the process\'s own series, in the Prometheus text format.',
          response: { 200: z.any().describe('Prometheus text exposition format') },
        },
      },
      async (_request, reply) => reply.type(merged.contentType).send(await merged.metrics()),
    );
  },
  { name: 'metrics' },
);

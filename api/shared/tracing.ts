import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyRequest {
    /** This request's server span (tracing on only). */
    span: Span | null;
  }
}

/**
 * A server span per request, named by method and route pattern (`POST /api/courses/subscribe`),
 * continuing a caller's W3C `traceparent` when it sends one. The handler runs inside the span's
 * context, so a workflow it starts (the Temporal client's interceptor) is a child of the request.
 * Registered only when tracing is on (adapters/tracing.ts).
 */
export const tracingPlugin = fp(
  async (app: FastifyInstance) => {
    const tracer = trace.getTracer('coursehub-api');
    app.decorateRequest('span', null);
    app.addHook('onRequest', async (request) => {
      const parent = propagation.extract(ROOT_CONTEXT, request.headers);
      const route = request.routeOptions.url;
      request.span = tracer.startSpan(
        route ? `${request.method} ${route}` : request.method,
        { kind: SpanKind.SERVER, attributes: { 'http.request.method': request.method, 'url.path': request.url.split('?')[0], ...(route && { 'http.route': route }) } },
        parent,
      );
    });
    // After the body is parsed (its stream events lose the async context): the handler and what it awaits run in the span.
    app.addHook('preHandler', (request, _reply, done) => {
      if (!request.span) return done();
      context.with(trace.setSpan(context.active(), request.span), done);
    });
    app.addHook('onResponse', async (request, reply) => {
      const span = request.span;
      if (!span) return;
      span.setAttribute('http.response.status_code', reply.statusCode);
      if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
  },
  { name: 'tracing' },
);

/**
 * OpenTelemetry tracing for the api and the worker (README "Traces"): on when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set, spans batched to that OTLP/HTTP collector; off otherwise,
 * and then nothing is registered at all (no tracer, no interceptors, no overhead).
 */
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes, type Resource } from '@opentelemetry/resources';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry';
import type { ClientOptions } from '@temporalio/client';

export interface Tracing {
  /** Where every span ends up; the worker hands it the workflows' spans too (their sink). */
  spanProcessor: SpanProcessor;
  resource: Resource;
  /** Flushes what is buffered and stops. */
  shutdown(): Promise<void>;
}

/**
 * Registers the process's tracer provider (AsyncLocalStorage context, W3C trace context
 * propagation) with `spanProcessor`; nothing is instrumented automatically: the api's request
 * spans and Temporal's interceptors make the spans.
 */
export function startTracing(serviceName: string, spanProcessor: SpanProcessor): Tracing {
  const resource = resourceFromAttributes({ 'service.name': serviceName });
  const sdk = new NodeSDK({ resource, spanProcessors: [spanProcessor], instrumentations: [], metricReaders: [], logRecordProcessors: [], autoDetectResources: false });
  sdk.start();
  return { spanProcessor, resource, shutdown: () => sdk.shutdown() };
}

/** Tracing to OTEL_EXPORTER_OTLP_ENDPOINT (OTLP over HTTP, the exporter's own OTEL_* settings apply), or null when unset. */
export function tracingFromEnvironment(serviceName: string, env: Record<string, string | undefined> = process.env): Tracing | null {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT) return null;
  return startTracing(env.OTEL_SERVICE_NAME || serviceName, new BatchSpanProcessor(new OTLPTraceExporter()));
}

/** The Temporal client's interceptors: a workflow start carries the caller's trace context in its headers. */
export function tracingClientInterceptors(tracing: Tracing | null): ClientOptions['interceptors'] {
  return tracing ? { workflow: [new OpenTelemetryWorkflowClientInterceptor()] } : undefined;
}

import { createRequire } from 'node:module';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { makeWorkflowExporter, OpenTelemetryActivityInboundInterceptor, OpenTelemetryActivityOutboundInterceptor } from '@temporalio/interceptors-opentelemetry';
import type { WorkerOptions } from '@temporalio/worker';
import type { Tracing } from '../adapters/tracing.ts';

/**
 * The workflow side of tracing, bundled into the workflow code when tracing is on: a workflow
 * continues the trace its start carried, and every activity, local activity and child workflow it
 * schedules is a span of that trace (the SDK's interceptors; their spans leave the sandbox through
 * the `exporter` sink).
 */
export const TRACING_WORKFLOW_MODULES = [createRequire(import.meta.url).resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors')];

/** The worker's share: activity spans (local activities included) and the sink for the workflows' spans. */
export function workerTracingOptions(tracing: Tracing): Pick<WorkerOptions, 'interceptors' | 'sinks'> {
  // The sink's processor: it is handed the workflows' spans in the 1.x SDK shape (see currentShape).
  const workflowSpans = {
    onStart: () => undefined,
    onEnd: (span: LegacySpan) => tracing.spanProcessor.onEnd(currentShape(span)),
    forceFlush: () => tracing.spanProcessor.forceFlush(),
    shutdown: async () => undefined,
  };
  type ProcessorParameter = Parameters<typeof makeWorkflowExporter>[0];
  type ResourceParameter = Parameters<typeof makeWorkflowExporter>[1];
  return {
    interceptors: {
      activity: [(ctx) => ({ inbound: new OpenTelemetryActivityInboundInterceptor(ctx), outbound: new OpenTelemetryActivityOutboundInterceptor(ctx) })],
    },
    sinks: { exporter: makeWorkflowExporter(workflowSpans as unknown as ProcessorParameter, tracing.resource as unknown as ResourceParameter) },
  };
}

/** A workflow span as @temporalio/interceptors-opentelemetry rebuilds it (OpenTelemetry SDK 1.x field names). */
type LegacySpan = ReadableSpan & { parentSpanId?: string; instrumentationLibrary?: ReadableSpan['instrumentationScope'] };

/**
 * Temporal's interceptors are built on the OpenTelemetry SDK 1.x: the workflow spans they rebuild
 * name their parent `parentSpanId` and their scope `instrumentationLibrary`, which the 2.x SDK
 * and OTLP exporter we run read as `parentSpanContext` and `instrumentationScope`; without this the
 * exported workflow spans would lose their parent (and the trace would break in two).
 */
export function currentShape(span: LegacySpan): ReadableSpan {
  const own = span.spanContext();
  const parentSpanContext = span.parentSpanContext ?? (span.parentSpanId ? { traceId: own.traceId, spanId: span.parentSpanId, traceFlags: own.traceFlags } : undefined);
  const instrumentationScope = span.instrumentationScope ?? span.instrumentationLibrary ?? { name: '@temporalio/interceptor-workflow' };
  return { ...span, spanContext: () => own, parentSpanContext, instrumentationScope };
}

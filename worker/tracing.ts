import { createRequire } from 'node:module';
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
  return {
    interceptors: {
      activity: [(ctx) => ({ inbound: new OpenTelemetryActivityInboundInterceptor(ctx), outbound: new OpenTelemetryActivityOutboundInterceptor(ctx) })],
    },
    sinks: { exporter: makeWorkflowExporter(tracing.spanProcessor, tracing.resource) },
  };
}

// A worker's part of tracing (runtime/tracing.ts starts it): spans around each activity, the workflow interceptors
// that make the workflow and turn spans inside the sandbox, and the sink that takes those spans out of it to the
// process's exporter (not called during replay, so a replayed conversation's spans are not sent twice).
import type { ActivityInterceptorsFactory, WorkerOptions } from '@temporalio/worker';
import type { Tracing } from '../runtime/tracing';

/** The workflow interceptor module of a traced worker: Temporal's, with our turn spans. */
export const TRACING_WORKFLOW_MODULE = require.resolve('../workflows/tracing-interceptors');

export interface WorkerTracing {
  sinks: NonNullable<WorkerOptions['sinks']>;
  activityInterceptors: ActivityInterceptorsFactory[];
}

export function workerTracing(tracing: Tracing): WorkerTracing {
  // Loaded only when tracing is on, as in runtime/tracing.ts.
  const otel =
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require('@temporalio/interceptors-opentelemetry') as typeof import('@temporalio/interceptors-opentelemetry');
  const { makeWorkflowExporter, OpenTelemetryActivityInboundInterceptor, OpenTelemetryActivityOutboundInterceptor } =
    otel;
  return {
    sinks: { exporter: makeWorkflowExporter(tracing.spanProcessor, tracing.resource) },
    activityInterceptors: [
      (ctx) => ({
        inbound: new OpenTelemetryActivityInboundInterceptor(ctx),
        outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
      }),
    ],
  };
}

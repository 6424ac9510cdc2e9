// Traces over OTLP, configured the standard way (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT,
// OTEL_EXPORTER_OTLP_HEADERS, OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES; OTEL_SDK_DISABLED=true turns it off);
// off when no endpoint is set. Every process starts it the same way (worker, tool worker, API, npm start); Temporal's
// OpenTelemetry interceptors make the spans of client calls, workflows and activities and carry the context between
// them in Temporal headers. A worker adds its part with worker/worker-tracing.ts; ours are the turn
// (workflows/turn-trace.ts), the model call and the tool call (activities/call-telemetry.ts).
import type { Resource } from '@opentelemetry/resources';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { WorkflowClientInterceptor } from '@temporalio/client';

/** Every setting tracing reads (the compose files pass them through). */
export const TRACING_SETTING_NAMES = [
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  'OTEL_EXPORTER_OTLP_HEADERS',
  'OTEL_SERVICE_NAME',
  'OTEL_RESOURCE_ATTRIBUTES',
  'OTEL_SDK_DISABLED',
] as const;

export interface Tracing {
  /** For Clients: StartWorkflow / update / signal spans, and the context handed to the workflow. */
  clientInterceptors: WorkflowClientInterceptor[];
  /** Where the process's spans go; a worker sends its workflows' spans there too (worker/worker-tracing.ts). */
  spanProcessor: SpanProcessor;
  resource: Resource;
  /** Sends the spans not yet exported; call before the process exits. */
  shutdown(): Promise<void>;
}

export function tracingEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return (
    !!(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) && env.OTEL_SDK_DISABLED !== 'true'
  );
}

/**
 * Registers the process's tracer provider when an OTLP endpoint is configured; undefined (no tracing) otherwise.
 * It reads the process environment, as the OpenTelemetry exporter and resource detector do.
 */
export function startTracing(defaultServiceName: string): Tracing | undefined {
  if (!tracingEnabled()) return undefined;
  // Loaded only when tracing is on: the SDK adds a few hundred milliseconds to every start (the CLI's included).
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { OTLPTraceExporter } =
    require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
  const { envDetectorSync, Resource } =
    require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  const { BatchSpanProcessor } =
    require('@opentelemetry/sdk-trace-base') as typeof import('@opentelemetry/sdk-trace-base');
  const { NodeTracerProvider } =
    require('@opentelemetry/sdk-trace-node') as typeof import('@opentelemetry/sdk-trace-node');
  const { OpenTelemetryWorkflowClientInterceptor } =
    require('@temporalio/interceptors-opentelemetry') as typeof import('@temporalio/interceptors-opentelemetry');
  /* eslint-enable @typescript-eslint/no-require-imports */
  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (the env detector) win over the role's default name.
  const resource = new Resource({ 'service.name': defaultServiceName }).merge(envDetectorSync.detect());
  // The exporter reads the OTEL_EXPORTER_OTLP_* variables itself (endpoint + /v1/traces, headers, timeout).
  const spanProcessor = new BatchSpanProcessor(new OTLPTraceExporter());
  const provider = new NodeTracerProvider({ resource, spanProcessors: [spanProcessor] });
  // Global, with the async-hooks context manager: spans made in activities nest under the activity's own span.
  provider.register();
  return {
    clientInterceptors: [new OpenTelemetryWorkflowClientInterceptor()],
    spanProcessor,
    resource,
    shutdown: () => provider.shutdown(),
  };
}

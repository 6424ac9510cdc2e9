// Traces over OTLP, configured the standard way (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT,
// OTEL_EXPORTER_OTLP_HEADERS, OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES; OTEL_SDK_DISABLED=true turns it off);
// off when no endpoint is set. Every process starts it the same way (worker, tool worker, API, npm start); Temporal's
// OpenTelemetry interceptors make the spans of client calls, workflows and activities and carry the context between
// them in Temporal headers. A worker adds its part with worker/tracing.ts; ours are the turn
// (workflows/turn-trace.ts), the model call and the tool call (activities/telemetry.ts).
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { envDetectorSync, Resource } from '@opentelemetry/resources';
import { BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { WorkflowClientInterceptor } from '@temporalio/client';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry';

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
  /** Where the process's spans go; a worker sends its workflows' spans there too (worker/tracing.ts). */
  spanProcessor: SpanProcessor;
  resource: Resource;
  /** Sends the spans not yet exported; call before the process exits. */
  shutdown(): Promise<void>;
}

export function tracingEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return !!(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) && env.OTEL_SDK_DISABLED !== 'true';
}

/**
 * Registers the process's tracer provider when an OTLP endpoint is configured; undefined (no tracing) otherwise.
 * It reads the process environment, as the OpenTelemetry exporter and resource detector do.
 */
export function startTracing(defaultServiceName: string): Tracing | undefined {
  if (!tracingEnabled()) return undefined;
  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (the env detector) win over the role's default name.
  const resource = new Resource({ 'service.name': defaultServiceName }).merge(envDetectorSync.detect());
  // The exporter reads the OTEL_EXPORTER_OTLP_* variables itself (endpoint + /v1/traces, headers, timeout).
  const spanProcessor = new BatchSpanProcessor(new OTLPTraceExporter());
  const provider = new NodeTracerProvider({ resource, spanProcessors: [spanProcessor] });
  // Global, with the async-hooks context manager: spans made in activities nest under the activity's own span.
  provider.register();
  return { clientInterceptors: [new OpenTelemetryWorkflowClientInterceptor()], spanProcessor, resource, shutdown: () => provider.shutdown() };
}

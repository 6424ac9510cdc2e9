// The worker's metrics: Temporal's runtime serves them for Prometheus at http://METRICS_HOST:METRICS_PORT/metrics —
// its own worker metrics (task slots, latencies, polls, sticky cache) beside ours (core/metric-names.ts), which
// workflows and activities record through its metric meter. One exporter, nothing of ours on the wire.
import { Runtime, type TelemetryOptions } from '@temporalio/worker';
import { METRICS } from '../core/metric-names';
import type { EndpointStatus } from '../core/types';

export interface MetricsSettings {
  host: string;
  port: number;
}

/** Turns last from a fraction of a second to minutes (a delegate's, a slow tool's); a model call costs from fractions
 * of a cent to dollars. */
const BUCKETS: Record<string, number[]> = {
  [METRICS.turnLatency]: [100, 250, 500, 1_000, 2_500, 5_000, 10_000, 30_000, 60_000, 300_000],
  [METRICS.llmCost]: [0.0001, 0.001, 0.01, 0.1, 1],
};

/** The runtime's telemetry: Prometheus when METRICS_PORT is set, else none (Runtime.install's default). */
export function telemetryOf(metrics: MetricsSettings | undefined): TelemetryOptions | undefined {
  if (!metrics) return undefined;
  return {
    metrics: {
      prometheus: {
        bindAddress: `${metrics.host}:${metrics.port}`,
        countersTotalSuffix: true,
        histogramBucketOverrides: BUCKETS,
      },
    },
  };
}

/** Each MCP endpoint's health after a discovery: up (1) or not (0), and how many tools it offers. */
export function recordEndpoints(statuses: EndpointStatus[]): void {
  const meter = Runtime.instance().metricMeter;
  const up = meter.createGauge(
    METRICS.mcpEndpointUp,
    'int',
    '',
    'MCP endpoint answering (1) or not (0); disabled ones are left out',
  );
  const tools = meter.createGauge(METRICS.mcpEndpointTools, 'int', 'tools', 'Tools an MCP endpoint offers');
  for (const s of statuses) {
    if (s.status === 'disabled') continue;
    up.set(s.status === 'ok' ? 1 : 0, { endpoint: s.name, transport: s.transport });
    tools.set(s.toolCount, { endpoint: s.name, transport: s.transport });
  }
}

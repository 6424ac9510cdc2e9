// What activities count for the worker's Prometheus endpoint (METRICS_PORT): model calls, tokens and cost by model
// and goal, tool calls by tool and outcome. They go through Temporal's metric meter, so they leave the process by
// the runtime's own exporter, beside its worker metrics, and carry its namespace / task queue / activity tags.
import { Context } from '@temporalio/activity';
import type { MetricMeter } from '@temporalio/common';
import { METRICS } from '../workflows/metric-names';
import type { Usage } from '../workflows/types';


/** The running activity's meter; none outside an activity (a unit test calling the function directly). */
function meter(): MetricMeter | undefined {
  try {
    return Context.current().metricMeter;
  } catch {
    return undefined;
  }
}

export function recordLlmCall(call: { model: string; goal: string; task: string; outcome: 'ok' | 'failed'; usage?: Usage }): void {
  const m = meter();
  if (!m) return;
  const tags = { model: call.model, goal: call.goal };
  m.createCounter(METRICS.llmCalls, 'calls', 'Model calls by model, goal, task and outcome').add(1, { ...tags, task: call.task, outcome: call.outcome });
  if (!call.usage) return;
  const tokens = m.createCounter(METRICS.llmTokens, 'tokens', 'Tokens by model, goal and direction (input, output)');
  tokens.add(call.usage.inputTokens, { ...tags, direction: 'input' });
  tokens.add(call.usage.outputTokens, { ...tags, direction: 'output' });
  // Counters count whole numbers: cost is a histogram of each call's cost, whose _sum is the total spent.
  if (call.usage.costUsd !== undefined) {
    m.createHistogram(METRICS.llmCost, 'float', 'usd', 'Cost of each model call in US dollars (price table); _sum is the total').record(call.usage.costUsd, tags);
  }
}

/** `outcome`: the ToolOutcome status, or `failed` when the call threw (Temporal retries it). */
export function recordToolCall(call: { tool: string; server?: string; outcome: string }): void {
  meter()
    ?.createCounter(METRICS.toolCalls, 'calls', 'Tool calls by tool, MCP server (none for native tools) and outcome')
    .add(1, { tool: call.tool, server: call.server ?? '', outcome: call.outcome });
}

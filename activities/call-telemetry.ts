// What activities report about themselves: model calls (tokens and cost by model and goal) and tool calls (by tool
// and outcome), as metrics through Temporal's metric meter — so they leave the process by the runtime's own
// exporter, beside its worker metrics, with its namespace / task queue / activity tags — and as trace spans
// (`llm.call`, `tool.call`), children of the activity's own span when tracing is on (runtime/tracing.ts; without it
// the OpenTelemetry API hands out no-op spans).
import { CancelledFailure, Context } from '@temporalio/activity';
import type { MetricMeter } from '@temporalio/common';
import { SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import { METRICS } from '../core/metric-names';
import type { ToolOutcome, Usage } from '../core/types';

const SPANS = { llmCall: 'llm.call', toolCall: 'tool.call' } as const;

/** The running activity's meter; none outside an activity (a unit test calling the function directly). */
function meter(): MetricMeter | undefined {
  try {
    return Context.current().metricMeter;
  } catch {
    return undefined;
  }
}

/**
 * Runs `fn` in a span of ours; a throw marks the span failed and passes on. The error's words are left to the
 * activity's span around it, which records the failure after the secret scrubber (activities/secrets.ts) has seen it.
 */
async function inSpan<T>(name: string, attributes: Record<string, string>, fn: (span: Span) => Promise<T>): Promise<T> {
  return trace.getTracer('agent-orchestrator').startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await fn(span);
    } catch (err) {
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw err;
    } finally {
      span.end();
    }
  });
}

export interface LlmCall {
  /** As LLM_MODEL names it: `provider:model`. */
  model: string;
  goal: string;
  task: string;
  /** A fallback's call (LLM_FALLBACK_MODELS): the model it stands in for. */
  fallbackFrom?: string;
}

/** One model call, in an `llm.call` span; what it spent is counted with `recordLlmUsage`. */
export function observeLlmCall<T>(call: LlmCall, fn: () => Promise<T>): Promise<T> {
  return inSpan(
    SPANS.llmCall,
    {
      'llm.model': call.model,
      'agent.goal': call.goal,
      'llm.task': call.task,
      ...(call.fallbackFrom ? { 'llm.fallback_from': call.fallbackFrom } : {}),
    },
    async () => {
      if (call.fallbackFrom)
        meter()
          ?.createCounter(
            METRICS.llmFallbackCalls,
            'calls',
            'Model calls made by a fallback, by model and what it stood in for',
          )
          .add(1, { model: call.model, from: call.fallbackFrom, goal: call.goal, task: call.task });
      try {
        return await fn();
      } catch (err) {
        // The user stopping the turn is not the model failing.
        if (err instanceof CancelledFailure) throw err;
        meter()
          ?.createCounter(METRICS.llmCalls, 'calls', 'Model calls by model, goal, task and outcome')
          .add(1, { model: call.model, goal: call.goal, task: call.task, outcome: 'failed' });
        throw err;
      }
    },
  );
}

/** What a model call spent: counted in the metrics, and on the call's span. */
export function recordLlmUsage(call: LlmCall, usage: Usage): void {
  trace.getActiveSpan()?.setAttributes({
    'llm.input_tokens': usage.inputTokens,
    'llm.output_tokens': usage.outputTokens,
    ...(usage.cachedInputTokens !== undefined ? { 'llm.cached_input_tokens': usage.cachedInputTokens } : {}),
    ...(usage.costUsd !== undefined ? { 'llm.cost_usd': usage.costUsd } : {}),
  });
  const m = meter();
  if (!m) return;
  const tags = { model: call.model, goal: call.goal };
  m.createCounter(METRICS.llmCalls, 'calls', 'Model calls by model, goal, task and outcome').add(1, {
    ...tags,
    task: call.task,
    outcome: 'ok',
  });
  const tokens = m.createCounter(METRICS.llmTokens, 'tokens', 'Tokens by model, goal and direction (input, output)');
  tokens.add(usage.inputTokens, { ...tags, direction: 'input' });
  tokens.add(usage.outputTokens, { ...tags, direction: 'output' });
  // Of the input counted above, what the provider's prompt cache served (at its cached-input price).
  m.createCounter(
    METRICS.llmCachedInputTokens,
    'tokens',
    "Input tokens read from the provider's prompt cache, by model and goal (part of agent_llm_tokens' input)",
  ).add(usage.cachedInputTokens ?? 0, tags);
  // Counters count whole numbers: cost is a histogram of each call's cost, whose _sum is the total spent.
  if (usage.costUsd !== undefined) {
    m.createHistogram(
      METRICS.llmCost,
      'float',
      'usd',
      'Cost of each model call in US dollars (price table); _sum is the total',
    ).record(usage.costUsd, tags);
  }
}

/** One tool call, in a `tool.call` span, counted by its outcome (`failed`: it threw, and Temporal retries it). */
export function observeToolCall<T extends ToolOutcome>(
  tool: string,
  server: string | undefined,
  call: () => Promise<T>,
): Promise<T> {
  const count = (outcome: string) =>
    meter()
      ?.createCounter(METRICS.toolCalls, 'calls', 'Tool calls by tool, MCP server (none for native tools) and outcome')
      .add(1, { tool, server: server ?? '', outcome });
  return inSpan(SPANS.toolCall, { 'tool.name': tool, ...(server ? { 'mcp.server': server } : {}) }, async (span) => {
    try {
      const outcome = await call();
      span.setAttribute('tool.outcome', outcome.status);
      count(outcome.status);
      return outcome;
    } catch (err) {
      span.setAttribute('tool.outcome', 'failed');
      count('failed');
      throw err;
    }
  });
}

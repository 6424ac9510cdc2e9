// The names of our metrics on the worker's Prometheus endpoint (METRICS_PORT), in one place for the workflow,
// the activities, the worker and the docs. (Workflow-safe: no imports.)
export const METRICS = {
  llmCalls: 'agent_llm_calls',
  llmFallbackCalls: 'agent_llm_fallback_calls',
  llmTokens: 'agent_llm_tokens',
  llmCachedInputTokens: 'agent_llm_cached_input_tokens',
  llmCost: 'agent_llm_cost_usd',
  toolCalls: 'agent_tool_calls',
  turns: 'agent_turns',
  turnLatency: 'agent_turn_latency',
  /** Runs a schedule or a webhook trigger started, by source, name and how they ended. */
  unattendedRuns: 'agent_unattended_runs',
  mcpEndpointUp: 'agent_mcp_endpoint_up',
  mcpEndpointTools: 'agent_mcp_endpoint_tools',
} as const;

// A short workflow that asks a worker what it sees of the MCP registry: clients (`agent endpoints`,
// `agent tools`) get the worker's view, with its secrets, network and last discovery, not their own.
import { config, mcp } from './activity-stubs';
import type { CatalogSummary, ToolSpec } from './types';

export async function DescribeCatalogWorkflow(input: { goalId?: string }): Promise<{ catalog: CatalogSummary; tools: ToolSpec[] }> {
  const described = await mcp.describeCatalog({});
  if (!input.goalId) return described;
  const resolved = await config.resolveGoal(input.goalId);
  return { catalog: described.catalog, tools: resolved.tools };
}

// Short workflows that ask a worker what it sees: clients (`agent agents`, `agent endpoints`, `agent tools`) get
// the worker's view (its goals folder, GOAL_CATEGORIES, secrets, network and last discovery), not their own.
import type { AgentsDescription } from './activity-types';
import { describeAgents, describeCatalog, resolveGoal } from './activity-stubs';
import type { CatalogSummary, ToolSpec } from './types';

export async function DescribeAgentsWorkflow(): Promise<AgentsDescription> {
  return describeAgents();
}

export async function DescribeCatalogWorkflow(input: { goalId?: string }): Promise<{ catalog: CatalogSummary; tools: ToolSpec[] }> {
  const described = await describeCatalog();
  if (!input.goalId) return described;
  // A goal's tools: its native tools and builtins beside the MCP tools it selects.
  const resolved = await resolveGoal(input.goalId);
  return { catalog: described.catalog, tools: resolved.tools };
}

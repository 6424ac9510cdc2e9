// MCP on the activity side: calls over the worker's session pool, and catalog descriptions for clients.
import type { GoalRegistry } from '../goals/registry';
import { selectTools, type McpDiscovery } from '../mcp/catalog';
import { callMcpTool } from '../mcp/call';
import type { McpPool } from '../mcp/pool';
import { ApplicationFailure } from '@temporalio/activity';
import { FailureTypes, type McpActivities } from '../workflows/activity-types';

export interface McpDeps {
  discovery: McpDiscovery;
  pool: McpPool;
}

export function createMcpActivities({ discovery, pool }: McpDeps, goals: GoalRegistry): McpActivities {
  return {
    callMcpTool: (input) => callMcpTool(discovery, pool, input),
    async describeCatalog({ goalId }) {
      const catalog = await discovery.catalog();
      const goal = goalId ? goals.get(goalId) : undefined;
      if (goalId && !goal) {
        throw ApplicationFailure.nonRetryable(`Unknown goal "${goalId}". Known goals: ${goals.ids().join(', ')}.`, FailureTypes.UnknownGoal);
      }
      const tools = goal ? selectTools(catalog, goal.mcp) : catalog.tools;
      return { catalog: { version: catalog.version, endpoints: catalog.endpoints, registryError: catalog.registryError }, tools };
    },
  };
}

// MCP on the activity side: calls over the worker's session pool, and catalog descriptions for clients.
import type { McpDiscovery } from '../mcp/catalog';
import { callMcpTool } from '../mcp/call';
import { whileHeartbeating } from './heartbeat';
import type { McpPool } from '../mcp/pool';
import type { McpActivities } from '../workflows/activity-types';

export interface McpDeps {
  discovery: McpDiscovery;
  pool: McpPool;
}

export function createMcpActivities({ discovery, pool }: McpDeps): McpActivities {
  return {
    callMcpTool: (input) => whileHeartbeating(() => callMcpTool(discovery, pool, input)),
    async describeCatalog() {
      const { version, endpoints, registryError, tools } = await discovery.catalog();
      return { catalog: { version, endpoints, registryError }, tools };
    },
  };
}

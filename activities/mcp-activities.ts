// MCP on the activity side: calls over the worker's session pool, and catalog descriptions for clients.
import type { McpDiscovery } from '../mcp/catalog';
import { callMcpTool } from '../mcp/call';
import { whileHeartbeating } from './heartbeat';
import { capOutcome, DEFAULT_LIMITS, type Limits } from './limits';
import type { McpPool } from '../mcp/pool';
import type { McpActivities } from '../core/activity-types';
import { observeToolCall } from './call-telemetry';

export interface McpDeps {
  discovery: McpDiscovery;
  pool: McpPool;
}

export function createMcpActivities({ discovery, pool }: McpDeps, limits: Limits = DEFAULT_LIMITS): McpActivities {
  return {
    callMcpTool: (input) =>
      observeToolCall(input.ref.tool, input.ref.server, async () =>
        capOutcome(
          await whileHeartbeating((signal) => callMcpTool(discovery, pool, input, signal)),
          limits.maxToolResultChars,
        ),
      ),
    async describeCatalog() {
      const { version, endpoints, registryError, tools } = await discovery.catalog();
      return { catalog: { version, endpoints, registryError }, tools };
    },
  };
}

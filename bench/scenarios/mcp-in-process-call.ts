// callMcpTool() in-process: what the callMcpTool activity runs (catalog cache hit, argument schema check, callTool
// on the pooled session, outcome mapping) without Temporal, to tell the call path's cost from the workflow's.
import { callMcpTool } from '../../endpoints/mcp/call';
import type { McpDiscovery } from '../../endpoints/catalog';
import type { McpPool } from '../../endpoints/mcp/pool';
import type { McpToolRef } from '../../core/types';
import { checkConverted, CONVERT_ARGS } from '../fx';
import type { CallScenario } from '../scenario';
import { timeIt } from '../stats';

export function inProcessCall(
  discovery: McpDiscovery,
  pool: McpPool,
  tool: { name: string; ref: McpToolRef },
): CallScenario {
  const call = async () => {
    const outcome = await callMcpTool(discovery, pool, { ...tool, args: CONVERT_ARGS });
    if (outcome.status !== 'ok') throw new Error(`callMcpTool: ${JSON.stringify(outcome)}`);
    checkConverted('callMcpTool', outcome.result);
  };
  return {
    key: 'callMcpTool',
    name: '   callMcpTool() in-process',
    description:
      'endpoints/mcp/call.ts callMcpTool: catalog cache hit, argument schema check, callTool on the pooled session, outcome mapping; no Temporal.',
    sampler: { samples: [], sample: () => timeIt(call) },
  };
}

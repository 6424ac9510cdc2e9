// An MCP server's tool as the workflow and the model see it: named `<server>__<tool>`, its approval from the entry's
// `requireApproval` and the tool's annotations (MCP's defaults: destructive and not idempotent unless it says so).
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolSpec } from '../../core/types';
import { mcpToolName } from '../tool-names';
import type { EndpointEntry } from '../endpoint-registry';

export function mcpToolSpec(server: string, entry: EndpointEntry, tool: Tool, taken: Set<string>): ToolSpec {
  const a = tool.annotations ?? {};
  const readOnly = a.readOnlyHint === true;
  // MCP's defaults: a tool is destructive and not idempotent unless it says otherwise.
  const destructive = !readOnly && a.destructiveHint !== false;
  const idempotent = readOnly || a.idempotentHint === true;
  const approval: ToolSpec['approval'] =
    entry.requireApproval === 'always'
      ? 'always'
      : entry.requireApproval === 'never'
        ? 'never'
        : entry.requireApproval === 'destructive'
          ? destructive
            ? 'always'
            : 'never'
          : 'default';
  return {
    name: mcpToolName(server, tool.name, taken),
    description: `${tool.description ?? tool.title ?? tool.name} (MCP server "${server}")`,
    category: entry.categories[0] ?? 'mcp',
    inputSchema: (tool.inputSchema ?? { type: 'object' }) as Record<string, unknown>,
    approval,
    kind: 'mcp',
    readOnly,
    mcp: { server, tool: tool.name, idempotent, timeoutMs: entry.timeoutMs },
  };
}

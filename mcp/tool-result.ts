// What an MCP tool's answer becomes for the conversation: a tool outcome the model and the transcript can carry.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolOutcome } from '../core/types';

export function outcomeOf(result: CallToolResult): ToolOutcome {
  const text = (result.content ?? [])
    .map((c) =>
      c.type === 'text' ? c.text : c.type === 'resource' && 'text' in c.resource ? c.resource.text : `[${c.type}]`,
    )
    .join('\n');
  if (result.isError) return { status: 'tool_error', error: text || 'the tool reported an error' };
  if (result.structuredContent) return { status: 'ok', result: result.structuredContent };
  try {
    return { status: 'ok', result: JSON.parse(text) as unknown };
  } catch {
    return { status: 'ok', result: text };
  }
}

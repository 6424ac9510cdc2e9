// What a model answers, as the workflow takes it: its tool calls (arguments that are not JSON said back to it in
// words), the tool set it is offered, and a prompt check's verdict.
import { jsonSchema, NoSuchToolError, tool, type ToolSet, type TypedToolCall } from 'ai';
import type { ToolCall, ToolSpec } from '../../core/types';

/**
 * A tool call as the workflow takes it. Arguments that are not JSON go back to the model as the call's answer (the
 * workflow answers invalid_input), so it corrects them in its next step rather than the call being retried for
 * minutes. (Unknown tool names pass through: the workflow tells the model which tools exist.)
 */
export function toCall(c: TypedToolCall<ToolSet>): ToolCall {
  return c.invalid && !NoSuchToolError.isInstance(c.error)
    ? { id: c.toolCallId, tool: c.toolName, args: {}, malformed: malformedWords(c.toolName, c.input) }
    : { id: c.toolCallId, tool: c.toolName, args: asRecord(c.input) };
}

/** Tool definitions without `execute`: the model proposes calls, the workflow decides and runs them. */
export function toToolSet(tools: ToolSpec[]): ToolSet {
  return Object.fromEntries(
    tools.map((t) => [t.name, tool({ description: t.description, inputSchema: jsonSchema(t.inputSchema as never) })]),
  );
}

function asRecord(input: unknown): Record<string, unknown> {
  // A call to a tool the request did not offer (found by SearchTools, say) may come back unparsed.
  if (typeof input === 'string') {
    try {
      return asRecord(JSON.parse(input));
    } catch {
      return {};
    }
  }
  return input && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
}

/** Lenient: a model that answers with prose or broken JSON fails open, so validation never blocks a user. */
export function parseVerdict(text: string): { valid: boolean; reply: string } {
  const json = /\{[\s\S]*\}/.exec(text)?.[0];
  try {
    const parsed = JSON.parse(json ?? '') as { valid?: unknown; reply?: unknown };
    if (parsed.valid === false) {
      const reply =
        typeof parsed.reply === 'string' && parsed.reply.trim()
          ? parsed.reply
          : "That's outside what I can help with here.";
      return { valid: false, reply };
    }
  } catch {
    // fall through: fail open
  }
  return { valid: true, reply: '' };
}

/** What the model is told of arguments it sent that were not a JSON object. */
function malformedWords(tool: string, input: unknown): string {
  const sent = typeof input === 'string' ? input : JSON.stringify(input);
  return `The arguments you sent for ${tool} are not a JSON object: ${String(sent).slice(0, 200)}. Call it again with its arguments as one JSON object that fits its schema.`;
}

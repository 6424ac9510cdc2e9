// Structured conversation → the AI SDK's provider-neutral messages (native tool calling).
import type { ModelMessage } from 'ai';
import type { ChatMessage } from '../../core/types';

/** Notes (goal switches, system events) travel as user text with this prefix; providers reject mid-chat system turns. */
export const NOTE_PREFIX = '[note] ';

/**
 * Providers want an assistant's tool calls followed at once by their results. Words said while calls were still
 * running (a delegate's question relayed to the user, and the user's answer) belong to those calls: once their
 * results are in (a delegate's envelope says what came of it), the model sees the results alone.
 */
export function toModelMessages(messages: ChatMessage[]): ModelMessage[] {
  return inCallOrder(messages).map(toModelMessage);
}

function inCallOrder(messages: ChatMessage[]): ChatMessage[] {
  const ordered: ChatMessage[] = [];
  const waiting = new Set<string>();
  let held: ChatMessage[] = [];
  for (const m of messages) {
    if (m.kind === 'tool') {
      waiting.delete(m.call.id);
      ordered.push(m);
      if (waiting.size === 0) held = [];
    } else if (waiting.size > 0) {
      held.push(m);
    } else {
      ordered.push(m);
      if (m.kind === 'agent') for (const c of m.toolCalls) waiting.add(c.id);
    }
  }
  return [...ordered, ...held];
}

function toModelMessage(m: ChatMessage): ModelMessage {
  switch (m.kind) {
    case 'user':
      return { role: 'user', content: m.text };
    case 'note':
      return { role: 'user', content: NOTE_PREFIX + m.text };
    case 'agent':
      return {
        role: 'assistant',
        content: [
          ...(m.text ? [{ type: 'text' as const, text: m.text }] : []),
          ...m.toolCalls.map((c) => ({
            type: 'tool-call' as const,
            toolCallId: c.id,
            toolName: c.tool,
            input: c.args,
          })),
        ],
      };
    case 'tool':
      return {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: m.call.id,
            toolName: m.call.tool,
            output: { type: 'json', value: JSON.parse(JSON.stringify(m.outcome)) },
          },
        ],
      };
  }
}

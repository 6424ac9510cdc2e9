// Structured conversation → the AI SDK's provider-neutral messages (native tool calling).
import type { ModelMessage } from 'ai';
import type { ChatMessage } from '../../workflows/types';

/** Notes (goal switches, system events) travel as user text with this prefix; providers reject mid-chat system turns. */
export const NOTE_PREFIX = '[note] ';

export function toModelMessages(messages: ChatMessage[]): ModelMessage[] {
  return messages.map((m): ModelMessage => {
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
            ...m.toolCalls.map((c) => ({ type: 'tool-call' as const, toolCallId: c.id, toolName: c.tool, input: c.args })),
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
  });
}

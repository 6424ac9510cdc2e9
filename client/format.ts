// How conversations read in a terminal.
import type { AgentReply, ChatMessage } from '../workflows/types';

export function formatReply(reply: AgentReply | null): string {
  if (!reply) return '(no reply yet)';
  const lines: string[] = [];
  if (reply.reply) lines.push(`agent> ${reply.reply}`);
  if (reply.pendingToolCall) {
    const { call, description } = reply.pendingToolCall;
    lines.push(`agent wants to run ${call.tool}${description ? ` (${description})` : ''}`);
    lines.push(`  args: ${JSON.stringify(call.args)}`);
    lines.push(`  call id: ${call.id}`);
  }
  if (reply.ended) lines.push('(conversation ended)');
  return lines.join('\n');
}

export function formatHistory(messages: ChatMessage[]): string {
  return messages
    .map((m) => {
      switch (m.kind) {
        case 'user':
          return `user> ${m.text}`;
        case 'agent':
          return [m.text && `agent> ${m.text}`, ...m.toolCalls.map((c) => `  → ${c.tool} ${JSON.stringify(c.args)}`)]
            .filter(Boolean)
            .join('\n');
        case 'tool':
          return `  ← ${m.call.tool}: ${JSON.stringify(m.outcome)}`;
        case 'note':
          return `  (${m.text})`;
      }
    })
    .filter(Boolean)
    .join('\n');
}

// How conversations read in a terminal.
import type { AgentReply, CatalogSummary, ChatMessage, ToolSpec } from '../workflows/types';
import type { ConversationSummary } from './conversation-list';

/** The reply as the CLI prints it; with the conversation id, a pending call also says how to answer it. */
export function formatReply(reply: AgentReply | null, conversationId?: string): string {
  if (!reply) return '(no reply yet)';
  const lines: string[] = [];
  if (reply.reply) lines.push(`agent> ${reply.reply}`);
  if (reply.pendingToolCall) {
    const { call, description } = reply.pendingToolCall;
    lines.push(`agent wants to run ${call.tool}${description ? ` (${description})` : ''}`);
    lines.push(`  args: ${JSON.stringify(call.args)}`);
    lines.push(`  call id: ${call.id}`);
    if (conversationId) lines.push(`  answer: agent confirm ${conversationId} (approve) · --args '<json>' (approve edited) · --reject '<reason>'`);
  }
  if (reply.ended) lines.push('(conversation ended)');
  return lines.join('\n');
}

export function formatConversations(found: ConversationSummary[]): string {
  if (!found.length) return '(no conversations)';
  return found
    .map((c) => [c.id, c.state.replace(/_/g, ' '), c.goal ?? '?', c.startedAt.slice(0, 16).replace('T', ' '), c.owner ? `owner ${c.owner}` : '', c.title ? `"${c.title}"` : ''].filter(Boolean).join('  '))
    .join('\n');
}

export function formatHistory(messages: ChatMessage[]): string {
  return messages
    .map((m) => {
      switch (m.kind) {
        case 'user':
          return m.starter ? `(agent opens: ${m.text})` : `user> ${m.text}`;
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

export function formatEndpoints(catalog: CatalogSummary): string {
  const lines = catalog.endpoints.map(
    (e) =>
      `${e.name.padEnd(16)} ${e.status.padEnd(12)} ${e.transport.padEnd(6)} ${String(e.toolCount).padStart(3)} tools` +
      `${e.categories.length ? `  [${e.categories.join(', ')}]` : ''}${e.error ? `  error: ${e.error}` : ''}`,
  );
  if (lines.length === 0) lines.push('(no MCP endpoints in the registry)');
  if (catalog.registryError) lines.push(`registry error: ${catalog.registryError}`);
  return lines.join('\n');
}

export function formatTools(tools: ToolSpec[], catalog: CatalogSummary): string {
  const lines = tools.map((t) => {
    const where = t.mcp ? `mcp ${t.mcp.server}/${t.mcp.tool}` : t.kind;
    return `${t.name.padEnd(32)} ${where.padEnd(28)} approval: ${t.approval.padEnd(7)} ${t.description}`;
  });
  if (lines.length === 0) lines.push('(no tools)');
  const down = catalog.endpoints.filter((e) => e.status === 'unavailable').map((e) => e.name);
  if (down.length) lines.push(`unavailable endpoints (their tools are missing above): ${down.join(', ')}`);
  if (catalog.registryError) lines.push(`registry error: ${catalog.registryError}`);
  return lines.join('\n');
}

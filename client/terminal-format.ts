// How conversations read in a terminal.
import { type CatalogSummary, type ChatMessage, type ToolSpec, type Usage } from '../core/types';
import {
  type AgentReply,
  type DelegateEnvelope,
  type Delegation,
  type DelegationNode,
} from '../core/conversation-types';
import { formatUsd } from '../core/format';
import type { GoalFileSummary } from '../core/activity-types';
import type { MadeToolSummary } from '../core/made-tools';
import { madeMark, madeToolLines } from './made-tools-format';
import type { HistoryTree } from './conversation-tree';
import type { ConversationSummary } from '../core/conversation-types';
import { formatQuestion } from './question-format';
import { outcomeInWords } from '../core/tool-content';

/** The reply as the CLI prints it; with the conversation id, a pending call also says how to answer it. */
export function formatReply(reply: AgentReply | null, conversationId?: string): string {
  if (!reply) return '(no reply yet)';
  const lines: string[] = [];
  if (reply.reply) lines.push(`agent> ${reply.reply}`);
  if (reply.pendingToolCall) {
    const { call, description, delegate } = reply.pendingToolCall;
    const who = delegate ? `${delegate.agentName} (delegate ${delegate.childId})` : 'agent';
    // A one-line description goes in brackets; a longer one (a made tool's example runs) below, line by line.
    const [first, ...more] = description.split('\n');
    lines.push(`${who} wants to run ${call.tool}${first ? ` (${first})` : ''}`);
    lines.push(...more.map((line) => `  ${line}`));
    // Code (a script, a made tool's body) is printed as code, not as one JSON string full of \n.
    const { code, ...rest } = call.args;
    if (typeof code === 'string') lines.push('  code:', ...code.split('\n').map((line) => `    ${line}`));
    lines.push(`  args: ${JSON.stringify(typeof code === 'string' ? rest : call.args)}`);
    lines.push(`  call id: ${call.id}`);
    if (conversationId)
      lines.push(
        `  answer: agent confirm ${conversationId} (approve) · --args '<json>' (approve edited) · --reject '<reason>'`,
      );
  }
  // A running tool's question: its details under the reply's "<tool> asks: …".
  if (reply.question) lines.push(formatQuestion(reply.question, conversationId));
  if (reply.ended) lines.push('(conversation ended)');
  return lines.join('\n');
}

export function formatConversations(found: ConversationSummary[]): string {
  if (!found.length) return '(no conversations)';
  return found
    .map((c) =>
      [
        c.id,
        c.state.replace(/_/g, ' '),
        c.goal ?? '?',
        c.startedAt.slice(0, 16).replace('T', ' '),
        c.owner ? `owner ${c.owner}` : '',
        c.title ? `"${c.title}"` : '',
      ]
        .filter(Boolean)
        .join('  '),
    )
    .join('\n');
}

/** What hooks decided among `messages` (core/hooks.ts), a line each as the history shows them. */
export function formatHookNotes(messages: ChatMessage[]): string {
  return messages.flatMap((m) => (m.kind === 'note' && m.hook ? [`  (${m.text})`] : [])).join('\n');
}

/** The history; with `delegates` (HistoryTree), each delegate's own history folded under its AskAgent result. */
export function formatHistory(messages: ChatMessage[], delegates?: HistoryTree['delegates']): string {
  return messages
    .map((m) => {
      const delegate = m.kind === 'tool' ? delegates?.get(m.call.id) : undefined;
      if (m.kind === 'tool' && delegate) {
        const inner = formatHistory(delegate.messages, delegate.delegates);
        const envelope = m.outcome.status === 'ok' ? (m.outcome.result as DelegateEnvelope) : null;
        const head = `  ← ${m.call.tool} ${delegate.agentName} (${delegate.childId}): ${envelope ? `${envelope.status}: ${envelope.summary}` : JSON.stringify(m.outcome)}`;
        return [head, ...inner.split('\n').map((line) => `    │ ${line}`)].join('\n');
      }
      switch (m.kind) {
        case 'user':
          return m.starter ? `(agent opens: ${m.text})` : `user> ${m.text}`;
        case 'agent':
          return [m.text && `agent> ${m.text}`, ...m.toolCalls.map((c) => `  → ${c.tool} ${JSON.stringify(c.args)}`)]
            .filter(Boolean)
            .join('\n');
        case 'tool':
          return `  ← ${m.call.tool}: ${JSON.stringify(outcomeInWords(m.outcome))}`;
        case 'note':
          return `  (${m.text})`;
      }
    })
    .filter(Boolean)
    .join('\n');
}

/** A conversation and its delegates, as a tree: id, agent, state, and each delegate's task and answer. */
export function formatTree(node: DelegationNode, prefix = '', last = true, root = true): string {
  const branch = root ? '' : last ? '└─ ' : '├─ ';
  const state = node.envelope ? `${node.envelope.status}: ${node.envelope.summary}` : node.state.replace(/_/g, ' ');
  const lines = [`${prefix}${branch}${node.id}  ${node.agentName} (${node.goalId})  ${state}`];
  const inner = root ? '' : prefix + (last ? '   ' : '│  ');
  if (node.task) lines.push(`${inner}${node.children.length ? '│' : ' '}  task: ${node.task}`);
  node.children.forEach((c, i) => lines.push(formatTree(c, inner, i === node.children.length - 1, false)));
  return lines.join('\n');
}

/** `agent goal-files`: one line per goal file; a created one says by which conversation, when and from what request. */
export function formatGoalFiles(files: GoalFileSummary[]): string {
  if (!files.length) return '(no goal files)';
  return files
    .map((f) => {
      const made = f.provenance
        ? `  created by ${f.provenance.createdBy} at ${f.provenance.createdAt.slice(0, 16).replace('T', ' ')}: "${f.provenance.request}"`
        : '';
      return `${f.goalId.padEnd(28)} ${f.disabled ? 'disabled' : 'enabled '}  ${f.file}${made}`;
    })
    .join('\n');
}

/** One line per delegate, for `agent status`. */
export function formatDelegations(delegations: Delegation[]): string {
  return delegations
    .map(
      (d) =>
        `  delegate ${d.childId}  ${d.agentName}  ${d.envelope ? `${d.envelope.status}: ${d.envelope.summary}` : d.state.replace(/_/g, ' ')}`,
    )
    .join('\n');
}

export function formatEndpoints(catalog: CatalogSummary): string {
  const lines = catalog.endpoints.map(
    (e) =>
      `${e.name.padEnd(16)} ${e.status.replace('_', ' ').padEnd(16)} ${e.transport.padEnd(6)} ${String(e.toolCount).padStart(3)} tools` +
      `${e.categories.length ? `  [${e.categories.join(', ')}]` : ''}${e.error ? `  error: ${e.error}` : ''}`,
  );
  if (lines.length === 0) lines.push('(no MCP endpoints in the registry)');
  if (catalog.registryError) lines.push(`registry error: ${catalog.registryError}`);
  return lines.join('\n');
}

/**
 * `agent tools`: one line per tool, where it comes from and its approval policy. `made`: the worker's made tools,
 * listed after the others (without a goal), or why the worker could not list them.
 */
export function formatTools(tools: ToolSpec[], catalog: CatalogSummary, made?: MadeToolSummary[] | string): string {
  const lines = tools.map((t) => {
    const where = t.mcp
      ? `mcp ${t.mcp.server}/${t.mcp.tool}`
      : t.http
        ? `http ${t.http.api} ${t.http.method} ${t.http.operation}`
        : t.kind === 'made'
          ? madeMark(t.made?.version)
          : t.kind;
    return `${t.name.padEnd(32)} ${where.padEnd(28)} approval: ${t.approval.padEnd(7)} ${t.description}`;
  });
  const offered = typeof made === 'object' ? made.filter((t) => t.current).length : 0;
  if (lines.length + offered === 0) lines.push('(no tools)');
  if (typeof made === 'string') lines.push(`made tools: ${made}`);
  else if (made) lines.push(...madeToolLines(made));
  const down = catalog.endpoints.filter((e) => e.status === 'unavailable').map((e) => e.name);
  if (down.length) lines.push(`unavailable endpoints (their tools are missing above): ${down.join(', ')}`);
  if (catalog.registryError) lines.push(`registry error: ${catalog.registryError}`);
  return lines.join('\n');
}

/**
 * Tokens (with the input the provider's prompt cache served, when any), and their cost when the worker has prices for
 * the models used: `1,234 tokens (1,000 cached), $0.0123`.
 */
export function formatSpend(usage: Usage): string {
  const cached = usage.cachedInputTokens ? ` (${usage.cachedInputTokens.toLocaleString('en-US')} cached)` : '';
  return `${usage.totalTokens.toLocaleString('en-US')} tokens${cached}${usage.costUsd !== undefined ? `, ${formatUsd(usage.costUsd)}` : ''}`;
}

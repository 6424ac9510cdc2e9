// The tools that only read: the agents on offer, the caller's conversations, one conversation's status and history.
// Marked read-only and idempotent, so a client (or our own worker, calling another deployment) may retry them freely.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { formatConversations, formatHistory, formatReply } from '../../client/terminal-format';
import type { ChatMessage } from '../../core/types';
import type { AgentClient } from '../../client/agent-client';
import type { Caller } from '../auth';
import { visibleFeed } from '../conversation-access';
import { answer, approvalOf, approvalShape, conversationId, guarded, questionOf, questionShape } from './shapes';

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const STATE = z.enum(['waiting_for_user', 'working', 'awaiting_approval', 'ended']);

/** On `server`, for `caller`: what the agents server's reading tools need of its deps. */
export function addReadingTools(server: McpServer, { agents, caller }: { agents: AgentClient; caller: Caller }): void {
  server.registerTool(
    'list_agents',
    {
      title: 'List agents',
      description: 'The agents a conversation can start with: goal id, name, what it does, category.',
      inputSchema: {},
      outputSchema: {
        agents: z.array(
          z.object({ goalId: z.string(), agentName: z.string(), description: z.string(), category: z.string() }),
        ),
      },
      annotations: READ,
    },
    guarded(async () => {
      const { agents: offered } = await agents.agents();
      const list = offered.map(({ goalId, agentName, description, category }) => ({
        goalId,
        agentName,
        description,
        category,
      }));
      const text = list.map((a) => `${a.goalId}: ${a.agentName} — ${a.description}`).join('\n') || '(no agents)';
      return answer({ agents: list }, text);
    }),
  );

  server.registerTool(
    'list_conversations',
    {
      title: 'List conversations',
      description: "Your conversations, newest first (an admin key's: everyone's), optionally by state.",
      inputSchema: {
        state: z.enum(['running', 'waiting_for_user', 'working', 'awaiting_approval', 'ended']).optional(),
        limit: z.number().int().min(1).max(100).optional(),
      },
      outputSchema: {
        conversations: z.array(
          z.object({
            id: z.string(),
            goal: z.string().nullable(),
            state: STATE,
            owner: z.string().nullable(),
            title: z.string().nullable(),
            startedAt: z.string(),
          }),
        ),
      },
      annotations: READ,
    },
    guarded(async ({ state, limit }) => {
      const owner = caller.admin ? undefined : (caller.owner ?? undefined);
      const found = await agents.list({ state, limit, owner, taskQueue: agents.taskQueue });
      return answer({ conversations: found }, formatConversations(found));
    }),
  );

  server.registerTool(
    'get_status',
    {
      title: 'Conversation status',
      description:
        "A conversation's state, agent, pending approval, a running tool's question, last reply and token usage.",
      inputSchema: { conversationId },
      outputSchema: {
        conversationId: z.string(),
        goalId: z.string(),
        state: STATE,
        pendingApproval: approvalShape.nullable(),
        question: questionShape.optional(),
        lastReply: z.string().nullable(),
        usage: z.object({ totalTokens: z.number(), costUsd: z.number().optional() }),
      },
      annotations: READ,
    },
    guarded(async ({ conversationId: id }) => {
      const feed = await visibleFeed(agents, caller, id);
      const { lastReply } = await agents.status(id);
      const status = {
        conversationId: id,
        goalId: feed.goalId,
        state: feed.state,
        pendingApproval: approvalOf(feed.pendingApproval),
        ...(feed.question ? { question: questionOf(feed.question) } : {}),
        lastReply: lastReply?.reply ?? null,
        usage: {
          totalTokens: feed.usage.totalTokens,
          ...(feed.usage.costUsd !== undefined ? { costUsd: feed.usage.costUsd } : {}),
        },
      };
      const text = [`conversation ${id}: ${feed.state.replace(/_/g, ' ')} (${feed.goalId})`, formatReply(lastReply)];
      return answer(status, text.join('\n'));
    }),
  );

  server.registerTool(
    'get_history',
    {
      title: 'Conversation history',
      description:
        "A conversation's messages in order: the user's, the agent's (with the tool calls it made), tool results, notes.",
      inputSchema: { conversationId },
      outputSchema: {
        conversationId: z.string(),
        goalId: z.string(),
        messages: z.array(
          z.object({
            seq: z.number(),
            message: z.looseObject({ kind: z.enum(['user', 'agent', 'tool', 'note']) }),
          }),
        ),
      },
      annotations: READ,
    },
    guarded(async ({ conversationId: id }) => {
      const feed = await visibleFeed(agents, caller, id, 0);
      const text = formatHistory(feed.messages.map((m) => m.message as ChatMessage)) || '(no messages yet)';
      return answer({ conversationId: id, goalId: feed.goalId, messages: feed.messages }, text);
    }),
  );
}

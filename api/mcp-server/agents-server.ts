// The MCP server one session gets: our agents as tools, for one caller. Every tool goes through the AgentClient the
// REST routes use, so a conversation started here is a durable conversation like any other (the CLI, the web chat and
// the REST API see it, owned by the key's owner), and the owner rule is the REST routes' own (conversation-access).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { AgentClient } from '../../client/agent-client';
import type { AgentReply } from '../../core/conversation-types';
import type { QuestionAnswer } from '../../core/tool-questions';
import { MAX_PROMPT_CHARS } from '../../core/messages';
import type { Caller } from '../auth';
import { visibleFeed } from '../conversation-access';
import type { StreamBus } from '../../stream/bus';
import { settleByAsking } from './elicitation';
import { reportProgress } from './progress';
import { addReadingTools } from './reading-tools';
import { answer, conversationId, guarded, turnOf, turnShape, turnText, type Extra } from './shapes';

export interface AgentsServerDeps {
  agents: AgentClient;
  caller: Caller;
  defaultGoal: string;
  /** Told each time a tool sends a conversation something, so live views (the web chat's events) look at once. */
  touched?: (id: string) => void;
  /** The reply as it is written, for progress notifications (the API's stream bus). */
  bus?: StreamBus;
}

const INSTRUCTIONS =
  'Durable AI agents. list_agents names them; start_conversation starts one (optionally with a first message) and ' +
  'answers its reply; send_message continues. A reply with a pendingApproval waits for approve_call (optionally with ' +
  'edited args) or reject_call (with a reason) before the agent acts; a reply with a question (a tool asking) waits ' +
  'for answer_question. Conversations outlive this session: keep the conversationId, and get_status / get_history ' +
  'read one later. end_conversation ends it.';

export function createAgentsMcpServer(deps: AgentsServerDeps): McpServer {
  const { agents, caller } = deps;
  const server = new McpServer(
    { name: 'temporal-agent-orchestrator', version: '1.0.0' },
    { capabilities: { logging: {} }, instructions: INSTRUCTIONS },
  );

  /**
   * Sends the conversation something (live views told at once) and answers the agent's turn: progress reported to the
   * client while the agent works, then what the turn waits on asked through elicitation, when the client can.
   */
  async function respond(id: string, extra: Extra, send: () => Promise<AgentReply>, fields: object = {}) {
    const stop = reportProgress(deps.bus, id, extra);
    try {
      const update = send();
      deps.touched?.(id);
      const ask = { server, requestId: extra.requestId, signal: extra.signal, touched: deps.touched };
      const settled = await settleByAsking(agents, id, await update, ask);
      const result = { ...turnOf(id, settled.reply, settled), ...fields };
      return answer(result, turnText(result, settled.reply));
    } finally {
      stop();
    }
  }

  server.registerTool(
    'start_conversation',
    {
      title: 'Start a conversation',
      description:
        'Start a durable conversation with an agent (goalId from list_agents), optionally with a first message. ' +
        "Answers the conversation id, the agent's greeting and its reply to the message.",
      inputSchema: {
        goalId: z.string().min(1).max(200).optional().describe(`The agent's goal id; default ${deps.defaultGoal}`),
        message: z.string().trim().min(1).max(MAX_PROMPT_CHARS).optional().describe('The first message'),
        conversationId: z
          .string()
          .regex(/^[\w.@:+-]{1,200}$/)
          .optional()
          .describe('Your id for it; new by default'),
      },
      outputSchema: { ...turnShape, goalId: z.string(), greeting: z.string() },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    guarded(async ({ goalId = deps.defaultGoal, message, conversationId: wanted }, extra) => {
      await agents.requireGoal(goalId);
      const { id, greeting } = await agents.start(goalId, wanted, caller.owner ?? undefined);
      const fields = { goalId, greeting: greeting?.reply ?? '' };
      const quiet: AgentReply = { promptId: 0, reply: '', pendingToolCall: null, ended: false };
      return respond(id, extra, async () => (message ? agents.say(id, message) : (greeting ?? quiet)), fields);
    }),
  );

  server.registerTool(
    'send_message',
    {
      title: 'Send a message',
      description:
        "Send the user's message to a conversation; answers the agent's reply once it next needs the user, " +
        'with any tool call waiting for approval.',
      inputSchema: { conversationId, text: z.string().trim().min(1).max(MAX_PROMPT_CHARS) },
      outputSchema: turnShape,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    guarded(async ({ conversationId: id, text }, extra) => {
      await visibleFeed(agents, caller, id);
      return respond(id, extra, () => agents.say(id, text));
    }),
  );

  server.registerTool(
    'approve_call',
    {
      title: 'Approve the pending tool call',
      description:
        'Approve the tool call the conversation waits on, optionally with edited args; it runs, and the agent ' +
        'answers. callId (from pendingApproval) makes sure a newer call is never approved by mistake.',
      inputSchema: {
        conversationId,
        callId: z.string().optional().describe('The pending call id; refused when another call waits'),
        args: z.record(z.string(), z.unknown()).optional().describe('Run it with these args instead'),
      },
      outputSchema: turnShape,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    },
    guarded(async ({ conversationId: id, callId, args }, extra) => {
      await visibleFeed(agents, caller, id);
      return respond(id, extra, () => agents.confirm(id, { approve: true, ...(args ? { args } : {}), callId }));
    }),
  );

  server.registerTool(
    'reject_call',
    {
      title: 'Reject the pending tool call',
      description: 'Reject the tool call the conversation waits on; the reason is told to the agent, which answers.',
      inputSchema: {
        conversationId,
        reason: z.string().trim().min(1).max(2_000),
        callId: z.string().optional().describe('The pending call id; refused when another call waits'),
      },
      outputSchema: turnShape,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    guarded(async ({ conversationId: id, reason, callId }, extra) => {
      await visibleFeed(agents, caller, id);
      return respond(id, extra, () => agents.confirm(id, { approve: false, reason, callId }));
    }),
  );

  server.registerTool(
    'answer_question',
    {
      title: "Answer a tool's question",
      description:
        'Answer the question a running tool asks (question in a reply): accept (a form with its fields in ' +
        'content; a link as visited; a request for the model as allowed), decline or cancel. Answers the next turn.',
      inputSchema: {
        conversationId,
        questionId: z.string().optional().describe('The question id; refused when another question is open'),
        action: z.enum(['accept', 'decline', 'cancel']),
        content: z
          .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]))
          .optional()
          .describe("accept: the form's fields, checked against its schema"),
      },
      outputSchema: turnShape,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    guarded(async ({ conversationId: id, questionId, action, content }, extra) => {
      await visibleFeed(agents, caller, id);
      const given: QuestionAnswer = action === 'accept' ? { action, ...(content ? { content } : {}) } : { action };
      return respond(id, extra, () => agents.answer(id, { ...(questionId ? { questionId } : {}), answer: given }));
    }),
  );

  server.registerTool(
    'end_conversation',
    {
      title: 'End a conversation',
      description: 'End the conversation; it keeps its history, and its id may be used again.',
      inputSchema: { conversationId },
      outputSchema: { conversationId: z.string(), ended: z.boolean() },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    guarded(async ({ conversationId: id }) => {
      await visibleFeed(agents, caller, id);
      const ended = agents.end(id);
      deps.touched?.(id);
      await ended;
      return answer({ conversationId: id, ended: true }, `conversation ${id} ended`);
    }),
  );

  addReadingTools(server, deps);
  return server;
}

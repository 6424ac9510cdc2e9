// The API's contract as zod schemas: requests are validated from them and the OpenAPI document is generated
// from them, so the document cannot drift from what the server accepts.
import { z } from '@hono/zod-openapi';
import { MAX_ATTACHMENTS, MAX_PROMPT_CHARS } from '../core/messages';
import { WHILE_BUSY } from '../core/types';

/** Ids the workflow list can hold and a filter can match (client/conversation-list.ts). */
const WORD = /^[\w.@:+-]{1,200}$/;
/** A stored file's id: the sha256 of its content. */
const FILE_ID = /^[0-9a-f]{64}$/;

export const ErrorBody = z.object({ error: z.string(), field: z.string().optional() }).openapi('Error');

export const ConversationIdParam = z.object({
  id: z
    .string()
    .regex(WORD)
    .openapi({ param: { name: 'id', in: 'path' }, example: 'agent-1a2b3c4d' }),
});

/** An MCP endpoint's resource (`agent endpoints <name>` lists them). */
export const ResourceRefBody = z
  .object({
    endpoint: z.string().regex(WORD).openapi({ example: 'everything' }),
    uri: z.string().min(1).max(2_000).openapi({ example: 'demo://resource/static/document/architecture.md' }),
  })
  .strict()
  .openapi('ResourceRef');

/** An MCP endpoint's prompt and its arguments (strings, as MCP has them). */
export const PromptRefBody = z
  .object({
    endpoint: z.string().regex(WORD).openapi({ example: 'everything' }),
    name: z.string().min(1).max(200).openapi({ example: 'args-prompt' }),
    args: z
      .record(z.string(), z.string())
      .optional()
      .openapi({ example: { city: 'Chicago' } }),
  })
  .strict()
  .openapi('PromptRef');

export const StartBody = z
  .object({
    goalId: z
      .string()
      .regex(WORD)
      .optional()
      .openapi({ description: "The agent's goal; the worker's AGENT_GOAL when left out", example: 'goal_hr_pto' }),
    conversationId: z
      .string()
      .regex(WORD)
      .refine((id) => !id.startsWith('ag-ui-'), 'ids beginning ag-ui- are kept for AG-UI threads')
      .optional()
      .openapi({ description: 'Your id for the conversation; a new one when left out' }),
    prompt: PromptRefBody.optional().openapi({
      description: "An MCP server's prompt opens the conversation instead of the goal's starter: its messages first",
    }),
  })
  .strict()
  .openapi('StartConversation');

const WhileBusyField = z.enum(WHILE_BUSY).openapi({
  description:
    'What the message does if the agent is working on a turn: enqueue (wait for the turn to end), interrupt (join ' +
    'the turn: a model call in flight is cancelled, a running tool finishes first), reject (409). Default: the ' +
    "goal's settings.whileBusy, else enqueue",
});

export const MessageBody = z
  .object({
    text: z.string().trim().min(1).max(MAX_PROMPT_CHARS),
    resource: ResourceRefBody.optional().openapi({
      description: 'An MCP resource to attach: the worker reads it, and its content follows the text',
    }),
    files: z
      .array(z.string().regex(FILE_ID, 'a file id is the sha256 POST /api/files answered'))
      .max(MAX_ATTACHMENTS)
      .optional()
      .openapi({ description: 'Files stored before (POST /api/files) to attach, by id' }),
    whileBusy: WhileBusyField.optional(),
  })
  .strict()
  .openapi('UserMessage');

export const EndpointParam = z.object({
  name: z
    .string()
    .regex(WORD)
    .openapi({ param: { name: 'name', in: 'path' }, example: 'everything' }),
});

export const ResourceQuery = z.object({
  uri: z.string().min(1).max(2_000).openapi({ example: 'demo://resource/static/document/architecture.md' }),
});

export const WaitQuery = z.object({
  wait: z
    .enum(['true', 'false'])
    .default('true')
    .openapi({ description: 'false: answer 202 at once; follow the events for the reply' }),
});

export const ConfirmBody = z
  .discriminatedUnion('approve', [
    z
      .object({
        approve: z.literal(true),
        args: z.record(z.string(), z.unknown()).optional(),
        callId: z.string().optional(),
      })
      .strict(),
    z
      .object({ approve: z.literal(false), reason: z.string().trim().min(1).max(2_000), callId: z.string().optional() })
      .strict(),
  ])
  .openapi('ConfirmDecision');

/** The answer to a running tool's question (core/tool-questions.ts: AnsweredQuestion, flattened for HTTP). */
export const AnswerBody = z
  .discriminatedUnion('action', [
    z
      .object({
        questionId: z.string().optional(),
        action: z.literal('accept'),
        content: z
          .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]))
          .optional()
          .openapi({ description: "form: the fields' values, checked against the question's schema" }),
      })
      .strict(),
    z.object({ questionId: z.string().optional(), action: z.enum(['decline', 'cancel']) }).strict(),
  ])
  .openapi('AnswerQuestion', {
    description: 'accept (a form with its content; a URL visited; sampling approved), decline or cancel',
  });

export const GoalBody = z
  .object({ goalId: z.string().regex(WORD) })
  .strict()
  .openapi('ChangeGoal');

export const ListQuery = z.object({
  goal: z.string().regex(WORD).optional(),
  state: z.enum(['waiting_for_user', 'working', 'awaiting_approval', 'running', 'ended']).optional(),
  owner: z.string().regex(WORD).optional().openapi({ description: 'Admin keys only: conversations of this owner' }),
  limit: z.coerce.number().int().min(1).max(200).optional(),
});

/** `?stats=1`: the registry's rows with their usage read from Temporal (docs/registry.md), over `since`. */
export const StatsQuery = z.object({
  stats: z
    .enum(['1', 'true', '0', 'false'])
    .optional()
    .openapi({ description: '1: each row with its usage (calls, errors, p50/p95, cost, last use) from Temporal' }),
  since: z
    .string()
    .max(40)
    .optional()
    .openapi({ description: 'With stats: a duration back from now (7d, 24h) or an ISO time; default 30d' }),
});
export const ToolsQuery = z.object({ goal: z.string().regex(WORD).optional() }).extend(StatsQuery.shape);

export const EventsQuery = z.object({
  since: z.coerce
    .number()
    .int()
    .min(0)
    .optional()
    .openapi({ description: 'Sequence number of the first message wanted (Last-Event-ID wins)' }),
  key: z.string().optional().openapi({ description: 'The API key, for EventSource, which cannot send headers' }),
});

// Responses: described for the document; their shapes are the TypeScript types in core/types.ts.
const Usage = z
  .object({
    inputTokens: z.number(),
    outputTokens: z.number(),
    totalTokens: z.number(),
    cachedInputTokens: z.number().optional().openapi({
      description: "Of inputTokens, those read from the provider's prompt cache (priced at the cached-input price)",
    }),
    costUsd: z.number().optional().openapi({
      description:
        "US dollars at the worker's price table (config/prices.json, PRICES_FILE); absent when no model used has a price",
    }),
  })
  .openapi('Usage');
const ToolCall = z
  .object({ id: z.string(), tool: z.string(), args: z.record(z.string(), z.unknown()) })
  .openapi('ToolCall');
const PendingApproval = z
  .object({
    call: ToolCall,
    tool: z.string(),
    description: z.string(),
    /** A delegate's call (AskAgent): answered here, it goes down to that agent. */
    delegate: z.object({ agentName: z.string(), childId: z.string() }).optional(),
  })
  .openapi('PendingApproval');
// A running tool's question (core/tool-questions.ts: ToolQuestion): answered with POST …/answer.
const QuestionField = z
  .object({ type: z.enum(['string', 'number', 'integer', 'boolean', 'array']) })
  .passthrough()
  .openapi('QuestionField', {
    description:
      'title?, description?, default?, enum?, enumNames?, oneOf? [{const, title}], items? {enum | anyOf}, format?, minimum?, maximum?, minLength?, maxLength?, minItems?, maxItems?',
  });
export const ToolQuestion = z
  .object({
    id: z.string().openapi({ description: 'Send it back as questionId: an answer to an older question is refused' }),
    tool: z.string().openapi({ description: 'The tool asking (<server>__<tool>)' }),
    server: z.string(),
    kind: z.enum(['form', 'url', 'sampling']),
    message: z.string(),
    schema: z
      .object({
        type: z.literal('object'),
        properties: z.record(z.string(), QuestionField),
        required: z.array(z.string()).optional(),
      })
      .optional()
      .openapi({ description: 'form: the fields to fill' }),
    url: z
      .string()
      .optional()
      .openapi({ description: 'url: the page to visit; the answer says whether the user went' }),
    sampling: z
      .object({ prompt: z.string(), systemPrompt: z.string().optional(), maxTokens: z.number() })
      .optional()
      .openapi({ description: 'sampling: what the server wants our model to answer, for the user to approve' }),
    callId: z.string().optional().openapi({ description: 'The tool call asking' }),
    delegate: z
      .object({ agentName: z.string(), childId: z.string() })
      .optional()
      .openapi({ description: "Set when a delegate's tool asks: answered here, it goes down to that agent" }),
  })
  .openapi('ToolQuestion');
export const AgentReply = z
  .object({
    promptId: z.number(),
    reply: z.string(),
    pendingToolCall: PendingApproval.nullable(),
    question: ToolQuestion.nullable()
      .optional()
      .openapi({ description: 'A running tool asks the user: answer it with POST /api/conversations/{id}/answer' }),
    ended: z.boolean(),
  })
  .openapi('AgentReply');
const State = z.enum(['waiting_for_user', 'working', 'awaiting_approval', 'ended']).openapi('ConversationState');
const ChatMessage = z
  .object({ kind: z.enum(['user', 'agent', 'tool', 'note']) })
  .passthrough()
  .openapi('ChatMessage', {
    description:
      "user {text, promptId} | agent {text, toolCalls, usage?} (usage: that step's tokens and cost) | tool {call, outcome} | note {text, forUser?, hook?} (forUser: shown to the user, never sent to the model, e.g. a switch to a fallback model; hook: a hook's decision {hook, point, action: rewrite|block|failed, note, tool?}, docs/hooks.md)",
  });
export const Started = z
  .object({ conversationId: z.string(), goalId: z.string(), greeting: AgentReply.nullable() })
  .openapi('Started');
export const Conversation = z
  .object({
    id: z.string(),
    goalId: z.string(),
    owner: z.string().nullable(),
    state: State,
    messages: z.array(z.object({ seq: z.number(), message: ChatMessage })),
    pendingApproval: PendingApproval.nullable(),
    question: ToolQuestion.nullable().openapi({ description: 'The question a running tool asks the user, if any' }),
    usage: Usage,
    usageByGoal: z
      .record(z.string(), Usage)
      .openapi({ description: "What each goal's agent spent (a delegate counts for its own goal)" }),
    usageByModel: z.record(z.string(), Usage).openapi({
      description: "What each model (`provider:model`) answered for, a fallback's calls under its own name",
    }),
    whileBusy: z.enum(WHILE_BUSY).openapi({
      description: "What a message sent while the agent works does unless it says (the goal's settings.whileBusy)",
    }),
  })
  .openapi('Conversation');
export const ConversationSummary = z
  .object({
    id: z.string(),
    goal: z.string().nullable(),
    state: State,
    owner: z.string().nullable(),
    title: z.string().nullable(),
    startedAt: z.string(),
  })
  .openapi('ConversationSummary');
export const Health = z
  .object({
    ok: z.boolean(),
    temporal: z.object({ reachable: z.boolean(), namespace: z.string(), taskQueue: z.string() }),
  })
  .openapi('Health');
export const Anything = z.object({}).passthrough();

// Files (core/blobs.ts: BlobRef), stored through POST /api/files and attached to messages.
export const FileIdParam = z.object({
  id: z
    .string()
    .regex(FILE_ID, 'a file id is the sha256 of its content, 64 hex digits')
    .openapi({ param: { name: 'id', in: 'path' } }),
});
export const FileUploadQuery = z.object({
  conversationId: z.string().regex(WORD).optional().openapi({ description: 'The conversation that holds the file' }),
  name: z.string().min(1).max(255).optional().openapi({ description: "The file's name (a raw upload has none)" }),
});
export const FileRef = z
  .object({
    id: z.string().openapi({ description: 'sha256 of the content' }),
    size: z.number().int(),
    type: z.string().openapi({ description: 'The media type found in the content', example: 'application/pdf' }),
    name: z.string(),
    preview: z.string(),
    facts: z
      .object({
        pages: z.number().optional(),
        rows: z.number().optional(),
        columns: z.array(z.string()).optional(),
        sheets: z.array(z.string()).optional(),
        chars: z.number().optional(),
        width: z.number().optional(),
        height: z.number().optional(),
      })
      .optional(),
  })
  .openapi('File');

// Made tools: api/made-tool-schemas.ts.
export * from './made-tool-schemas';

// ---- route parts --------------------------------------------------------------------------------------------------

export const json = (schema: z.ZodType, description: string) => ({
  content: { 'application/json': { schema } },
  description,
});
export const errors = {
  400: json(ErrorBody, 'Bad input; `field` names it'),
  401: json(ErrorBody, 'Missing or unknown API key'),
  404: json(ErrorBody, 'Unknown conversation'),
  409: json(ErrorBody, 'Refused by the conversation in its state'),
  413: json(ErrorBody, 'Body too large'),
};
export const body = (schema: z.ZodType) => ({ body: { content: { 'application/json': { schema } }, required: true } });

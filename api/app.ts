// The HTTP API: conversations, their live events (SSE), the agents, endpoints and tools a worker offers. Every
// request is validated against the zod schemas in schemas.ts before anything reaches the workflow; errors
// answer {error, field?} with 400, 401, 404, 409, 413, 422 (a file the readers refuse) or 503. Files: file-routes.ts.
import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { HTTPException } from 'hono/http-exception';
import { serveEvents } from './event-stream';
import type { AgentClient } from '../client/agent-client';
import { HTTP_STATUS, UserError } from '../core/user-error';
import { unknownGoalMessage } from '../goals/unknown-goal';
import type { AgentReply } from '../core/conversation-types';
import type { StreamBus } from '../stream/bus';
import { LOCAL_CALLER, type ApiEnv } from './auth';
import { visibleFeed } from './conversation-access';
import { body, errors, json } from './schemas';
import { addWorkerRoutes } from './worker-routes';
import { Listings } from '../client/listings';
import { UsageStatsReader } from '../views/usage-stats';
import { addOAuthRoutes, OAUTH_CALLBACK_PATH } from './oauth-routes';
import { mountMcpServer } from './mcp-server/mount';
import { mountA2a } from './a2a/mount';
import { mountAgUi } from './ag-ui/mount';
import type { McpSessions } from './mcp-server/sessions';
import { LiveFeeds, eventId, parseEventId, type FeedTiming } from './live-feed';
import { ApiMetrics } from './metrics';
import { addRunRoutes } from './run-routes';
import { addControlRoutes } from './control-routes';
import { addDeployRoutes } from './deploy-routes';
import { Deployments } from '../client/deployments';
import { addFileRoutes, attachmentsOf, carriesFiles } from './file-routes';
import { FileRefusal } from '../readers';
import { FileTooLarge } from '../blobs';
import { RunWatches, type RunWatchTiming } from './run-watch';
import * as S from './schemas';
import { addTriggerRoutes, isTriggerDelivery } from './triggers/trigger-routes';
import { TriggerFile } from './triggers/trigger-registry';
import { addScheduleRoutes } from './schedule-routes';
import { addMemoryRoutes } from './memory-routes';
import { Schedules } from '../client/schedules';
import type { ApiSettings } from './api-settings';

export interface ApiDeps {
  agents: AgentClient;
  bus: StreamBus;
  settings: Pick<
    ApiSettings,
    | 'keys'
    | 'bodyLimitBytes'
    | 'corsOrigins'
    | 'oauth'
    | 'temporalUiUrl'
    | 'registryMaxExecutions'
    | 'deployment'
    | 'triggers'
  >;
  /** The goal a conversation starts with when the request names none (the worker's AGENT_GOAL). */
  defaultGoal: string;
  feedTiming?: FeedTiming;
  runTiming?: RunWatchTiming;
}

export function createApi(deps: ApiDeps): {
  app: OpenAPIHono<ApiEnv>;
  feeds: LiveFeeds;
  runs: RunWatches;
  mcp: McpSessions;
} {
  const { agents, settings } = deps;
  const feeds = new LiveFeeds(agents, deps.bus, deps.feedTiming);
  const temporalUi = settings.temporalUiUrl
    ? { url: settings.temporalUiUrl, namespace: agents.client.options.namespace }
    : undefined;
  const runs = new RunWatches(agents.client, temporalUi, deps.runTiming);
  const app = new OpenAPIHono<ApiEnv>({
    defaultHook: (result, c) => {
      if (result.success) return;
      const issue = result.error.issues[0];
      // A field the schema does not know is named too (zod reports it on the object, with the key aside).
      const unknownKey = issue?.code === 'unrecognized_keys' ? issue.keys[0] : undefined;
      const field = [...(issue?.path ?? []), ...(unknownKey ? [unknownKey] : [])].join('.') || undefined;
      return c.json(
        { error: `${field ? `${field}: ` : ''}${issue?.message ?? 'invalid request'}`, ...(field ? { field } : {}) },
        400,
      );
    },
  });

  app.onError((err, c) => {
    if (err instanceof UserError) return c.json({ error: err.message }, HTTP_STATUS[err.kind]);
    // A file the store or its readers refuse: too big (413), or not read (malformed, a zip bomb, a type not read).
    if (err instanceof FileRefusal) return c.json({ error: err.message }, err instanceof FileTooLarge ? 413 : 422);
    // Hono's own refusals (a body that is not JSON, say) keep their status.
    if (err instanceof HTTPException) return c.json({ error: err.message || 'Bad request.' }, err.status);
    console.error(err);
    return c.json({ error: 'Internal error; the API log has the details.' }, 500);
  });
  app.notFound((c) => c.json({ error: `No route ${c.req.method} ${c.req.path}.` }, 404));

  const metrics = new ApiMetrics(agents);
  app.use('/api/*', metrics.middleware());
  // Prometheus scrapes here; with API keys, only an admin key may (scrape_config: authorization: credentials).
  app.get('/metrics', async (c) => {
    if (settings.keys && !settings.keys.callerOf(c.req.header('authorization'))?.admin) {
      return c.json({ error: 'GET /metrics needs Authorization: Bearer <an API_ADMIN_KEYS key>.' }, 401);
    }
    const { body, contentType } = await metrics.text();
    return c.body(body, 200, { 'content-type': contentType });
  });

  if (settings.corsOrigins.length) app.use('/api/*', cors({ origin: settings.corsOrigins }));
  const apiBodyLimit = bodyLimit({
    maxSize: settings.bodyLimitBytes,
    onError: (c) => c.json({ error: `The request body is over ${settings.bodyLimitBytes} bytes.` }, 413),
  });
  // Files have their own limit (FILE_MAX_MB), applied by the file routes once the caller is known.
  // Webhook deliveries have theirs too (TRIGGER_BODY_LIMIT).
  app.use('/api/*', (c, next) =>
    carriesFiles(c.req.method, c.req.path, c.req.header('content-type')) || isTriggerDelivery(c.req.method, c.req.path)
      ? next()
      : apiBodyLimit(c, next),
  );
  app.use('/api/*', async (c, next) => {
    // The OAuth callback is reached from the authorization server, without a key: its single-use state is the proof.
    if (['/api/health', '/api/openapi.json', OAUTH_CALLBACK_PATH].includes(c.req.path)) return next();
    // A webhook delivery is signed with its trigger's secret instead (api/triggers/signatures.ts).
    if (isTriggerDelivery(c.req.method, c.req.path)) return next();
    if (!settings.keys) {
      c.set('caller', LOCAL_CALLER);
      return next();
    }
    // EventSource cannot send headers: the events stream also takes the key as ?key=.
    const header =
      c.req.header('authorization') ??
      (c.req.path.endsWith('/events') && c.req.query('key') ? `Bearer ${c.req.query('key')}` : undefined);
    const caller = settings.keys.callerOf(header);
    if (!caller)
      return c.json(
        { error: header ? 'Unknown API key.' : 'This API needs Authorization: Bearer <key> (API_KEYS).' },
        401,
      );
    c.set('caller', caller);
    return next();
  });

  /** The conversation, if the caller may see it: another owner's conversation is answered as unknown. */
  async function mine(c: Context<ApiEnv>, id: string): Promise<void> {
    if (!c.get('caller').admin) await visibleFeed(agents, c.get('caller'), id);
  }

  /**
   * A message or an approval for a conversation. With ?wait=false it is answered once the conversation has accepted
   * it (validated and queued; the reply comes as events), else with the agent's reply. Live feeds look at once.
   */
  async function deliver(
    id: string,
    wait: string | undefined,
    later: () => Promise<unknown>,
    now: () => Promise<AgentReply>,
  ): Promise<{ accepted: true; reply?: undefined } | { accepted?: undefined; reply: AgentReply }> {
    if (wait === 'false') {
      await later();
      feeds.poke(id);
      return { accepted: true };
    }
    const reply = now();
    feeds.poke(id);
    return { reply: await reply };
  }

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/conversations',
      summary: 'Start a conversation; answers with the greeting',
      request: body(S.StartBody),
      responses: { 201: json(S.Started, 'Started'), ...errors },
    }),
    async (c) => {
      const input = c.req.valid('json') as z.infer<typeof S.StartBody>;
      const goalId = input.goalId ?? deps.defaultGoal;
      const unknown = unknownGoalMessage(goalId, (await agents.agents()).goalIds);
      if (unknown) return c.json({ error: unknown, field: 'goalId' }, 400);
      const { id, greeting } = await agents.start(goalId, input.conversationId, c.get('caller').owner ?? undefined, {
        prompt: input.prompt,
      });
      return c.json({ conversationId: id, goalId, greeting }, 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/conversations',
      summary: 'Conversations, newest first',
      request: { query: S.ListQuery },
      responses: { 200: json(z.array(S.ConversationSummary), 'The list'), ...errors },
    }),
    async (c) => {
      const q = c.req.valid('query') as z.infer<typeof S.ListQuery>;
      const caller = c.get('caller');
      // A key sees its own conversations; only an admin key (or the local caller) may ask for another owner's.
      const owner = caller.admin ? q.owner : (caller.owner ?? undefined);
      return c.json(
        await agents.list({ goal: q.goal, state: q.state, owner, limit: q.limit, taskQueue: agents.taskQueue }),
        200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/conversations/{id}',
      summary: 'State, goal, messages, pending approval, open question, usage',
      request: { params: S.ConversationIdParam },
      responses: { 200: json(S.Conversation, 'The conversation'), ...errors },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      await mine(c, id);
      const feed = await agents.feed(id, 0);
      return c.json(
        {
          id,
          goalId: feed.goalId,
          owner: feed.owner,
          state: feed.state,
          messages: feed.messages,
          pendingApproval: feed.pendingApproval,
          question: feed.question ?? null,
          usage: feed.usage,
          usageByGoal: feed.usageByGoal ?? {},
          usageByModel: feed.usageByModel ?? {},
          whileBusy: feed.whileBusy ?? 'enqueue',
        },
        200,
      );
    },
  );

  // Uploads, and messages that carry files as multipart/form-data (before the JSON messages route below).
  addFileRoutes(app, agents, (id) => feeds.poke(id));

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/conversations/{id}/messages',
      summary:
        'Send the user’s message; answers with the agent’s reply when it next needs the user (wait=false: at once)',
      request: { params: S.ConversationIdParam, query: S.WaitQuery, ...body(S.MessageBody) },
      responses: {
        200: json(S.AgentReply, 'The reply'),
        202: json(S.Anything, 'Accepted; follow the events'),
        ...errors,
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const { text: words, resource, files, whileBusy } = c.req.valid('json') as z.infer<typeof S.MessageBody>;
      const { wait } = c.req.valid('query');
      await mine(c, id);
      // An attached resource is read by the worker; its content follows the user's words.
      const owner = c.get('caller').owner ?? undefined;
      const text = resource ? await agents.withResource(words, { ...resource, owner }) : words;
      // Files stored before (POST /api/files), held by the conversation from now on.
      const attachments = await attachmentsOf(agents, c.get('caller'), id, files ?? []);
      const prompt =
        attachments.length || whileBusy
          ? { text, ...(attachments.length ? { attachments } : {}), ...(whileBusy ? { whileBusy } : {}) }
          : text;
      const answer = await deliver(
        id,
        wait,
        () => agents.sayLater(id, prompt),
        () => agents.say(id, prompt),
      );
      return answer.accepted ? c.json(answer, 202) : c.json(answer.reply, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/api/conversations/{id}/confirm',
      summary: 'Approve (optionally with edited args) or reject the pending tool call',
      request: { params: S.ConversationIdParam, query: S.WaitQuery, ...body(S.ConfirmBody) },
      responses: {
        200: json(S.AgentReply, 'The reply'),
        202: json(S.Anything, 'Accepted; follow the events'),
        ...errors,
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const decision = c.req.valid('json') as z.infer<typeof S.ConfirmBody>;
      const { wait } = c.req.valid('query');
      await mine(c, id);
      const answer = await deliver(
        id,
        wait,
        () => agents.confirmLater(id, decision),
        () => agents.confirm(id, decision),
      );
      return answer.accepted ? c.json(answer, 202) : c.json(answer.reply, 200);
    },
  );

  addControlRoutes(app, { agents, mine, touched: (id) => feeds.poke(id) });

  app.openapi(
    createRoute({
      method: 'get',
      path: '/api/conversations/{id}/events',
      summary:
        'Server-Sent Events: token, discard, message, approval, question, tool_progress, state, error; Last-Event-ID resumes',
      request: { params: S.ConversationIdParam, query: S.EventsQuery },
      responses: {
        200: { content: { 'text/event-stream': { schema: z.string() } }, description: 'The event stream' },
        ...errors,
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const { since } = c.req.valid('query');
      await mine(c, id);
      const from = parseEventId(c.req.header('last-event-id')) ?? { next: since ?? 0, attempt: '', offset: 0 };
      return serveEvents(c, (send, end) =>
        feeds.open(
          id,
          from,
          (e, position) => send({ event: e.event, data: JSON.stringify(e.data), id: eventId(position) }),
          end,
        ),
      );
    },
  );

  addOAuthRoutes(app, settings.oauth); // first: it shows the worker routes' endpoint list as the caller has it
  addWorkerRoutes(
    app,
    agents,
    new Listings(
      agents,
      new UsageStatsReader(agents.client, {
        maxExecutions: settings.registryMaxExecutions,
        taskQueue: agents.taskQueue,
      }),
    ),
  );
  addDeployRoutes(app, new Deployments(agents.client, settings.deployment ?? agents.taskQueue, 'agent API'));
  addRunRoutes(app, { agents, watches: runs, temporalUi, mine });
  addMemoryRoutes(app, agents);
  addScheduleRoutes(app, new Schedules(agents.client, agents.taskQueue), async () => (await agents.agents()).goalIds);
  if (settings.triggers)
    addTriggerRoutes(app, agents, {
      triggers: new TriggerFile(settings.triggers.file),
      maxBytes: settings.triggers.maxBytes,
      env: process.env,
      now: Date.now,
    });
  // Our agents as an MCP server (api/mcp-server/): the same keys and owners as the routes above.
  const mcp = mountMcpServer(app, {
    agents,
    keys: settings.keys,
    defaultGoal: deps.defaultGoal,
    maxBodyBytes: settings.bodyLimitBytes,
    touched: (id) => feeds.poke(id),
    bus: deps.bus,
  });

  // Our agents as A2A servers (api/a2a/): the same keys and owners; a task is a turn of a conversation.
  mountA2a(app, {
    agents,
    feeds,
    keys: settings.keys,
    defaultGoal: deps.defaultGoal,
    publicUrl: settings.oauth?.publicUrl,
    touched: (id) => feeds.poke(id),
  });

  // Our agents for AG-UI clients (api/ag-ui/): a thread is a conversation, a run a turn, over SSE.
  mountAgUi(app, { agents, feeds, touched: (id) => feeds.poke(id) });

  app.doc31('/api/openapi.json', { openapi: '3.1.0', info: { title: 'Agent orchestrator API', version: '1' } });
  return { app, feeds, runs, mcp };
}

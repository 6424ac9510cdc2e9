// `/api/ag-ui/agents/{goalId}` and `/api/ag-ui/conversations/{conversationId}`: our agents for AG-UI clients
// (`@ag-ui/client`'s HttpAgent, CopilotKit). A run (RunAgentInput) sends the thread's new user messages, or answers
// the interrupt the last run ended with, to a durable conversation, and answers with the turn as AG-UI events over
// SSE. A thread is a conversation: the agent route derives its id from the caller, the agent and the threadId, so the
// same thread continues it and another key's thread never meets it; the conversation route names one (any the key
// may see, started anywhere). Under /api, so the API's keys, owners, body limit and CORS apply as to every route.
import { createHash } from 'node:crypto';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { RunAgentInput } from '@ag-ui/core';
import { RunAgentInputSchema } from '@ag-ui/core/schemas';
import type { AgentClient } from '../../client/agent-client';
import { LOCAL_OWNER } from '../../core/blobs';
import type { ConversationFeed } from '../../core/conversation-types';
import { UserError } from '../../core/user-error';
import { unknownGoalMessage } from '../../goals/unknown-goal';
import { promptOfRef, turnsOf } from '../a2a/turn-tasks';
import type { ApiEnv, Caller } from '../auth';
import { visibleFeed } from '../conversation-access';
import type { LiveFeeds } from '../live-feed';
import { ConversationIdParam } from '../schemas';
import { promptOf } from './prompt-parts';
import { runAsk } from './run-input';
import { Follower, streamRun } from './run-stream';

export const AG_UI_PATH = '/api/ag-ui';

export interface AgUiDeps {
  agents: AgentClient;
  feeds: LiveFeeds;
  /** Told each time a conversation is sent something, so live views look at once. */
  touched: (id: string) => void;
}

export function mountAgUi(app: OpenAPIHono<ApiEnv>, deps: AgUiDeps): void {
  const { agents } = deps;

  app.post(`${AG_UI_PATH}/agents/:goalId`, async (c) => {
    const input = await readInput(c);
    if ('error' in input) return c.json(input, 400);
    const goalId = c.req.param('goalId');
    const caller = c.get('caller');
    const id = conversationFor(caller, goalId, input.threadId);
    let feed = await visibleFeed(agents, caller, id, 0).catch((err: unknown) => {
      if (err instanceof UserError && err.kind === 'not_found') return null;
      throw err;
    });
    const started = !feed;
    if (!feed) {
      // The agent is looked up (a question to the worker) only for a new thread: a thread's id names its agent.
      const unknown = unknownGoalMessage(goalId, (await agents.agents()).goalIds);
      if (unknown) return c.json({ error: unknown }, 404);
      await agents.start(goalId, id, caller.owner ?? undefined).catch((err: unknown) => {
        // Started by a run on the same thread a moment ago.
        if (!(err instanceof UserError && err.kind === 'refused')) throw err;
      });
      feed = await visibleFeed(agents, caller, id, 0);
    }
    return run(c, id, feed, input, started);
  });

  app.post(`${AG_UI_PATH}/conversations/:conversationId`, async (c) => {
    const input = await readInput(c);
    if ('error' in input) return c.json(input, 400);
    const id = c.req.param('conversationId');
    if (!ConversationIdParam.shape.id.safeParse(id).success)
      return c.json({ error: `conversationId: ${id} is not a conversation id.`, field: 'conversationId' }, 400);
    return run(c, id, await visibleFeed(agents, c.get('caller'), id, 0), input, false);
  });

  /**
   * Sends what the run carries (the answer first, then the new messages, each once) with the conversation's live
   * view already open, and streams the turn it is about: the last new message's, else the latest. A refusal (nothing
   * waits for that answer, the conversation ended) is the HTTP answer, before any event.
   */
  async function run(c: Context<ApiEnv>, id: string, feed: ConversationFeed, input: RunAgentInput, started: boolean) {
    const ask = runAsk(input, feed);
    const owner = feed.owner ?? LOCAL_OWNER;
    const prompts = [];
    for (const message of ask.prompts) prompts.push(await promptOf(agents, message, { conversationId: id, owner }));
    // A new thread's first run with no message of its own shows the agent's greeting; a run that only follows (its
    // stream dropped, say) shows the turn of the client's last message from its start, less what the client holds.
    const from =
      started && !prompts.length
        ? 0
        : prompts.length || ask.answer
          ? feed.next
          : (followFrom(feed, input) ?? feed.next);
    const follower = await Follower.open(deps.feeds, id, from);
    let promptId: number | undefined;
    try {
      const given = ask.answer;
      const answerId = `ag-ui-${ask.answerKey}`;
      if (given && 'confirm' in given) await agents.confirmLater(id, given.confirm, answerId);
      else if (given) await agents.answerLater(id, given.answer, answerId);
      for (const prompt of prompts) await agents.sayLater(id, prompt, `ag-ui-message-${prompt.ref}`);
      if (given || prompts.length) deps.touched(id);
      const last = prompts.at(-1);
      promptId = last ? promptOfRef(await agents.feed(id, from), last.ref) : turnsOf(feed).at(-1)?.promptId;
      if (promptId === undefined)
        throw new UserError(`Conversation ${id} ended before it took message ${last?.ref}.`, 'refused');
    } catch (err) {
      follower.close();
      throw err;
    }
    return streamRun(c, { agents, follower, conversationId: id, promptId, from, input });
  }
}

/** The body as AG-UI's RunAgentInput, or what is wrong with it (400, the field named). */
async function readInput(c: Context<ApiEnv>): Promise<RunAgentInput | { error: string; field?: string }> {
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    return { error: "The body is not JSON: send AG-UI's RunAgentInput (threadId, runId, messages, …)." };
  }
  const parsed = RunAgentInputSchema.safeParse(body);
  if (parsed.success) return parsed.data as RunAgentInput;
  const issue = parsed.error.issues[0];
  const field = issue?.path.join('.') || undefined;
  return {
    error: `${field ? `${field}: ` : ''}${issue?.message ?? 'invalid'} (the body is AG-UI's RunAgentInput).`,
    ...(field ? { field } : {}),
  };
}

/** A thread's conversation: the same for the same caller, agent and threadId, and for no one else. */
function conversationFor(caller: Caller, goalId: string, threadId: string): string {
  const key = createHash('sha256')
    .update(JSON.stringify([caller.owner, goalId, threadId]))
    .digest('hex');
  return `ag-ui-${key.slice(0, 20)}`;
}

/** Where the turn of the thread's last user message begins in the conversation (the message after it), if it is there. */
function followFrom(feed: ConversationFeed, input: RunAgentInput): number | undefined {
  const last = [...input.messages].reverse().find((m) => m.role === 'user');
  const promptId = last && promptOfRef(feed, last.id);
  const at = feed.messages.find(({ message: m }) => m.kind === 'user' && m.promptId === promptId);
  return at && at.seq + 1;
}

// The conversation's side of what an MCP server asks during a tool call (endpoints/mcp/call-host.ts): its questions for the
// user become toolQuestion updates on the conversation running the call (recorded there, shown to the user like
// an approval, declined when nobody answers within TOOL_QUESTION_TIMEOUT); its requests for a completion run on our
// model (sampling, after the user approves when the endpoint's `sampling` policy is `ask`); its progress and log
// messages go to the stream bus for live views and keep the activity's heartbeat going.
//
// A worker that dies while a question waits: the question stays open in the conversation (its update is in the
// workflow's history). A retried call (an idempotent tool) asks again with the same question id, so it joins that
// question, or gets the answer already given, and the user is never asked twice. A call that gets no retry (not
// idempotent: it may have run) ends as "may have run", and the conversation withdraws its question.
import { createHash } from 'node:crypto';
import { Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import {
  ErrorCode,
  McpError,
  type CreateMessageRequest,
  type ElicitRequest,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { toolQuestionUpdate } from '../core/messages';
import type { QuestionAnswer, QuestionSchema, ToolQuestion } from '../core/tool-questions';
import type { Usage } from '../core/types';
import { addUsage, ZERO_USAGE } from '../core/usage';
import type { CallHost } from '../endpoints/mcp/call-host';
import { attemptKey, type StreamBus } from '../stream/bus';
import type { Sampler } from './llm/sampling';

export interface ToolQuestionDeps {
  /** How the activity reaches its own conversation (the worker's connection). None: questions are declined. */
  temporal?: Client;
  /** Our model, for sampling. None: sampling requests are refused. */
  sampler?: Sampler;
  /** Where progress and log messages go for live views. */
  bus?: StreamBus;
  /** Blanks the worker's secrets (SecretScrubber): what our model answers a server leaves the worker without them. */
  scrub?: (text: string) => string;
}

/** A call's host, with what the call's sampling spent so far (it goes back with the outcome). */
export interface ConversationHost extends CallHost {
  spent(): Usage | undefined;
}

export interface CallFacts {
  /** `<server>__<tool>`. */
  tool: string;
  server: string;
  /** The endpoint's `sampling` policy. */
  sampling: 'ask' | 'allow' | 'deny';
  /** The conversation's goal, for the model call's metrics and trace. */
  goalId?: string;
  /** The conversation's budget is used (what was spent): sampling is refused, saying so. */
  overBudget?: string;
  /** A delegate's call: the user's conversation, where its progress shows too (the user watches that one). */
  userConversation?: string;
}

export function conversationHost(deps: ToolQuestionDeps, call: CallFacts): ConversationHost {
  const ctx = Context.current();
  const { workflowExecution: run, activityId, attempt } = ctx.info;
  let asked = 0;
  let spent: Usage | undefined;

  async function ask(question: Omit<ToolQuestion, 'id' | 'tool' | 'server'>, signal: AbortSignal) {
    if (!deps.temporal || !run) return { action: 'decline' } satisfies QuestionAnswer;
    // The same on every attempt of this call for the same question: the update id de-duplicates a re-ask.
    const what = createHash('sha256').update(JSON.stringify(question)).digest('hex').slice(0, 12);
    const id = `${activityId}/${++asked}/${what}`;
    const handle = deps.temporal.workflow.getHandle(run.workflowId, run.runId);
    const answer = handle.executeUpdate(toolQuestionUpdate, {
      args: [{ id, tool: call.tool, server: call.server, ...question }],
      updateId: id,
    });
    try {
      return await untilAborted(answer, signal);
    } catch (err) {
      if (signal.aborted) throw err;
      // Refused (the conversation ended, or its worker predates tool questions): the user cannot be asked.
      ctx.log.warn(`${call.tool} asked the user, but the question was refused: ${(err as Error).message}`);
      return { action: 'decline' } satisfies QuestionAnswer;
    }
  }

  return {
    async elicit(params: ElicitRequest['params'], signal): Promise<ElicitResult> {
      if (params.mode === 'url') {
        const answer = await ask({ kind: 'url', message: params.message, url: params.url }, signal);
        return { action: answer.action };
      }
      const answer = await ask(
        { kind: 'form', message: params.message, schema: params.requestedSchema as QuestionSchema },
        signal,
      );
      return answer.action === 'accept' ? { action: 'accept', content: answer.content ?? {} } : answer;
    },

    async sample(params: CreateMessageRequest['params'], signal) {
      if (call.sampling === 'deny' || !deps.sampler)
        throw new McpError(ErrorCode.InvalidRequest, `sampling is not allowed for ${call.server}`);
      if (call.overBudget)
        throw new McpError(ErrorCode.InvalidRequest, `the conversation has used its budget: ${call.overBudget}`);
      const messages = params.messages.map((m) => ({
        role: m.role,
        text: (Array.isArray(m.content) ? m.content : [m.content])
          .map((c) => (c.type === 'text' ? c.text : `[${c.type}]`))
          .join('\n'),
      }));
      if (call.sampling === 'ask') {
        const prompt = messages.map((m) => `${m.role}: ${m.text}`).join('\n');
        const sampling = {
          prompt,
          maxTokens: params.maxTokens,
          ...(params.systemPrompt ? { systemPrompt: params.systemPrompt } : {}),
        };
        const message = `${call.server} asks to use the model (up to ${params.maxTokens} tokens).`;
        const answer = await ask({ kind: 'sampling', message, sampling }, signal);
        // The MCP spec's code for a user who rejects a sampling request.
        if (answer.action !== 'accept') throw new McpError(-1, 'The user declined the sampling request.');
      }
      const sampled = await deps.sampler(
        {
          system: params.systemPrompt,
          messages,
          maxTokens: params.maxTokens,
          temperature: params.temperature,
          goalId: call.goalId ?? 'unknown',
        },
        signal,
      );
      spent = addUsage(spent ?? ZERO_USAGE, sampled.usage);
      return {
        role: 'assistant' as const,
        content: { type: 'text' as const, text: deps.scrub ? deps.scrub(sampled.text) : sampled.text },
        model: sampled.model,
        stopReason: sampled.stopReason,
      };
    },

    log(params) {
      ctx.heartbeat();
      const message = typeof params.data === 'string' ? params.data : JSON.stringify(params.data);
      publish({ message: params.logger ? `${params.logger}: ${message}` : message, level: params.level });
    },

    progress(p) {
      ctx.heartbeat();
      publish({
        progress: p.progress,
        ...(p.total !== undefined ? { total: p.total } : {}),
        ...(p.message ? { message: p.message } : {}),
      });
    },

    spent: () => spent,
  };

  function publish(fields: { progress?: number; total?: number; message?: string; level?: string }): void {
    if (!deps.bus || !run) return;
    const chunk = {
      kind: 'progress' as const,
      attempt: attemptKey({ runId: run.runId, activityId, attempt }),
      tool: call.tool,
      ...fields,
    };
    deps.bus.publish(run.workflowId, chunk);
    if (call.userConversation) deps.bus.publish(call.userConversation, chunk);
  }
}

/** The answer, or the abort's reason as soon as the call is cancelled (the update's long poll is left to end). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

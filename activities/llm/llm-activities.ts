// The LLM activities: planning with native tool calling, prompt validation, summaries for continue-as-new, and
// memories proposed at a conversation's end (propose-memories.ts).
// Planning streams: each text delta goes to the stream bus as it arrives (for screens), while only the complete
// reply is returned, so history holds whole messages and a retried attempt replaces, never appends.
import { ApplicationFailure, CancelledFailure, log } from '@temporalio/activity';
import { attemptTimeoutMs, callTimeout, finalWhenOutOfTime } from './attempt-budget';
import {
  generateText,
  streamText,
  type LanguageModel,
  type ModelMessage,
  type SystemModelMessage,
  type ToolSet,
} from 'ai';
import {
  FailureTypes,
  type ModelChoice,
  type PlanRequest,
  type PlanContext,
  type PlanResult,
  type PromptVerdict,
} from '../../core/activity-types';
import type { LlmActivities } from '../../core/activity-types';
import { type AgentSummary, type ChatMessage, type Goal, type Usage } from '../../core/types';
import { ZERO_USAGE } from '../../core/usage';
import { whileHeartbeating } from '../heartbeat';
import { capText, DEFAULT_LIMITS } from '../limits';
import { toLlmFailure } from './errors';
import { parseVerdict, toCall, toToolSet } from './model-answers';
import { TranscriptCache } from './transcripts';
import { PlanContextCache } from './plan-contexts';
import { createModel, type LlmConfig, type ResolvedModel } from './model';
import { takesMediaInToolResults, toModelMessages } from './model-messages';
import type { AttachedImages } from './attached-images';
import type { BlobStore } from '../../blobs/blob-store';
import { keepReply } from '../claim-check';
import { cacheFriendly } from './cache-layout';
import { usageOf, type SdkUsage } from './sdk-usage';
import { isoDay } from '../../core/days';
import { renderPlanSystemPrompt, renderSummaryPrompt, renderValidateSystemPrompt } from './prompts';
import type { LlmTask, ScriptedCallInfo } from './scripted-model';
import { replyStream, type ReplyStream, type StreamBus } from '../../stream';
import { heldBack, readReply, streamTarget } from './reply-reader';
import type { PriceTable } from './prices';
import { observeLlmCall, recordLlmUsage, type LlmCall } from '../call-telemetry';
import { hookReply, type PromptScreening } from '../../core/hooks';
import type { HookRunner } from '../hooks/hook-runner';
import { afterModelCall, beforeModelCall, heldForHooks, promptOf, screenPrompt } from '../hooks/model-hooks';
import { recallBlock } from '../../core/memory';
import { recaller } from './recall';
import type { LazyMemoryStore } from '../../memory/open-store';
import { memoryProposer } from './propose-memories';

export interface LlmDeps {
  model: LanguageModel;
  provider: string;
  /** The worker's model as LLM_MODEL names it (`provider:model`): what the price table and metrics know it by. */
  modelName?: string;
  /** Prices per model: each call's usage comes back with its cost. None: usage in tokens only. */
  prices?: PriceTable;
  /** For goals that name their own model (`settings.model`): built from the same key and base URL. */
  config?: LlmConfig;
  /** Per-call timeout, under the activity's start-to-close so a hung provider surfaces as a retryable error. */
  timeoutMs?: number;
  /** Longest reply text kept (MAX_REPLY_CHARS): a longer one is cut, with a note, so no reply can wedge history. */
  maxReplyChars?: number;
  /** Where planning publishes the reply as it is written; none: nothing is published. */
  streamBus?: StreamBus;
  /** Where attached images are read from, to send them to a model that takes them (MODEL_IMAGES). */
  images?: AttachedImages;
  /** Where a reply longer than MAX_REPLY_CHARS is kept whole (history gets its start and the file's id). */
  replies?: BlobStore;
  /** The hooks around model calls (HOOKS: userMessage, beforeModelCall, afterModelCall); none: calls go as they are. */
  hooks?: HookRunner;
  /** The worker's clock: the planning prompt tells the model today's date from it. */
  now?: () => Date;
  /** Owners' memories: a plan that asks (`memory`) is shown the owner's, at most `recallTokens` of them; a goal's
   * `memory.extract` proposes new ones at its conversation's end (proposeMemories). */
  memory?: { store: LazyMemoryStore; recallTokens: number };
}

type Request = { system: string | SystemModelMessage[]; messages: ModelMessage[]; tools?: ToolSet };

export function createLlmActivities({
  model,
  provider,
  modelName = `${provider}:?`,
  prices,
  config,
  timeoutMs = (config?.timeoutSeconds ?? 60) * 1000,
  maxReplyChars = DEFAULT_LIMITS.maxReplyChars,
  streamBus,
  images,
  replies,
  hooks,
  now = () => new Date(),
  memory,
}: LlmDeps): LlmActivities {
  const transcripts = new TranscriptCache();
  const contexts = new PlanContextCache();
  const recall = recaller(memory);
  const goalModels = new Map<string, ResolvedModel>();
  /** The fallback the workflow chose, else the goal's own model when it names one (created once), else the worker's. */
  function modelFor(goal: Goal, choice?: ModelChoice): { model: LanguageModel; provider: string; name: string } {
    const wanted = choice?.model ?? goal.settings?.model;
    if (!wanted) return { model, provider, name: modelName };
    let resolved = goalModels.get(wanted);
    if (!resolved) {
      try {
        resolved = createModel({ ...config, model: wanted });
      } catch (err) {
        throw ApplicationFailure.nonRetryable(
          `Goal "${goal.id}" names the model "${wanted}": ${(err as Error).message}`,
          FailureTypes.LlmMisconfigured,
        );
      }
      goalModels.set(wanted, resolved);
    }
    return { ...resolved, name: wanted };
  }

  const unpriced = new Set<string>();
  /** A call's usage in tokens, with its cost when the model has a price; counted in the worker's metrics and trace. */
  function spent(call: LlmCall, raw: SdkUsage): Usage {
    const usage = prices ? prices.priced(call.model, usageOf(raw)) : usageOf(raw);
    if (prices && usage.costUsd === undefined && !unpriced.has(call.model)) {
      unpriced.add(call.model);
      log.warn(
        `no price for ${call.model} in the price table (config/prices.json, PRICES_FILE): its calls count tokens but no cost`,
      );
    }
    recordLlmUsage(call, usage);
    return usage;
  }

  /** One model call, heartbeating, under the per-call timeout and the user's cancel; failures come out typed. */
  async function guarded<T>(
    task: LlmTask,
    goal: Goal,
    request: Request,
    run: (settings: CallSettings, call: LlmCall) => Promise<T>,
    stop?: AbortSignal,
    choice?: ModelChoice,
  ): Promise<T> {
    const chosen = modelFor(goal, choice);
    const observed: LlmCall = { model: chosen.name, goal: goal.id, task, fallbackFrom: choice?.fallbackFrom };
    // MODEL_TIMEOUT, or less when MODEL_GIVE_UP leaves less: the attempt ends in our words, never in Temporal's.
    const attemptMs = attemptTimeoutMs(timeoutMs);
    const timeout = callTimeout(attemptMs);
    try {
      return await observeLlmCall(observed, () =>
        whileHeartbeating((cancelled) =>
          run(
            {
              model: chosen.model,
              temperature: goal.settings?.temperature,
              maxOutputTokens: goal.settings?.maxOutputTokens,
              ...request,
              maxRetries: 0, // Temporal retries the activity; two retry loops would multiply.
              abortSignal: AbortSignal.any([timeout.signal, cancelled, ...(stop ? [stop] : [])]),
              providerOptions: {
                scripted: { task, goalId: goal.id } satisfies ScriptedCallInfo as never,
                // OpenAI routes requests with one key and one prefix to one cache: an agent's share its prompt and tools.
                openai: { promptCacheKey: `agent:${goal.id}` } as never,
              },
            },
            observed,
          ),
        ),
      );
    } catch (err) {
      if (err instanceof CancelledFailure) throw err; // the user stopped the turn: not the model's fault
      throw finalWhenOutOfTime(toLlmFailure(err, chosen.provider, attemptMs), choice?.giveUpSetting);
    } finally {
      timeout.clear();
    }
  }

  const call = (task: LlmTask, goal: Goal, request: Request, choice?: ModelChoice) =>
    guarded(
      task,
      goal,
      request,
      async (settings, observed) => {
        const result = await generateText(settings);
        return { text: result.text, usage: spent(observed, result.usage) };
      },
      undefined,
      choice,
    );

  /** Plans the turn, streaming the reply's text to `out` as it is written; `stop` abandons it. */
  async function plan(
    input: PlanRequest & PlanContext,
    messages: ChatMessage[],
    out: ReplyStream,
    stop?: AbortSignal,
  ): Promise<PlanResult> {
    const { goal, tools, summary, agents } = input;
    const shown = heldForHooks(hooks, out);
    try {
      // One query in this activity, before the model call: no model waits for it, and no extra step in history.
      const recalled = input.memory ? await recall(input.memory, promptOf(messages) ?? '') : [];
      const rendered = renderPlanSystemPrompt({ goal, tools, summary, agents, today: isoDay(now()) });
      const system = [rendered, recallBlock(recalled)].filter(Boolean).join('\n\n');
      const asked = await beforeModelCall(hooks, 'plan', goal.id, system, messages);
      if (asked.stopped) {
        shown.discard();
        return { text: '', toolCalls: [], usage: ZERO_USAGE, hooks: asked.decisions };
      }
      const request = cacheFriendly({
        system: asked.system,
        messages: toModelMessages(asked.messages, {
          media: takesMediaInToolResults(modelFor(goal, input).model),
          images: images ? await images.of(asked.messages) : undefined,
        }),
        tools: toToolSet(tools),
      });
      const result = await guarded(
        'plan',
        goal,
        request,
        async (settings, observed) => {
          // Errors arrive as stream parts (readReply throws them); the SDK's default would also log each one.
          const reply = await readReply(streamText({ ...settings, onError: () => {} }), settings.abortSignal, (text) =>
            shown.write(text),
          );
          return { ...reply, usage: spent(observed, reply.usage) };
        },
        stop,
        input,
      );
      shown.done();
      // The hooks see the whole answer before the screen (held until they pass it), history or the blob store does.
      const answer = await afterModelCall(hooks, goal.id, {
        text: result.text,
        toolCalls: result.toolCalls.map(toCall),
      });
      shown.settle(answer.decisions.length === 0);
      const decisions = [...asked.decisions, ...answer.decisions];
      const kept = replies ? await keepReply(replies, answer.text, maxReplyChars) : null;
      return {
        text: kept?.text ?? capText(answer.text, maxReplyChars),
        toolCalls: answer.toolCalls,
        usage: result.usage,
        model: modelFor(goal, input).name,
        ...(kept?.stored ? { stored: kept.stored } : {}),
        ...(decisions.length ? { hooks: decisions } : {}),
        ...(recalled.length ? { memories: recalled.map((m) => m.id) } : {}),
      };
    } catch (err) {
      shown.discard();
      throw err;
    }
  }

  /** Whether `prompt` fits the goal, given the exchanges before it. */
  async function validate(
    goal: Goal,
    prompt: string,
    agents: AgentSummary[],
    before: ChatMessage[],
    choice?: ModelChoice,
  ): Promise<PromptVerdict> {
    const asked = await beforeModelCall(hooks, 'validate', goal.id, renderValidateSystemPrompt(goal, agents), [
      ...before.slice(-6),
      { kind: 'user', text: prompt, promptId: 0 },
    ]);
    if (asked.stopped)
      return { valid: false, reply: hookReply(asked.stopped), usage: ZERO_USAGE, hooks: asked.decisions };
    // Plain text of the last exchanges is context enough; tool calls would need their results alongside.
    const recent = asked.messages.flatMap((m): ModelMessage[] => {
      if (m.kind === 'user') return [{ role: 'user', content: m.text }];
      if (m.kind === 'agent' && m.text) return [{ role: 'assistant', content: m.text }];
      return [];
    });
    const result = await call('validate', goal, { system: asked.system, messages: recent }, choice);
    return {
      ...parseVerdict(result.text),
      usage: result.usage,
      model: modelFor(goal, choice).name,
      ...(asked.decisions.length ? { hooks: asked.decisions } : {}),
    };
  }

  /** The turn's prompt before the userMessage hooks, when the workflow asks (the turn's first model call). */
  const screen = (
    input: { screenPrompt?: true; goal: Goal },
    prompt: string | null,
  ): Promise<PromptScreening | null> =>
    input.screenPrompt && prompt !== null ? screenPrompt(hooks, prompt, input.goal.id) : Promise.resolve(null);

  return {
    async planTurn(request): Promise<PlanResult> {
      // A worker that missed the run's earlier requests asks for both at once.
      const [input, messages] = await Promise.all([contexts.resolve(request), transcripts.messagesOf(request)]);
      const screened = await screen(input, promptOf(messages));
      if (screened) return { text: '', toolCalls: [], usage: ZERO_USAGE, screened };
      const out = replyStream(streamBus, streamTarget(), maxReplyChars);
      return plan(input, messages, out);
    },

    async validatePrompt(input) {
      const screened = await screen(input, input.prompt);
      if (screened) return { valid: true, reply: '', usage: ZERO_USAGE, screened };
      return validate(input.goal, input.prompt, input.agents ?? [], await transcripts.messagesOf(input), input);
    },

    /**
     * Both model calls at once: the turn waits for the slower, not the sum. The plan's text is held back from the
     * screen until the prompt is found to fit; when it does not, the plan is stopped and dropped. A failed check
     * fails open (as validatePrompt's failure does in the workflow) when the plan succeeded.
     */
    async vetAndPlan(request): Promise<PromptVerdict> {
      const [input, messages] = await Promise.all([contexts.resolve(request), transcripts.messagesOf(request)]);
      const screened = await screen(input, input.prompt);
      if (screened) return { valid: true, reply: '', usage: ZERO_USAGE, screened };
      const out = heldBack(replyStream(streamBus, streamTarget(), maxReplyChars));
      const stopPlan = new AbortController();
      const planning = plan(input, messages, out, stopPlan.signal).then(
        (result) => ({ result }),
        (error: unknown) => ({ error }),
      );
      // The transcript ends with the prompt; the check reads the exchanges before it.
      const verdict = await validate(input.goal, input.prompt, input.agents, messages.slice(0, -1), input).catch(
        (error: unknown) => {
          if (error instanceof CancelledFailure) throw error;
          return null;
        },
      );
      if (verdict && !verdict.valid) {
        stopPlan.abort(new Error('the prompt does not fit the goal'));
        await planning;
        return verdict;
      }
      out.release();
      const planned = await planning;
      if ('error' in planned) throw planned.error;
      return { ...(verdict ?? { valid: true, reply: '', usage: ZERO_USAGE }), plan: planned.result };
    },

    async summarizeConversation(input) {
      const { goal, previousSummary } = input;
      const messages = await transcripts.messagesOf(input);
      const system = 'You condense conversations faithfully and briefly.';
      const asked = await beforeModelCall(hooks, 'summarize', goal.id, system, messages);
      // A hook that stops the summary leaves the one before: continue-as-new still carries the recent messages.
      if (asked.stopped) return previousSummary;
      const result = await call('summarize', goal, {
        system: asked.system,
        messages: [{ role: 'user', content: renderSummaryPrompt(goal, previousSummary, asked.messages) }],
      });
      return result.text.trim() || previousSummary;
    },

    proposeMemories: memoryProposer({
      transcripts,
      ask: (goal, request, choice) => call('extract', goal, request, choice),
      modelName: (goal, choice) => modelFor(goal, choice).name,
      hooks,
      memory: memory?.store,
    }),
  };
}

type CallSettings = Request & {
  model: LanguageModel;
  temperature?: number;
  maxOutputTokens?: number;
  maxRetries: number;
  abortSignal: AbortSignal;
  providerOptions: Record<string, never>;
};

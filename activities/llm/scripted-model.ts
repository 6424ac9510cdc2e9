// A scripted language model: replies and tool calls come from a JSON file of rules, matched against the
// conversation. It speaks the AI SDK's model interface, so the whole LLM path (prompt conversion, native tool
// calling, usage) runs as with a real provider. It is stateless: the same conversation gets the same answer,
// so worker restarts and activity retries behave as they would with a real model. Like a real model in multi-goal
// mode, it hands a request that belongs to another agent over (ChangeGoal, by the script's routes), and the new
// agent then acts on that request. It streams as well: the same reply, its text a few words per chunk, optionally
// paced (SCRIPTED_STREAM_DELAY_MS) so the reply can be watched being written. Days its rules read ("next Monday",
// `{day}` in a regex, `{{day 1}}` in a reply) mean what they do on its clock's today (the worker's).
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3GenerateResult,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
  LanguageModelV3Text,
  LanguageModelV3ToolCall,
} from '@ai-sdk/provider';
import { z } from 'zod';
import { CHANGE_GOAL } from '../../core/builtin-specs';
import { DAY_PHRASE, isoDay, MONTH_PHRASE } from '../../core/days';
import { NOTE_PREFIX } from './model-messages';
import { fillDeep, fillTemplate, type TemplateScope } from './script-template';

/** `sample`: an MCP server asked for a completion (sampling) during a tool call; `extract`: memories proposed from a
 * transcript at its conversation's end (its one user message is the transcript). */
export type LlmTask = 'plan' | 'validate' | 'summarize' | 'sample' | 'extract';

const replySchema = z.object({
  text: z.string().optional(),
  toolCalls: z.array(z.object({ tool: z.string(), args: z.record(z.string(), z.unknown()).default({}) })).optional(),
  /** For validate/summarize/extract tasks: an object answered as JSON text. */
  json: z.unknown().optional(),
});

const ruleSchema = z.object({
  task: z.enum(['plan', 'validate', 'summarize', 'sample', 'extract']).default('plan'),
  /** Only in conversations whose current goal has this id (or one of these ids). */
  goal: z.union([z.string(), z.array(z.string())]).optional(),
  /** Case-insensitive regex on the latest user message; groups are available as {{1}}, {{2}}… */
  user: z.string().optional(),
  /** Matches when the last message is the result of this tool; {{result.path}} reads that result. */
  afterTool: z.string().optional(),
  /** With afterTool, that tool's outcome; alone, any tool's outcome (e.g. every tool_error, told to the user). */
  outcome: z.enum(['ok', 'invalid_input', 'tool_error', 'rejected']).optional(),
  reply: replySchema,
});

/** Which agent a request belongs to: the first route whose regex matches the user's message decides. */
const routeSchema = z.object({
  user: z.string(),
  goal: z.string(),
});

export const scriptSchema = z.object({
  rules: z.array(ruleSchema),
  /** Asked when no rule answers a user's message: a request another agent owns switches to it (ChangeGoal). */
  routes: z.array(routeSchema).default([]),
  fallback: replySchema.optional(),
});

export type Script = z.infer<typeof scriptSchema>;
export type ScriptRule = z.infer<typeof ruleSchema>;
export type ScriptInput = z.input<typeof scriptSchema>;
type Reply = z.infer<typeof replySchema>;

/** A reply as the model interface carries it: only text and tool calls, which both generate and stream send. */
type Answer = Pick<LanguageModelV3GenerateResult, 'finishReason' | 'usage'> & {
  content: (LanguageModelV3Text | LanguageModelV3ToolCall)[];
};

/** What the scripted model reads of a call; real providers ignore this provider-options key. */
export interface ScriptedCallInfo {
  task: LlmTask;
  goalId: string;
}

/** `{day}` and `{month}` in a rule's or route's regex stand for every phrase of a day or month the templates resolve. */
function withPhrases(regex: string): string {
  return regex.replaceAll('{day}', DAY_PHRASE).replaceAll('{month}', MONTH_PHRASE);
}

export function loadScript(file: string): Script {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`Cannot read the scripted model's file ${file}: ${(err as Error).message}`);
  }
  const parsed = scriptSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`Scripted model file ${file}: ${issue.path.join('.')}: ${issue.message}`);
  }
  return parsed.data;
}

export interface ScriptedModelOptions {
  /** Pause before each streamed text chunk after the first (SCRIPTED_STREAM_DELAY_MS); 0: none. */
  chunkDelayMs?: number;
  /** The worker's clock: "next Monday" in a user's message or a reply means the week after this clock's today. */
  now?: () => Date;
}

/** Words per streamed text chunk: several chunks even for a short reply, as a real model sends. */
const WORDS_PER_CHUNK = 3;

export class ScriptedModel implements LanguageModelV3 {
  readonly specificationVersion = 'v3';
  readonly provider = 'scripted';
  readonly supportedUrls = {};
  private readonly script: Script;
  private readonly chunkDelayMs: number;
  private readonly now: () => Date;
  private calls = 0;

  constructor(
    script: ScriptInput,
    readonly modelId = 'scripted',
    options: ScriptedModelOptions = {},
  ) {
    const parsed = scriptSchema.parse(script);
    this.script = {
      ...parsed,
      rules: parsed.rules.map((r) => (r.user ? { ...r, user: withPhrases(r.user) } : r)),
      routes: parsed.routes.map((r) => ({ ...r, user: withPhrases(r.user) })),
    };
    this.chunkDelayMs = options.chunkDelayMs ?? 0;
    this.now = options.now ?? (() => new Date());
  }

  /** The same model streaming at another pace. */
  paced(chunkDelayMs: number): ScriptedModel {
    return new ScriptedModel(this.script, this.modelId, { chunkDelayMs, now: this.now });
  }

  /** The same model on another clock (the worker's). */
  withClock(now: () => Date): ScriptedModel {
    return new ScriptedModel(this.script, this.modelId, { chunkDelayMs: this.chunkDelayMs, now });
  }

  async doGenerate(options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
    return { ...this.respond(options), warnings: [] };
  }

  async doStream(options: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
    const { content, finishReason, usage } = this.respond(options);
    const parts: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }];
    for (const [i, c] of content.entries()) {
      if (c.type === 'text') {
        const id = `text-${i}`;
        parts.push(
          { type: 'text-start', id },
          ...chunksOf(c.text).map((delta) => ({ type: 'text-delta' as const, id, delta })),
          { type: 'text-end', id },
        );
      } else {
        parts.push(c);
      }
    }
    parts.push({ type: 'finish', finishReason, usage });
    const { chunkDelayMs } = this;
    const signal = options.abortSignal;
    let next = 0;
    let textSent = false;
    const stream = new ReadableStream<LanguageModelV3StreamPart>({
      async pull(controller) {
        signal?.throwIfAborted();
        const part = parts[next++];
        if (!part) return controller.close();
        if (part.type === 'text-delta') {
          // An abort (timeout, the user's cancel) ends the pause at once, failing with its reason as fetch would.
          if (textSent && chunkDelayMs > 0)
            await sleep(chunkDelayMs, undefined, { signal }).catch(() => signal?.throwIfAborted());
          textSent = true;
        }
        controller.enqueue(part);
      },
    });
    return { stream };
  }

  /** The reply to a call, with its finish reason and usage. */
  private respond(options: LanguageModelV3CallOptions): Answer {
    const info = (options.providerOptions?.scripted ?? { task: 'plan', goalId: '' }) as unknown as ScriptedCallInfo;
    const offered = new Set((options.tools ?? []).map((t) => t.name));
    const { reply, scope: found } = this.answer(info, readPrompt(options.prompt), offered);
    const scope = { ...found, today: isoDay(this.now()) };

    const content: (LanguageModelV3Text | LanguageModelV3ToolCall)[] = [];
    const text =
      reply.json !== undefined
        ? JSON.stringify(fillDeep(reply.json, scope))
        : reply.text && fillTemplate(reply.text, scope);
    if (text) content.push({ type: 'text', text });
    for (const call of reply.toolCalls ?? []) {
      content.push({
        type: 'tool-call',
        toolCallId: `call_${Date.now().toString(36)}_${++this.calls}`,
        toolName: call.tool,
        input: JSON.stringify(fillDeep(call.args, scope)),
      });
    }
    const inputTokens = Math.ceil(JSON.stringify(options.prompt).length / 4);
    const outputTokens = Math.ceil(JSON.stringify(content).length / 4);
    return {
      content,
      finishReason: { unified: reply.toolCalls?.length ? 'tool-calls' : 'stop', raw: undefined },
      usage: {
        inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: 0, cacheWrite: 0 },
        outputTokens: { total: outputTokens, text: outputTokens, reasoning: 0 },
      },
    };
  }

  /** The reply, and what its placeholders read. */
  private answer(
    info: ScriptedCallInfo,
    view: PromptView,
    offered: Set<string>,
  ): { reply: Reply; scope: Omit<TemplateScope, 'today'> } {
    const answered = (rule: ScriptRule, seen: PromptView) => ({ reply: rule.reply, scope: scopeOf(rule, seen) });
    // Just switched: the new agent acts on the request that caused the switch, as a model reading the transcript
    // would; with no rule for it, the agent's `afterTool: ChangeGoal` rule (its hello) answers.
    if (justSwitched(view)) {
      const request: PromptView = { ...view, lastToolResult: undefined };
      const carried = this.script.rules.find((r) => r.user && matches(r, info, request));
      if (carried) return answered(carried, request);
    }
    const rule = this.script.rules.find((r) => matches(r, info, view));
    if (rule) return answered(rule, view);
    const goalId = this.handOverTo(info, view, offered);
    if (goalId) return { reply: { toolCalls: [{ tool: CHANGE_GOAL, args: { goalId } }] }, scope: { captures: [] } };
    return {
      reply: this.defaultReply(info.task, view),
      scope: { captures: [], outcome: view.lastToolResult?.outcome },
    };
  }

  /** The goal of another agent when the user's message belongs to it (first matching route) and this one can switch. */
  private handOverTo(info: ScriptedCallInfo, view: PromptView, offered: Set<string>): string | undefined {
    if (info.task !== 'plan' || view.lastToolResult || !offered.has(CHANGE_GOAL)) return undefined;
    const owner = this.script.routes.find((r) => new RegExp(r.user, 'i').test(view.lastUser))?.goal;
    return owner === info.goalId ? undefined : owner;
  }

  private defaultReply(task: LlmTask, view: PromptView): Reply {
    if (task === 'validate') return { json: { valid: true } };
    if (task === 'summarize') return { text: `Earlier, the user said: ${view.userTexts.join(' | ').slice(0, 1500)}` };
    if (task === 'sample') return { text: `(scripted sample) ${view.lastUser.slice(0, 500)}` };
    if (task === 'extract') return { json: { facts: [] } };
    return this.script.fallback ?? { text: "I'm the offline scripted model and have no scripted answer for that." };
  }
}

interface PromptView {
  lastUser: string;
  userTexts: string[];
  /** Set when the last message is a tool result. */
  lastToolResult?: { toolName: string; outcome: Record<string, unknown> };
  /** Every outcome of the last step's calls (the tool messages at the end), in order. */
  lastOutcomes: Record<string, unknown>[];
}

function readPrompt(prompt: LanguageModelV3Prompt): PromptView {
  const userTexts: string[] = [];
  for (const m of prompt) {
    if (m.role !== 'user') continue;
    const text = m.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
    if (!text.startsWith(NOTE_PREFIX)) userTexts.push(text);
  }
  const results: { toolName: string; outcome: Record<string, unknown> }[] = [];
  for (let i = prompt.length - 1; i >= 0 && prompt[i]!.role === 'tool'; i--) {
    const parts = (prompt[i] as Extract<LanguageModelV3Prompt[number], { role: 'tool' }>).content;
    for (const part of [...parts].reverse()) {
      if (part.type !== 'tool-result') continue;
      const value = part.output.type === 'json' ? part.output.value : undefined;
      results.unshift({ toolName: part.toolName, outcome: (value ?? {}) as Record<string, unknown> });
    }
  }
  return {
    lastUser: userTexts[userTexts.length - 1] ?? '',
    userTexts,
    lastToolResult: results[results.length - 1],
    lastOutcomes: results.map((r) => r.outcome),
  };
}

function matches(rule: ScriptRule, info: ScriptedCallInfo, view: PromptView): boolean {
  if (rule.task !== info.task) return false;
  if (rule.goal && ![rule.goal].flat().includes(info.goalId)) return false;
  if (rule.afterTool || rule.outcome) {
    if (!view.lastToolResult) return false;
    if (rule.afterTool && view.lastToolResult.toolName !== rule.afterTool) return false;
    if (rule.outcome && view.lastToolResult.outcome.status !== rule.outcome) return false;
  } else if (info.task === 'plan' && view.lastToolResult) {
    // A rule without afterTool or outcome answers users, never tool results: otherwise a tool call would repeat forever.
    return false;
  }
  return !rule.user || new RegExp(rule.user, 'i').test(view.lastUser);
}

/** Text in chunks of a few words, whitespace kept, so the chunks join to the text exactly. */
export function chunksOf(text: string): string[] {
  const words = text.match(/\s*\S+\s*/g);
  if (!words) return text ? [text] : [];
  const chunks: string[] = [];
  for (let i = 0; i < words.length; i += WORDS_PER_CHUNK) chunks.push(words.slice(i, i + WORDS_PER_CHUNK).join(''));
  return chunks;
}

function justSwitched(view: PromptView): boolean {
  return view.lastToolResult?.toolName === CHANGE_GOAL && view.lastToolResult.outcome.status === 'ok';
}

function scopeOf(rule: ScriptRule, view: PromptView): Omit<TemplateScope, 'today'> {
  const captures = rule.user ? (new RegExp(rule.user, 'i').exec(view.lastUser) ?? []) : [];
  return { captures: [...captures], outcome: view.lastToolResult?.outcome, outcomes: view.lastOutcomes };
}

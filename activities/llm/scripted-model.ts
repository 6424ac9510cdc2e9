// A scripted language model: replies and tool calls come from a JSON file of rules, matched against the
// conversation. It speaks the AI SDK's model interface, so the whole LLM path (prompt conversion, native tool
// calling, usage) runs as with a real provider. It is stateless: the same conversation gets the same answer,
// so worker restarts and activity retries behave as they would with a real model.
import { readFileSync } from 'node:fs';
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3GenerateResult,
  LanguageModelV3Prompt,
} from '@ai-sdk/provider';
import { z } from 'zod';
import { NOTE_PREFIX } from './model-messages';

export type LlmTask = 'plan' | 'validate' | 'summarize';

const replySchema = z.object({
  text: z.string().optional(),
  toolCalls: z.array(z.object({ tool: z.string(), args: z.record(z.string(), z.unknown()).default({}) })).optional(),
  /** For validate/summarize tasks: an object answered as JSON text. */
  json: z.unknown().optional(),
});

const ruleSchema = z.object({
  task: z.enum(['plan', 'validate', 'summarize']).default('plan'),
  /** Only in conversations whose current goal has this id. */
  goal: z.string().optional(),
  /** Case-insensitive regex on the latest user message; groups are available as {{1}}, {{2}}… */
  user: z.string().optional(),
  /** Matches when the last message is the result of this tool; {{result.path}} reads that result. */
  afterTool: z.string().optional(),
  outcome: z.enum(['ok', 'invalid_input', 'tool_error', 'rejected']).optional(),
  reply: replySchema,
});

export const scriptSchema = z.object({
  rules: z.array(ruleSchema),
  fallback: replySchema.optional(),
});

export type Script = z.infer<typeof scriptSchema>;
export type ScriptRule = z.infer<typeof ruleSchema>;
export type ScriptInput = z.input<typeof scriptSchema>;

/** What the scripted model reads of a call; real providers ignore this provider-options key. */
export interface ScriptedCallInfo {
  task: LlmTask;
  goalId: string;
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

export class ScriptedModel implements LanguageModelV3 {
  readonly specificationVersion = 'v3';
  readonly provider = 'scripted';
  readonly supportedUrls = {};
  private readonly script: Script;
  private calls = 0;

  constructor(
    script: ScriptInput,
    readonly modelId = 'scripted',
  ) {
    this.script = scriptSchema.parse(script);
  }

  async doGenerate(options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
    const info = (options.providerOptions?.scripted ?? { task: 'plan', goalId: '' }) as unknown as ScriptedCallInfo;
    const view = readPrompt(options.prompt);
    const rule = this.script.rules.find((r) => matches(r, info, view));
    const reply = rule?.reply ?? this.defaultReply(info.task, view);
    const captures = rule?.user ? (new RegExp(rule.user, 'i').exec(view.lastUser) ?? []) : [];
    const fill = (s: string) => fillTemplate(s, captures, view.lastToolResult);

    const content: LanguageModelV3Content[] = [];
    const text = reply.json !== undefined ? JSON.stringify(fillDeep(reply.json, fill)) : reply.text && fill(reply.text);
    if (text) content.push({ type: 'text', text });
    for (const call of reply.toolCalls ?? []) {
      content.push({
        type: 'tool-call',
        toolCallId: `call_${Date.now().toString(36)}_${++this.calls}`,
        toolName: call.tool,
        input: JSON.stringify(fillDeep(call.args, fill)),
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
      warnings: [],
    };
  }

  async doStream(): Promise<never> {
    throw new Error('The scripted model does not stream.');
  }

  private defaultReply(task: LlmTask, view: PromptView): z.infer<typeof replySchema> {
    if (task === 'validate') return { json: { valid: true } };
    if (task === 'summarize') return { text: `Earlier, the user said: ${view.userTexts.join(' | ').slice(0, 1500)}` };
    return this.script.fallback ?? { text: "I'm the offline scripted model and have no scripted answer for that." };
  }
}

interface PromptView {
  lastUser: string;
  userTexts: string[];
  /** Set when the last message is a tool result. */
  lastToolResult?: { toolName: string; outcome: Record<string, unknown> };
}

function readPrompt(prompt: LanguageModelV3Prompt): PromptView {
  const userTexts: string[] = [];
  for (const m of prompt) {
    if (m.role !== 'user') continue;
    const text = m.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
    if (!text.startsWith(NOTE_PREFIX)) userTexts.push(text);
  }
  const last = prompt[prompt.length - 1];
  let lastToolResult: PromptView['lastToolResult'];
  if (last?.role === 'tool') {
    const part = [...last.content].reverse().find((p) => p.type === 'tool-result');
    if (part && part.type === 'tool-result') {
      const value = part.output.type === 'json' ? part.output.value : undefined;
      lastToolResult = { toolName: part.toolName, outcome: (value ?? {}) as Record<string, unknown> };
    }
  }
  return { lastUser: userTexts[userTexts.length - 1] ?? '', userTexts, lastToolResult };
}

function matches(rule: ScriptRule, info: ScriptedCallInfo, view: PromptView): boolean {
  if (rule.task !== info.task) return false;
  if (rule.goal && rule.goal !== info.goalId) return false;
  if (rule.afterTool) {
    if (view.lastToolResult?.toolName !== rule.afterTool) return false;
    if (rule.outcome && view.lastToolResult.outcome.status !== rule.outcome) return false;
  } else if (info.task === 'plan' && view.lastToolResult) {
    // A rule without afterTool answers users, never tool results: otherwise a tool call would repeat forever.
    return false;
  }
  return !rule.user || new RegExp(rule.user, 'i').test(view.lastUser);
}

/**
 * {{1}} → regex group; {{result.a.b}} → the last tool outcome's result.a.b; {{outcome.x}} → the outcome's x;
 * {{result.items[].name}} → the names of every item, joined by ", "; {{1:number}} → a number.
 */
function fillTemplate(template: string, captures: string[], tool: PromptView['lastToolResult']): string {
  return template.replace(PLACEHOLDER, (_, key: string) => {
    const value = lookup(key, captures, tool);
    return value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  });
}

const PLACEHOLDER = /\{\{\s*([\w.[\]]+)(?::number)?\s*\}\}/g;
/** `{{1:number}}` alone in an argument: the value as a JSON number, for numeric tool parameters. */
const NUMBER_PLACEHOLDER = /^\{\{\s*[\w.[\]]+:number\s*\}\}$/;

function lookup(key: string, captures: string[], tool: PromptView['lastToolResult']): unknown {
  if (/^\d+$/.test(key)) return captures[Number(key)];
  const [head, ...rest] = key.split('.');
  const root: unknown = head === 'result' ? tool?.outcome.result : head === 'outcome' ? tool?.outcome : undefined;
  return walk(root, rest);
}

function walk(value: unknown, path: string[]): unknown {
  if (path.length === 0) return value;
  const [part, ...rest] = path as [string, ...string[]];
  if (part.endsWith('[]')) {
    const list = (value as Record<string, unknown> | undefined)?.[part.slice(0, -2)];
    return Array.isArray(list) ? list.map((item) => walk(item, rest)).join(', ') : undefined;
  }
  return walk((value as Record<string, unknown> | undefined)?.[part], rest);
}

function fillDeep(value: unknown, fill: (s: string) => string): unknown {
  if (typeof value === 'string') return NUMBER_PLACEHOLDER.test(value) ? Number(fill(value)) : fill(value);
  if (Array.isArray(value)) return value.map((v) => fillDeep(v, fill));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillDeep(v, fill)]));
  }
  return value;
}

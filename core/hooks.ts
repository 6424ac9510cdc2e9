// Hooks and guardrails: user code that sees what goes to the model and to tools, and may pass it, rewrite it (redact
// e-mail addresses before the model sees them) or block it with a reason. One file each in the hooks folder
// (HOOKS_DIR; HOOKS names the ones that run, in order), run inside activities (activities/hooks/), their decisions
// recorded in the transcript as notes. Pure types and wording here: the workflow and the web chat read decisions too.
import type { HookDecision, HookPoint } from './hook-points';
import type { ChatMessage, ToolCall, ToolOutcome } from './types';

export { HOOK_POINTS, type HookDecision, type HookPoint } from './hook-points';

/** Which model call: planning the turn, checking a prompt fits the goal (VALIDATE_PROMPTS), summarising, or
 * proposing memories from the transcript at the conversation's end (a goal's `memory.extract`). */
export type ModelTask = 'plan' | 'validate' | 'summarize' | 'extract';

/** What a hook is shown at each point. */
export interface HookInputs {
  /** The user's message, before any model sees it (once per message: the first model call of its turn). */
  userMessage: { text: string };
  /** Every model request: its system prompt and the conversation as it will be sent (for this call only). */
  beforeModelCall: { task: ModelTask; system: string; messages: ChatMessage[] };
  /** The model's answer to a planning call, before anyone sees it. */
  afterModelCall: { task: 'plan'; text: string; toolCalls: ToolCall[] };
  /** A tool call about to run (native, MCP, HTTP API or made tool), its arguments as the model sent them. */
  beforeToolCall: { tool: string; args: Record<string, unknown> };
  /** What a tool answered, before the model (or the transcript) sees it. */
  afterToolCall: { tool: string; args: Record<string, unknown>; outcome: ToolOutcome };
}

/** What a rewrite may replace at each point. */
export interface HookRewrites {
  userMessage: { text: string };
  beforeModelCall: { system?: string; messages?: ChatMessage[] };
  afterModelCall: { text?: string; toolCalls?: ToolCall[] };
  beforeToolCall: { args: Record<string, unknown> };
  afterToolCall: { outcome: ToolOutcome };
}

export type HookEvent<P extends HookPoint = HookPoint> = { [K in P]: { point: K } & HookInputs[K] }[P];

/**
 * A hook's answer: nothing (or `{ pass: true }`) lets it through; `rewrite` replaces part of it, `note` saying what
 * changed in words for the transcript (never the redacted data itself); `block` stops it, the reason told the user
 * and the model.
 */
export type HookAnswer<P extends HookPoint = HookPoint> =
  void | undefined | { pass: true } | { rewrite: HookRewrites[P]; note: string } | { block: string };

export interface HookContext<Config = unknown> {
  point: HookPoint;
  /** The conversation (workflow id); absent outside one. */
  conversationId?: string;
  /** The conversation's agent, where the activity knows it (model calls, MCP calls). */
  goalId?: string;
  /** What `configure` returned at start-up. */
  config: Config;
}

export interface Hook<P extends HookPoint = HookPoint, Config = unknown> {
  /** Lower-case letters, digits and dashes: HOOKS names it, and transcripts say it. */
  name: string;
  description?: string;
  on: P | readonly P[];
  /** Called once when the worker starts, with the worker's HOOK_* settings: read and check them here (a throw stops
   * the start, naming the hook). */
  configure?(settings: Record<string, string | undefined>): Config;
  /** A throw (or an answer that is none of the three) fails closed: what it guarded does not happen. */
  run(event: HookEvent<P>, ctx: HookContext<Config>): HookAnswer<P> | Promise<HookAnswer<P>>;
}

/** Typing help for a hook file's default export (the loader checks the shape again). */
export function defineHook<P extends HookPoint, Config = undefined>(hook: Hook<P, Config>): Hook<P, Config> {
  return hook;
}

export const HOOK_NAME = /^[a-z][a-z0-9-]{0,63}$/;

/** A tool's outcome with what its hooks decided (absent when they only passed), for the workflow to record. */
export type HookedOutcome = ToolOutcome & { hooks?: HookDecision[] };

/** What the hooks made of a turn's prompt: the first model call of the turn checks it, and stops short when a hook
 * rewrote or blocked it, so the transcript has its new form before any model is asked. */
export interface PromptScreening {
  decisions: HookDecision[];
  /** The prompt as the model may see it (rewritten); absent when blocked. */
  text?: string;
  /** Blocked (or a hook failed): the reply the user gets; the message never reaches the model. */
  blocked?: string;
}

/** Whether a decision stops what it guarded. */
export function stops(decision: HookDecision): boolean {
  return decision.action !== 'rewrite';
}

/** What a decision was about, in the transcript's words. */
function subject({ point, tool }: HookDecision): string {
  switch (point) {
    case 'userMessage':
      return 'your message';
    case 'beforeModelCall':
      return "the model's request";
    case 'afterModelCall':
      return "the model's answer";
    case 'beforeToolCall':
      return `the call to ${tool ?? 'a tool'}`;
    case 'afterToolCall':
      return `${tool ?? 'a tool'}'s result`;
  }
}

/** The transcript's line for a decision: "hook pii-redaction rewrote your message: 2 e-mail addresses redacted". */
export function hookLine(d: HookDecision): string {
  const verb = d.action === 'rewrite' ? 'rewrote' : d.action === 'block' ? 'blocked' : 'failed on';
  return `hook ${d.hook} ${verb} ${subject(d)}: ${d.note}`;
}

/** What the user is told (as the agent's reply) when a decision stopped a message or a model call. */
export function hookReply(d: HookDecision): string {
  if (d.action === 'block') return d.note;
  const what =
    d.point === 'userMessage'
      ? 'your message was not sent to the model'
      : d.point === 'afterModelCall'
        ? "the model's answer was withheld"
        : 'the model was not asked';
  return `The hook "${d.hook}" failed, so ${what}: ${d.note}`;
}

/** What the model reads as the outcome of a tool call a decision stopped. */
export function hookToolError(d: HookDecision): string {
  const what = d.point === 'beforeToolCall' ? 'The call was not made' : "The tool's result was withheld";
  return d.action === 'block'
    ? `${what}: the hook "${d.hook}" blocked it (${d.note}).`
    : `${what}: the hook "${d.hook}" failed (${d.note}).`;
}

/** The text a message keeps when its turn stopped (cancelled, or its model call failed) before the userMessage hooks
 * had seen it: unchecked words never reach a model later. */
export const UNCHECKED_TEXT = '[message withheld: the turn stopped before the hooks checked it]';

/** The text a blocked message keeps in the transcript: its words never reach a model, summaries included. */
export function withheldText(d: HookDecision): string {
  return `[message withheld: ${d.action === 'block' ? 'blocked' : 'not checked'} by the hook ${d.hook}]`;
}

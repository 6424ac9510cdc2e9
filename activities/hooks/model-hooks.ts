// The hooks around model calls, for the LLM activities: the turn's prompt screened once (userMessage), every request
// (beforeModelCall) and every planning answer (afterModelCall). A hook that stops a call stops it before the model is
// asked (or before anyone sees its answer), and the decision comes back in the activity's result.
import { hookReply, type HookDecision, type ModelTask, type PromptScreening } from '../../core/hooks';
import type { ChatMessage, ToolCall } from '../../core/types';
import type { ReplyStream } from '../../stream';
import type { HookRunner } from './hook-runner';

/** The prompt's screening, or null when every userMessage hook let it through unchanged (or there are none). */
export async function screenPrompt(
  hooks: HookRunner | undefined,
  text: string,
  goalId: string,
): Promise<PromptScreening | null> {
  if (!hooks?.has('userMessage')) return null;
  const run = await hooks.run('userMessage', { text }, { goalId });
  if (run.stopped) return { decisions: run.decisions, blocked: hookReply(run.stopped) };
  return run.decisions.length ? { decisions: run.decisions, text: run.input.text } : null;
}

/** The last user message of a transcript: the turn's prompt, when the turn's first model call is made. */
export function promptOf(messages: ChatMessage[]): string | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.kind === 'user') return m.text;
  }
  return null;
}

export interface ModelRequestParts {
  system: string;
  messages: ChatMessage[];
  decisions: HookDecision[];
  /** A hook stopped the call: the model must not be asked. */
  stopped?: HookDecision;
}

/** The request as the beforeModelCall hooks leave it (for this call only: the transcript keeps what it has). */
export async function beforeModelCall(
  hooks: HookRunner | undefined,
  task: ModelTask,
  goalId: string,
  system: string,
  messages: ChatMessage[],
): Promise<ModelRequestParts> {
  if (!hooks?.has('beforeModelCall')) return { system, messages, decisions: [] };
  const run = await hooks.run('beforeModelCall', { task, system, messages }, { goalId });
  return { system: run.input.system, messages: run.input.messages, decisions: run.decisions, stopped: run.stopped };
}

/** A planning answer as the afterModelCall hooks leave it; stopped, it has no words and no calls. */
export async function afterModelCall(
  hooks: HookRunner | undefined,
  goalId: string,
  answer: { text: string; toolCalls: ToolCall[] },
): Promise<{ text: string; toolCalls: ToolCall[]; decisions: HookDecision[]; stopped?: HookDecision }> {
  if (!hooks?.has('afterModelCall')) return { ...answer, decisions: [] };
  const run = await hooks.run('afterModelCall', { task: 'plan', ...answer }, { goalId });
  if (run.stopped) return { text: '', toolCalls: [], decisions: run.decisions, stopped: run.stopped };
  return { text: run.input.text, toolCalls: run.input.toolCalls, decisions: run.decisions };
}

/**
 * With afterModelCall hooks, a reply being written is held from screens until they let it through: a hook that
 * redacts or withholds the answer must not have it streamed first. `settle` shows it (passed) or drops it.
 */
export function heldForHooks(
  hooks: HookRunner | undefined,
  out: ReplyStream,
): ReplyStream & { settle(shown: boolean): void } {
  if (!hooks?.has('afterModelCall')) return { ...bind(out), settle: () => undefined };
  let held: string[] | null = [];
  let doneWhileHeld = false;
  return {
    write: (text) => (held ? held.push(text) : out.write(text)),
    done: () => (held ? (doneWhileHeld = true) : out.done()),
    discard: () => out.discard(),
    settle(shown) {
      if (!shown) return out.discard();
      for (const text of held ?? []) out.write(text);
      held = null;
      if (doneWhileHeld) out.done();
    },
  };
}

function bind(out: ReplyStream): ReplyStream {
  return { write: (text) => out.write(text), done: () => out.done(), discard: () => out.discard() };
}

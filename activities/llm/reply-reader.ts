// Reading a streamed model reply: text deltas go out as they come (to the stream bus, via the caller), and the
// whole reply comes back as generateText would return it, failures thrown as generateText would throw them.
import { Context } from '@temporalio/activity';
import type { LanguageModelUsage, ProviderMetadata, StreamTextResult, ToolSet, TypedToolCall } from 'ai';
import type { ReplyStream, StreamTarget } from '../../stream';

/**
 * Reads a streamed reply to its end: text deltas go to `onText` as they come. A stream reports failures as parts,
 * not throws: they are thrown here as generateText would throw them (an abort as its reason, so a timeout or the
 * user's cancel is recognised as such).
 */
export async function readReply(
  result: StreamTextResult<ToolSet, never>,
  signal: AbortSignal,
  onText: (text: string) => void,
): Promise<{ text: string; toolCalls: TypedToolCall<ToolSet>[]; usage: Partial<LanguageModelUsage> }> {
  let text = '';
  const toolCalls: TypedToolCall<ToolSet>[] = [];
  let usage: Partial<LanguageModelUsage> = {};
  let metadata: ProviderMetadata | undefined;
  for await (const part of result.fullStream) {
    if (part.type === 'text-delta') {
      text += part.text;
      onText(part.text);
    } else if (part.type === 'tool-call') toolCalls.push(part);
    else if (part.type === 'finish') {
      // Every provider's stream ends with its own finish (finish_reason, response.completed, message_delta,
      // finishReason): without one the stream stopped early, and what came is part of a reply, never the reply.
      if (part.finishReason === 'other' && part.rawFinishReason === undefined) throw new UnfinishedReply(text);
      // Nothing usable and an error for a finish (Gemini's MALFORMED_FUNCTION_CALL): no call to answer, so ask again.
      if (part.finishReason === 'error' && !text.trim() && toolCalls.length === 0)
        throw new UnusableReply(part.rawFinishReason, metadata);
      usage = part.totalUsage;
      // A provider's filter that stops the reply before a word (Anthropic's refusal, Gemini's SAFETY) would leave the
      // user an empty message: they are told in words instead. (OpenAI's refusals come as text already.)
      if (part.finishReason === 'content-filter' && !text.trim() && toolCalls.length === 0) {
        text = declinedWords(metadata);
        onText(text);
      }
    } else if (part.type === 'finish-step') metadata = part.providerMetadata;
    else if (part.type === 'error') throw signal.aborted ? signal.reason : asError(part.error);
    else if (part.type === 'abort') throw signal.reason;
  }
  return { text, toolCalls, usage };
}

/** What the user is told when the provider's filter stopped the reply: with its reason when the provider gave one. */
export function declinedWords(metadata: ProviderMetadata | undefined): string {
  const stop = metadata?.anthropic?.stopDetails as { explanation?: unknown } | undefined;
  const ratings = metadata?.google?.safetyRatings as { category?: unknown; blocked?: unknown }[] | null | undefined;
  const blocked = (Array.isArray(ratings) ? ratings : []).filter((r) => r.blocked).map((r) => String(r.category));
  const prompt = metadata?.google?.promptFeedback as { blockReason?: unknown } | null | undefined;
  const why =
    typeof stop?.explanation === 'string'
      ? stop.explanation
      : blocked.length
        ? `blocked by its provider's safety filter (${blocked.join(', ')})`
        : typeof prompt?.blockReason === 'string'
          ? `its provider's safety filter blocked the request (${prompt.blockReason})`
          : "stopped by its provider's content filter";
  return `The model declined to answer this: ${why}`;
}

/** The model finished in error with nothing to show for it: worth another try. */
export class UnusableReply extends Error {
  constructor(reason: string | undefined, metadata: ProviderMetadata | undefined) {
    const message = metadata?.google?.finishMessage;
    super(
      `the model's reply was unusable (${reason ?? 'an error'}${typeof message === 'string' ? `: ${message}` : ''})`,
    );
    this.name = 'UnusableReply';
  }
}

/** The provider's stream ended without saying the reply was done: worth another try (llm-activities retries it). */
export class UnfinishedReply extends Error {
  constructor(received: string) {
    super(
      `the reply stream ended before the model finished (the connection closed early, after ${received.length} ` +
        'characters); nothing of it is kept',
    );
    this.name = 'UnfinishedReply';
  }
}

/** A provider may report a mid-stream failure as a plain object ({message, type}): keep its message. */
function asError(error: unknown): unknown {
  // Not `instanceof Error` alone: errors of Node's own realm (fetch's) are not instances under jest.
  if (typeof error !== 'object' || error === null || error instanceof Error || 'stack' in error) return error;
  const message = (error as { message?: unknown }).message;
  return new Error(typeof message === 'string' ? message : JSON.stringify(error), { cause: error });
}

/** The conversation and attempt this activity streams for; none outside an activity. */
export function streamTarget(): StreamTarget | undefined {
  try {
    const { workflowExecution: run, activityId, attempt } = Context.current().info;
    return run && { conversationId: run.workflowId, runId: run.runId, activityId, attempt };
  } catch {
    return undefined;
  }
}

/**
 * A reply stream that holds its text until `release()`: a plan made while its prompt is being checked must not
 * show a word of an answer the check may yet refuse. Discarded unreleased, nothing of it was ever shown.
 */
export function heldBack(out: ReplyStream): ReplyStream & { release(): void } {
  let held: string[] | null = [];
  // A plan may finish before its check: its `done` waits with its text.
  let doneWhileHeld = false;
  return {
    write: (text) => (held ? held.push(text) : out.write(text)),
    release() {
      for (const text of held ?? []) out.write(text);
      held = null;
      if (doneWhileHeld) out.done();
    },
    done: () => (held ? (doneWhileHeld = true) : out.done()),
    discard: () => out.discard(),
  };
}

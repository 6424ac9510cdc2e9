// The one envelope every delegated agent hands back, checked with zod where it is made (the delegate) and where it
// is read (the parent): whatever a child returns (an older worker's transcript, a failure, a cancel), the parent's
// LLM gets this shape. zod/mini keeps the workflow bundle small.
import * as z from 'zod/mini';
import { ChildWorkflowFailure, isCancellation, TimeoutFailure } from '@temporalio/workflow';
import { ZERO_USAGE, type DelegateEnvelope, type Transcript } from './types';

const usageSchema = z.object({ inputTokens: z.number(), outputTokens: z.number(), totalTokens: z.number() });

export const delegateEnvelopeSchema = z.object({
  status: z.enum(['ok', 'error', 'needs_input', 'cancelled']),
  summary: z.string(),
  data: z.optional(z.unknown()),
  usage: usageSchema,
});

/** The envelope of a delegate's transcript; a transcript without a valid one is an `error` envelope saying why. */
export function envelopeOf(result: Transcript | undefined): DelegateEnvelope {
  const parsed = delegateEnvelopeSchema.safeParse(result?.envelope);
  if (parsed.success) return parsed.data as DelegateEnvelope;
  if (result && !result.envelope) {
    // Ended without finishing its task: somebody ended that conversation itself.
    return { status: 'cancelled', summary: `The agent's conversation ended (${result.endedBy}) before it finished.`, usage: result.usage ?? ZERO_USAGE };
  }
  return { status: 'error', summary: `The agent answered with an unreadable envelope: ${z.prettifyError(parsed.error).slice(0, 300)}`, usage: ZERO_USAGE };
}

/** A delegate that failed, timed out or was cancelled: an envelope, never a failed parent. */
export function envelopeOfFailure(err: unknown, timeoutSeconds: number): DelegateEnvelope {
  const cause: unknown = err instanceof ChildWorkflowFailure ? err.cause : err;
  if (isCancellation(err) || isCancellation(cause)) return { status: 'cancelled', summary: 'The agent was cancelled before it finished.', usage: ZERO_USAGE };
  if (cause instanceof TimeoutFailure) {
    return { status: 'error', summary: `The agent did not finish within ${timeoutSeconds} s (DELEGATE_TIMEOUT).`, usage: ZERO_USAGE };
  }
  const message = cause instanceof Error ? cause.message : String(err);
  return { status: 'error', summary: `The agent failed: ${message}`, usage: ZERO_USAGE };
}

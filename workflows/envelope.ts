// The one envelope every delegated agent hands back, checked where it is read (the parent): whatever a child returns
// (an older worker's transcript, a failure, a cancel), the parent's LLM gets this shape. Checked by hand: a schema
// library in the workflow bundle cost every cached conversation memory (measured: bench/README.md).
import { ChildWorkflowFailure, isCancellation, TimeoutFailure } from '@temporalio/workflow';
import { type Usage } from '../core/types';
import { type DelegateEnvelope, type Transcript } from '../core/conversation-types';
import { ZERO_USAGE } from '../core/usage';

const STATUSES: readonly string[] = ['ok', 'error', 'needs_input', 'cancelled'] satisfies DelegateEnvelope['status'][];

/** Why `value` is not an envelope, or null when it is one. */
export function envelopeProblem(value: unknown): string | null {
  if (!value || typeof value !== 'object') return 'not an object';
  const e = value as Record<string, unknown>;
  if (!STATUSES.includes(e.status as string))
    return `status must be one of ${STATUSES.join(', ')}, got ${JSON.stringify(e.status)}`;
  if (typeof e.summary !== 'string') return 'summary must be a string';
  const u = e.usage as Partial<Record<keyof Usage, unknown>> | undefined;
  if (!u || ['inputTokens', 'outputTokens', 'totalTokens'].some((k) => typeof u[k as keyof Usage] !== 'number'))
    return 'usage must hold inputTokens, outputTokens and totalTokens';
  return null;
}

/** The envelope of a delegate's transcript; a transcript without a valid one is an `error` envelope saying why. */
export function envelopeOf(result: Transcript | undefined): DelegateEnvelope {
  const problem = envelopeProblem(result?.envelope);
  if (problem === null) return result!.envelope!;
  if (result && !result.envelope) {
    // Ended without finishing its task: somebody ended that conversation itself.
    return {
      status: 'cancelled',
      summary: `The agent's conversation ended (${result.endedBy}) before it finished.`,
      usage: result.usage ?? ZERO_USAGE,
    };
  }
  return { status: 'error', summary: `The agent answered with an unreadable envelope: ${problem}`, usage: ZERO_USAGE };
}

/** A delegate that failed, timed out or was cancelled: an envelope, never a failed parent. */
export function envelopeOfFailure(err: unknown, timeoutSeconds: number): DelegateEnvelope {
  const cause: unknown = err instanceof ChildWorkflowFailure ? err.cause : err;
  if (isCancellation(err) || isCancellation(cause))
    return { status: 'cancelled', summary: 'The agent was cancelled before it finished.', usage: ZERO_USAGE };
  if (cause instanceof TimeoutFailure) {
    return {
      status: 'error',
      summary: `The agent did not finish within ${timeoutSeconds} s (DELEGATE_TIMEOUT).`,
      usage: ZERO_USAGE,
    };
  }
  const message = cause instanceof Error ? cause.message : String(err);
  return { status: 'error', summary: `The agent failed: ${message}`, usage: ZERO_USAGE };
}

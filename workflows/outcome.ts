// An unattended run (a schedule's, a trigger's) that names a `notify` URL sends its outcome there once it has ended,
// however it ended: answered, failed or cancelled. The delivery is an activity Temporal retries with backoff, so a
// receiver down for a while still gets it, and the run's result says whether it did. Only runs started with `notify`
// take these steps, so no earlier history meets them.
import { CancellationScope, ContinueAsNew, isCancellation, workflowInfo } from '@temporalio/workflow';
import type {
  AgentGoalInput,
  OutcomeDelivery,
  RunOutcome,
  Transcript,
  UnattendedRun,
} from '../core/conversation-types';
import { deliverOutcome } from './activity-stubs';

/** Runs the conversation, then delivers its outcome; a failed or cancelled run's too, before it fails as it would. */
export async function notifying(
  input: AgentGoalInput & { run: UnattendedRun & { notify: string } },
  converse: () => Promise<Transcript>,
): Promise<Transcript> {
  let result: Transcript;
  try {
    result = await converse();
  } catch (err) {
    if (err instanceof ContinueAsNew) throw err;
    const failed = {
      status: isCancellation(err) ? ('cancelled' as const) : ('error' as const),
      summary: messageOf(err),
    };
    const zero = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
    // A cancelled run still says so: the delivery runs outside the cancelled scope.
    await CancellationScope.nonCancellable(() => deliver(input, { ...failed, goalId: input.goalId, usage: zero }));
    throw err;
  }
  const envelope = result.envelope ?? { status: 'error' as const, summary: result.summary, usage: result.usage };
  result.delivery = await deliver(input, {
    status: envelope.status,
    summary: envelope.summary,
    goalId: result.goalId,
    usage: envelope.usage,
  });
  return result;
}

async function deliver(
  { run }: { run: UnattendedRun & { notify: string } },
  ended: Pick<RunOutcome, 'status' | 'summary' | 'goalId' | 'usage'>,
): Promise<OutcomeDelivery> {
  const { workflowId, firstExecutionRunId } = workflowInfo();
  const outcome: RunOutcome = {
    run: workflowId,
    key: `${workflowId}/${firstExecutionRunId}`,
    source: run.source,
    name: run.name,
    goalId: ended.goalId,
    status: ended.status,
    summary: ended.summary,
    usage: ended.usage,
  };
  try {
    await deliverOutcome({ url: run.notify, outcome });
    return { url: run.notify, delivered: true };
  } catch (err) {
    return { url: run.notify, delivered: false, error: messageOf(err) };
  }
}

/** The failure's own words: an activity's or a child's cause, not Temporal's wrapper. */
function messageOf(err: unknown): string {
  const e = err as { cause?: Error; message?: string };
  return e.cause?.message ?? e.message ?? String(err);
}

// An unattended run (a schedule's, a trigger's), however it ended (answered, failed or cancelled), is counted by its
// schedule or trigger (the worker's agent_unattended_runs; a metric is no command, so replays are unchanged) and, when
// it names a `notify` URL, sends its outcome there. The delivery is an activity Temporal retries with backoff, so a
// receiver down for a while still gets it, and the run's result says whether it did. Only runs started with `notify`
// take that step, so no earlier history meets it.
import { CancellationScope, ContinueAsNew, isCancellation, metricMeter, workflowInfo } from '@temporalio/workflow';
import type {
  AgentGoalInput,
  OutcomeDelivery,
  RunOutcome,
  Transcript,
  UnattendedRun,
} from '../core/conversation-types';
import { METRICS } from '../core/metric-names';
import { deliverOutcome } from './activity-stubs';

/** Runs the conversation, counts how it ended and delivers its outcome when asked; a failed or cancelled run's too,
 * before it fails as it would. */
export async function unattended(
  input: AgentGoalInput,
  run: UnattendedRun,
  converse: () => Promise<Transcript>,
): Promise<Transcript> {
  let result: Transcript;
  try {
    result = await converse();
  } catch (err) {
    if (err instanceof ContinueAsNew) throw err;
    const status = isCancellation(err) ? ('cancelled' as const) : ('error' as const);
    count(run, status);
    const zero = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
    const ended = { status, summary: messageOf(err), goalId: input.goalId, usage: zero };
    // A cancelled run still says so: the delivery runs outside the cancelled scope.
    if (run.notify) await CancellationScope.nonCancellable(() => deliver(run, ended));
    throw err;
  }
  const envelope = result.envelope ?? { status: 'error' as const, summary: result.summary, usage: result.usage };
  count(run, envelope.status);
  if (run.notify)
    result.delivery = await deliver(run, {
      status: envelope.status,
      summary: envelope.summary,
      goalId: result.goalId,
      usage: envelope.usage,
    });
  return result;
}

function count(run: UnattendedRun, status: RunOutcome['status']): void {
  metricMeter
    .createCounter(METRICS.unattendedRuns, 'runs', 'Runs a schedule or a webhook trigger started, by how they ended')
    .add(1, { source: run.source, name: run.name, status });
}

async function deliver(
  run: UnattendedRun,
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
  const url = run.notify!;
  try {
    await deliverOutcome({ url, outcome });
    return { url, delivered: true };
  } catch (err) {
    return { url, delivered: false, error: messageOf(err) };
  }
}

/** The failure's own words: an activity's or a child's cause, not Temporal's wrapper. */
function messageOf(err: unknown): string {
  const e = err as { cause?: Error; message?: string };
  return e.cause?.message ?? e.message ?? String(err);
}

// An unattended run (a schedule's, a trigger's) that names a `notify` URL sends its outcome there once it has ended:
// the delivery is an activity Temporal retries with backoff, so a receiver down for a while still gets it, and the
// run's result says whether it did. Only runs started with `notify` take this step, so no earlier history meets it.
import type { OutcomeDelivery, Transcript, UnattendedRun } from '../core/conversation-types';
import { deliverOutcome } from './activity-stubs';

export async function deliverRunOutcome(run: UnattendedRun, runId: string, t: Transcript): Promise<OutcomeDelivery> {
  const url = run.notify!;
  const envelope = t.envelope ?? { status: 'error' as const, summary: t.summary, usage: t.usage };
  const outcome = {
    run: runId,
    source: run.source,
    name: run.name,
    goalId: t.goalId,
    status: envelope.status,
    summary: envelope.summary,
    usage: envelope.usage,
  };
  try {
    await deliverOutcome({ url, outcome });
    return { url, delivered: true };
  } catch (err) {
    const cause = (err as { cause?: Error }).cause ?? (err as Error);
    return { url, delivered: false, error: cause.message };
  }
}

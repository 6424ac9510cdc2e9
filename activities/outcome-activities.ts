// An unattended run's outcome sent where its schedule or trigger says (`notify`): one POST per attempt, retried by
// Temporal with backoff (workflows/activity-stubs.ts). Every attempt carries the same Idempotency-Key (the outcome's
// `key`), so a receiver that saw an attempt whose answer was lost records the run once. Redirects are not followed:
// the outcome goes where the run was told, or nowhere.
import { ApplicationFailure } from '@temporalio/activity';
import type { OutcomeActivities } from '../core/activity-types';

/** How long one attempt may take before it counts as failed (and is retried). */
const ATTEMPT_MS = 15_000;

export function createOutcomeActivities(): OutcomeActivities {
  return {
    async deliverOutcome({ url, outcome }) {
      let res: Response;
      try {
        res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'idempotency-key': outcome.key },
          body: JSON.stringify(outcome),
          signal: AbortSignal.timeout(ATTEMPT_MS),
          redirect: 'manual',
        });
      } catch (err) {
        throw ApplicationFailure.retryable(`POST ${url}: ${(err as Error).message}`, 'NotifyUnreachable');
      }
      await res.body?.cancel();
      if (res.ok) return;
      const said = `POST ${url} answered ${res.status} ${res.statusText}`.trim();
      // A refusal that a retry cannot change (a wrong URL, a rejected body, a redirect) ends the delivery; the others
      // (a receiver down, overloaded or slow) retry.
      if (res.status < 500 && ![408, 425, 429].includes(res.status))
        throw ApplicationFailure.nonRetryable(said, 'NotifyRefused');
      throw ApplicationFailure.retryable(said, 'NotifyFailed');
    },
  };
}

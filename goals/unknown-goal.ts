// The one check that a goal id names a goal the worker serves, and its one wording: the worker's UnknownGoal failure,
// the CLI, the client library and the HTTP API all say it the same way (tests and users' scripts match the words).
import { ApplicationFailure } from '@temporalio/common';
import { FailureTypes } from '../core/activity-types';

/** Null when `goalId` is one of `known`; otherwise the sentence for the user, naming the goals there are. */
export function unknownGoalMessage(goalId: string, known: readonly string[]): string | null {
  if (known.includes(goalId)) return null;
  return `Unknown goal "${goalId}". Known goals: ${known.join(', ')}.`;
}

/** The worker's failure for that sentence: non-retryable, so the workflow and clients hear it at once. */
export function unknownGoalFailure(message: string): ApplicationFailure {
  return ApplicationFailure.create({ message, type: FailureTypes.UnknownGoal, nonRetryable: true });
}

// Turns as the worker's metrics count them: a turn runs from the moment the agent starts working on a prompt to the
// moment it needs the user again (its answer, an approval, a question) or the conversation ends. The workflow's
// metric meter records nothing while a history is replayed, so an evicted or recovered conversation counts once.
import { metricMeter } from '@temporalio/workflow';
import { METRICS } from './metric-names';
import type { ConversationState } from './types';

export class TurnMetrics {
  private startedAt: number | null = null;

  /** Called with each state the conversation publishes. */
  observe(state: ConversationState, goalId: string): void {
    if (state === 'working') {
      this.startedAt ??= Date.now();
      return;
    }
    if (this.startedAt === null) return;
    const ms = Date.now() - this.startedAt;
    this.startedAt = null;
    metricMeter.createCounter(METRICS.turns, 'turns', 'Turns by goal and what the agent then waited for').add(1, { goal: goalId, then: state });
    metricMeter.createHistogram(METRICS.turnLatency, 'int', 'ms', 'From a prompt taken to the agent needing the user again (workflow time)').record(ms, { goal: goalId });
  }
}

// Turns as metrics and traces see them: a turn runs from the moment the agent starts working on a prompt to the
// moment it needs the user again (its answer, an approval, a question) or the conversation ends. The workflow's
// metric meter records nothing while a history is replayed, so an evicted or recovered conversation counts once;
// its trace span is exported through a sink, which replays do not call either.
import { metricMeter } from '@temporalio/workflow';
import { METRICS } from '../core/metric-names';
import { turnTracing, type TurnSpan } from './turn-trace';
import type { ConversationState } from '../core/conversation-types';

export class TurnObserver {
  private started: { at: number; span: TurnSpan } | null = null;

  /** Called with each state the conversation publishes. */
  observe(state: ConversationState, goalId: string, turn: number): void {
    if (state === 'working') {
      this.started ??= { at: Date.now(), span: turnTracing().start({ 'agent.goal': goalId, 'agent.turn': turn }) };
      return;
    }
    if (!this.started) return;
    const ms = Date.now() - this.started.at;
    this.started.span.end({ 'agent.goal': goalId, 'agent.then': state });
    this.started = null;
    metricMeter
      .createCounter(METRICS.turns, 'turns', 'Turns by goal and what the agent then waited for')
      .add(1, { goal: goalId, then: state });
    metricMeter
      .createHistogram(
        METRICS.turnLatency,
        'int',
        'ms',
        'From a prompt taken to the agent needing the user again (workflow time)',
      )
      .record(ms, { goal: goalId });
  }

  /** Runs one step of the workflow inside the turn, so its activities and delegates are traced as part of it. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    return this.started ? this.started.span.run(fn) : fn();
  }
}

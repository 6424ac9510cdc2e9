// Where a turn's time goes around its model calls: each model call's start and end (wall clock, as the server stamps
// history events), and, for each timed turn, the server's timeline (turn-breakdown.ts) with what the LLM activity
// did before its first model request left and after its last answer arrived.
import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { History } from '@temporalio/common/lib/proto-utils';
import { historyTimeline, type UpdateSpan } from './history-timeline';
import { turnBreakdown } from './turn-breakdown';

export interface ModelCallTimes {
  start: number;
  end: number;
}

/** `model`, recording when each call starts and when its answer has been read to the end. */
export function timedModel(model: LanguageModelV3, calls: ModelCallTimes[]): LanguageModelV3 {
  return {
    ...model,
    doGenerate: async (o) => {
      const start = Date.now();
      const result = await model.doGenerate(o);
      calls.push({ start, end: Date.now() });
      return result;
    },
    doStream: async (o) => {
      const call = { start: Date.now(), end: NaN };
      calls.push(call);
      const result = await model.doStream(o);
      const stream = result.stream.pipeThrough(
        new TransformStream({
          flush: () => {
            call.end = Date.now();
          },
        }),
      );
      return { ...result, stream };
    },
  };
}

/** One timed turn, in ms: the server's intervals, and the LLM activity's own time around its model calls. */
export interface StepTimes {
  onServer: number;
  wftDispatch: number;
  wftOnWorker: number;
  activityDispatch: number;
  activity: number;
  /** The LLM activity started → its first model request left. */
  beforeModel: number;
  /** The model calls, first start → last end. */
  model: number;
  /** The last model answer read → the LLM activity completed. */
  afterModel: number;
  other: number;
  wfts: number;
}

/** The last `n` turns of `history`, each with the model calls made within its LLM activity. */
export function stepTimes(history: History, n: number, calls: ModelCallTimes[]): StepTimes[] {
  return historyTimeline(history)
    .updates.slice(-n)
    .map((span) => spanStepTimes(span, calls));
}

/** One turn's span of a history, with the model calls made within its LLM activity. */
export function spanStepTimes(span: UpdateSpan, calls: ModelCallTimes[]): StepTimes {
  const b = turnBreakdown(span);
  const llm = span.activities.find((a) => a.outcome === 'completed' && /plan/i.test(a.type));
  const within = llm ? calls.filter((c) => c.start >= llm.startedAt! - 1 && c.end <= llm.closedAt! + 1) : [];
  const first = Math.min(...within.map((c) => c.start));
  const last = Math.max(...within.map((c) => c.end));
  return {
    onServer: b.onServer,
    wftDispatch: b.wftDispatch,
    wftOnWorker: b.wftOnWorker,
    activityDispatch: b.activityDispatch,
    activity: b.activities,
    beforeModel: llm && within.length ? first - llm.startedAt! : NaN,
    model: within.length ? last - first : NaN,
    afterModel: llm && within.length ? llm.closedAt! - last : NaN,
    other: b.other,
    wfts: b.wfts,
  };
}

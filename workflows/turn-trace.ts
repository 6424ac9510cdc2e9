// Where a turn's trace span comes from. The workflow code only marks turns; the span itself is made by the tracing
// interceptors (workflows/tracing-interceptors.ts), which exist only in the bundle a worker with tracing runs — so a
// worker without tracing carries no OpenTelemetry code in its workflows (each cached conversation pays for what its
// bundle holds: see the memory figures in bench/README.md).

/** A turn being traced: what runs inside `run` (activities, child workflows) is part of it. */
export interface TurnSpan {
  run<T>(fn: () => Promise<T>): Promise<T>;
  end(attributes: Record<string, string | number>): void;
}

export interface TurnTracing {
  start(attributes: Record<string, string | number>): TurnSpan;
}

const untraced: TurnTracing = {
  start: () => ({ run: (fn) => fn(), end: () => {} }),
};

/**
 * Kept in the workflow's globals, not in this module: the worker shares its workflow modules between conversations
 * (worker/workflow-code.ts) while Temporal gives each workflow its own globals; each conversation's tracing
 * interceptors (their OpenTelemetry context) are its own.
 */
const TRACING = Symbol.for('agent.turnTracing');
type WithTracing = { [TRACING]?: TurnTracing };

/** Called by the tracing interceptors as each workflow starts. */
export function setTurnTracing(t: TurnTracing): void {
  (globalThis as WithTracing)[TRACING] = t;
}

export function turnTracing(): TurnTracing {
  return (globalThis as WithTracing)[TRACING] ?? untraced;
}

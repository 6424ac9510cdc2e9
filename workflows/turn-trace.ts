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

let tracing: TurnTracing = untraced;

/** Called by the tracing interceptors as each workflow starts (stateless: every conversation's spans are its own). */
export function setTurnTracing(t: TurnTracing): void {
  tracing = t;
}

export function turnTracing(): TurnTracing {
  return tracing;
}

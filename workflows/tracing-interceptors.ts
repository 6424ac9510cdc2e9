// The workflow interceptors of a worker with tracing (OTEL_EXPORTER_OTLP_ENDPOINT set): Temporal's OpenTelemetry
// interceptors (RunWorkflow, StartActivity, StartChildWorkflow… spans, context carried in headers), and our turn spans
// around them. Bundled only into the traced workflow bundle (worker/workflow-bundle.ts).
import * as otel from '@opentelemetry/api';
import { interceptors as temporalInterceptors } from '@temporalio/interceptors-opentelemetry/lib/workflow-interceptors';
import type { WorkflowInterceptors } from '@temporalio/workflow';
import { setTurnTracing, type TurnSpan } from './turn-trace';

const TURN_SPAN = 'agent.turn';

function startTurn(attributes: Record<string, string | number>): TurnSpan {
  // Temporal's interceptors registered the sandbox's tracer provider as they were made (below, first).
  const parent = otel.context.active();
  const span = otel.trace.getTracer('agent-orchestrator').startSpan(TURN_SPAN, { attributes }, parent);
  const inTurn = otel.trace.setSpan(parent, span);
  return {
    run: (fn) => otel.context.with(inTurn, fn),
    end: (ended) => {
      span.setAttributes(ended);
      span.end();
    },
  };
}

export const interceptors = (): WorkflowInterceptors => {
  const made = temporalInterceptors();
  setTurnTracing({ start: startTurn });
  return made;
};

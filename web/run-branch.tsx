// One branch of a run (the conversation, or a delegate nested under its AskAgent step): its agent, status, totals and
// Temporal UI link, then its turns, each a list of steps on a timeline. A delegate's branch is drawn inside its step,
// so parallel delegates show side by side in time with their own steps and state. A model call that was shown the
// owner's memories lists them, each a link to its entry on the Memory page.
import { Fragment } from 'react';
import type { RunBranch, RunStatus, RunStep, RunTurn } from '../core/run-view';
import {
  KIND_TEXT,
  STATUS_TEXT,
  branchTimes,
  recalledHead,
  stepParts,
  timelineSpan,
  totalsParts,
  turnTimes,
  turnTitle,
} from '../core/run-format';
import { startedByText } from '../core/run-starter';

interface Clock {
  now: number;
}

interface Span {
  left: number;
  width: number;
}

/** `bar`: a delegate's place on its parent turn's timeline. */
export function RunBranchView({ branch, clock, bar }: { branch: RunBranch; clock: Clock; bar?: Span }) {
  const delegate = bar !== undefined;
  const b = branch;
  const { status } = b;
  const times = branchTimes(b, clock.now);
  const last = b.turns.length - 1;
  return (
    <section
      className={`run-branch run-${status}`}
      data-testid="run-branch"
      data-agent={b.agentName || b.goalId}
      data-status={status}
      data-workflow={b.workflowId}
      aria-label={`${delegate ? 'Delegate' : 'Agent'} ${b.agentName || b.goalId}: ${STATUS_TEXT[status]}`}
    >
      <header className="run-branch-head">
        <span className="run-agent">{b.agentName || b.goalId || b.workflowId}</span>
        <StatusBadge status={status} />
        {b.temporalUrl && (
          <a
            className="run-temporal"
            href={b.temporalUrl}
            target="_blank"
            rel="noreferrer"
            data-testid="run-temporal-link"
            title={`${b.workflowId} in the Temporal UI`}
          >
            Temporal UI
          </a>
        )}
      </header>
      {b.startedBy && (
        <p className="run-started-by" data-testid="run-started-by">
          <a href="#/schedules">{startedByText(b.startedBy)}</a>
        </p>
      )}
      <p className="run-totals" data-testid="run-branch-totals">
        {totalsParts(b.totals, times).join(' · ')}
      </p>
      {bar && <TimelineBar span={bar} />}
      <ol className="run-turns">
        {b.turns.map((turn, i) => (
          <RunTurnView
            key={turn.index}
            turn={turn}
            clock={clock}
            delegate={delegate}
            latest={i === last}
            alone={delegate && b.turns.length === 1}
          />
        ))}
      </ol>
    </section>
  );
}

function RunTurnView({
  turn,
  clock,
  delegate,
  latest,
  alone,
}: {
  turn: RunTurn;
  clock: Clock;
  delegate: boolean;
  latest: boolean;
  /** The only turn of a delegate's branch. */
  alone: boolean;
}) {
  const { status } = turn;
  const times = turnTimes(turn, clock.now);
  const title = turnTitle(turn, delegate);
  const steps = turn.steps.length ? (
    <ol className="run-steps">
      {turn.steps.map((step) => (
        <RunStepView key={step.id} step={step} turn={turn} turnMs={times.durationMs} clock={clock} />
      ))}
    </ol>
  ) : (
    <p className="run-empty">No steps yet.</p>
  );
  const attrs = {
    className: `run-turn run-${status}`,
    'data-testid': 'run-turn',
    'data-status': status,
    'data-index': turn.index,
  };
  // A delegate's one task: its branch's head already says its status and totals.
  if (alone)
    return (
      <li {...attrs}>
        <p className="run-task" title={title}>
          {title}
        </p>
        {steps}
      </li>
    );
  return (
    <li {...attrs}>
      {/* Earlier turns fold away; the latest stays open. */}
      <details open={latest}>
        <summary>
          <span className="run-turn-title" title={title}>
            {title}
          </span>
          <StatusBadge status={status} />
          <span className="run-totals" data-testid="run-turn-totals">
            {totalsParts(turn.totals, times).join(' · ')}
          </span>
        </summary>
        {steps}
      </details>
    </li>
  );
}

function RunStepView({ step, turn, turnMs, clock }: { step: RunStep; turn: RunTurn; turnMs: number; clock: Clock }) {
  const span = timelineSpan(step, turn, turnMs, clock.now);
  const { status } = step;
  const attrs = {
    className: `run-step run-${status} run-kind-${step.kind}`,
    'data-testid': 'run-step',
    'data-kind': step.kind,
    'data-status': status,
    'data-label': step.label,
    'data-attempt': step.attempt ?? 1,
  };
  // A delegate read so far is drawn as its own branch, which names it; its task is its first turn's title.
  if (step.branch)
    return (
      <li {...attrs}>
        <RunBranchView branch={step.branch} clock={clock} bar={span} />
      </li>
    );
  return (
    <li {...attrs}>
      <div className="run-step-line">
        <span className="run-kind">{KIND_TEXT[step.kind]}</span>
        <span className="run-label">{step.label}</span>
        <StatusBadge status={status} />
        <span className="run-facts" data-testid="run-step-facts">
          {stepParts(step, clock.now).join(' · ')}
        </span>
      </div>
      {step.detail && (
        <p className="run-detail" title={step.detail}>
          {step.detail}
        </p>
      )}
      {step.memories?.length ? <Recalled ids={step.memories} /> : null}
      {step.attempt && step.attempt > 1 ? <Retry step={step} /> : null}
      <TimelineBar span={span} />
    </li>
  );
}

function TimelineBar({ span }: { span: Span }) {
  return (
    <div className="run-bar" aria-hidden="true">
      <span style={{ left: `${span.left}%`, width: `${span.width}%` }} />
    </div>
  );
}

function Recalled({ ids }: { ids: string[] }) {
  return (
    <p className="run-memories" data-testid="run-memories">
      {recalledHead(ids.length)}:{' '}
      {ids.map((id, i) => (
        <Fragment key={id}>
          {i > 0 && ', '}
          <a href={`#/memories/${encodeURIComponent(id)}`} title={`Memory ${id}: its words, and what used it`}>
            {id}
          </a>
        </Fragment>
      ))}
    </p>
  );
}

function Retry({ step }: { step: RunStep }) {
  return (
    <p className="run-retry" data-testid="run-retry">
      Attempt {step.attempt}
      {step.lastFailure ? `, after: ${step.lastFailure}` : ''}
    </p>
  );
}

function StatusBadge({ status }: { status: RunStatus }) {
  return (
    <span className={`run-status run-${status}`} data-testid="run-status">
      {STATUS_TEXT[status]}
    </span>
  );
}

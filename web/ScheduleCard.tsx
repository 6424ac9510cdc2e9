// One schedule: its agent, prompt and policy, when it next comes due (or that it is paused, and the note saying why),
// pause/unpause with a note, a run now, delete after a second click, and its latest runs with their outcomes. Read
// again from the API (GET /api/schedules/{name}) after every action, and every second after "Run now" until the new
// run has ended: Temporal starts the run, nothing here waits on it.
import { useEffect, useState } from 'react';
import { api, messageOf, type Schedule } from './api';
import { useAction } from './use-action';
import { when } from './RegistryTable';
import { UnattendedRuns } from './UnattendedRuns';

/** How long after "Run now" the card looks for the run and its answer, a second apart. */
const WATCH_POLLS = 60;
/** A run still going for long (waiting for an approval) is looked at again this often. */
const SLOW_POLL_MS = 5_000;

const approvalsText = (a: Schedule['approvals']) =>
  a === 'deny'
    ? 'calls that need approval: denied'
    : a === 'ask'
      ? 'calls that need approval: asks the owner'
      : `auto: ${a.auto.join(', ')}`;

export function ScheduleCard({
  summary,
  agentName,
  onDeleted,
}: {
  summary: Schedule;
  agentName(goalId: string): string;
  onDeleted(name: string): void;
}) {
  const { name } = summary;
  const [detail, setDetail] = useState<Schedule>(summary);
  const [round, setRound] = useState(0);
  /** After "Run now": the newest run before it, and the polls left. */
  const [watch, setWatch] = useState<{ newest: string | undefined; left: number } | null>(null);
  const [note, setNote] = useState('');
  const [confirming, setConfirming] = useState(false);
  const { busy, error, setError, act: run } = useAction();
  const runs = detail.runs ?? [];

  useEffect(() => {
    let live = true;
    api.schedule(name).then(
      (d) => live && setDetail(d),
      (err) => live && setError(messageOf(err)),
    );
    return () => {
      live = false;
    };
  }, [name, round]);

  // Looked at again: each second while a run just asked for has not come or not ended, slowly while one is going.
  const going = runs.some((r) => r.state === 'running');
  const waiting = !!watch && watch.left > 0 && (runs[0]?.conversationId === watch.newest || going);
  useEffect(() => {
    if (!waiting && !going) return;
    const timer = setTimeout(
      () => {
        setWatch((w) => w && { ...w, left: w.left - 1 });
        setRound((r) => r + 1);
      },
      waiting ? 1_000 : SLOW_POLL_MS,
    );
    return () => clearTimeout(timer);
  }, [detail, waiting, going]);

  async function act(work: () => Promise<unknown>, after?: () => void) {
    if (!(await run(work))) return;
    after?.();
    setRound((r) => r + 1);
  }

  return (
    <article
      className="schedule-card"
      data-testid="schedule"
      data-name={name}
      data-paused={String(detail.paused)}
      aria-labelledby={`schedule-${name}`}
    >
      <header className="schedule-head">
        <h3 id={`schedule-${name}`}>{name}</h3>
        <span className={`badge ${detail.paused ? 'warn' : 'status-ok'}`} data-testid="schedule-state">
          {detail.paused ? 'paused' : 'active'}
        </span>
        <span className="small muted">
          {agentName(detail.goalId)} · {approvalsText(detail.approvals)}
        </span>
      </header>
      <p className="schedule-prompt">“{detail.prompt}”</p>
      {detail.paused ? (
        <p className="small warn-text" data-testid="schedule-note">
          Paused{detail.note ? `: ${detail.note}` : ''}
        </p>
      ) : (
        <p className="small" data-testid="schedule-next">
          Next (UTC): {detail.nextRuns.length ? detail.nextRuns.slice(0, 3).map(when).join(', ') : 'none'}
          {detail.note && <span className="muted"> · {detail.note}</span>}
        </p>
      )}
      <div className="schedule-actions">
        <input
          aria-label={`Note for ${detail.paused ? 'unpausing' : 'pausing'} ${name}`}
          data-testid="schedule-pause-note"
          placeholder="note (why)"
          value={note}
          onChange={(e) => setNote(e.target.value)}
        />
        <button
          type="button"
          data-testid={detail.paused ? 'schedule-unpause' : 'schedule-pause'}
          disabled={busy}
          onClick={() =>
            void act(
              () => api.pauseSchedule(name, !detail.paused, note.trim() || undefined),
              () => setNote(''),
            )
          }
        >
          {detail.paused ? 'Unpause' : 'Pause'}
        </button>
        <button
          type="button"
          data-testid="schedule-trigger"
          disabled={busy}
          onClick={() =>
            void act(
              () => api.triggerSchedule(name),
              () => setWatch({ newest: runs[0]?.conversationId, left: WATCH_POLLS }),
            )
          }
        >
          Run now
        </button>
        {confirming ? (
          <span className="confirm" role="group" aria-label={`Delete ${name}?`}>
            <span className="small">Delete {name}? Its runs stay readable.</span>
            <button
              type="button"
              className="danger"
              data-testid="schedule-delete-confirm"
              disabled={busy}
              onClick={() =>
                void act(
                  () => api.deleteSchedule(name),
                  () => onDeleted(name),
                )
              }
            >
              Delete
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              Keep
            </button>
          </span>
        ) : (
          <button type="button" className="danger" data-testid="schedule-delete" onClick={() => setConfirming(true)}>
            Delete…
          </button>
        )}
      </div>
      {error && (
        <p className="error" role="alert" data-testid="schedule-error">
          {error}
        </p>
      )}
      <details className="schedule-runs" open>
        <summary>Latest runs{waiting ? ' (waiting for the new run…)' : ''}</summary>
        <UnattendedRuns runs={runs} label={`Latest runs of ${name}`} />
      </details>
    </article>
  );
}

// The latest runs of a schedule or a webhook trigger, newest first: when each started, where it is, the agent's answer
// (its status and words) and its cost, and a link to its conversation, whose run view shows every step.
import { formatUsd } from '../core/format';
import type { UnattendedRunRecord } from './api';
import { when } from './RegistryTable';

/** An ended run's word is its answer's status (`ok`, `error`, `needs_input`); a run still going says its state. */
const outcomeOf = (r: UnattendedRunRecord) => r.status ?? r.state;

export function UnattendedRuns({ runs, label }: { runs: UnattendedRunRecord[]; label: string }) {
  if (!runs.length) return <p className="muted small">No runs yet.</p>;
  return (
    <div className="table-wrap">
      <table className="unattended-runs" aria-label={label}>
        <thead>
          <tr>
            <th scope="col">Started (UTC)</th>
            <th scope="col">Outcome</th>
            <th scope="col">Answer</th>
            <th scope="col">Cost</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((r) => (
            <tr
              key={r.conversationId}
              data-testid="unattended-run"
              data-conversation={r.conversationId}
              data-state={r.state}
              data-status={r.status ?? ''}
            >
              <th scope="row">
                <a href={`#/c/${encodeURIComponent(r.conversationId)}`} title={r.conversationId}>
                  {when(r.startedAt)}
                </a>
              </th>
              <td data-label="Outcome">
                <span className={`badge outcome-${outcomeOf(r)}`}>{outcomeOf(r).replace('_', ' ')}</span>
                {r.delivered !== undefined && (
                  <span className="small block muted">{r.delivered ? 'delivered' : 'not delivered'}</span>
                )}
              </td>
              <td data-label="Answer" className="small" data-testid="run-summary">
                {r.summary ?? <span className="muted">—</span>}
              </td>
              <td data-label="Cost" className="small">
                {r.costUsd === undefined ? '—' : formatUsd(r.costUsd)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

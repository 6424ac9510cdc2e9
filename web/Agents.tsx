// The agents (GET /api/agents?stats=1): where each comes from (code, a goal file, a chat's CreateAgent), its tools and
// delegates, and how it is used: conversations, turns, p50/p95 turn time, cost, last use, from Temporal's histories;
// then the runs each schedule and webhook trigger started in the window, and how they ended.
import { formatMs, formatUsd } from '../core/format';
import type { AgentRow } from '../core/listings';
import type { StarterStats } from '../core/run-starter';
import { api } from './api';
import { RegistryTable, when, type Column } from './RegistryTable';
import { RegistryPage } from './RegistryPage';

const COLUMNS: Column<AgentRow>[] = [
  {
    key: 'agent',
    label: 'Agent',
    sort: (a) => a.agentName.toLowerCase(),
    cell: (a) => (
      <>
        {a.agentName} <span className="muted small">{a.goalId}</span>
        {a.description && <span className="small block">{a.description}</span>}
        {(a.tools.length > 0 || a.delegates.length > 0) && (
          <details className="tool-result">
            <summary>
              {a.tools.length} tool(s){a.delegates.length > 0 && `, ${a.delegates.length} delegate(s)`}
            </summary>
            <span className="small block">{a.tools.join(', ')}</span>
            {a.delegates.length > 0 && <span className="small block">Asks: {a.delegates.join(', ')}</span>}
          </details>
        )}
      </>
    ),
  },
  {
    key: 'source',
    label: 'Source',
    sort: (a) => a.source,
    cell: (a) => (
      <>
        <span className={`badge source-${a.source}`}>{a.source}</span>
        {a.provenance ? (
          <span className="small block">
            by {a.provenance.createdBy}, {when(a.provenance.createdAt)}
            <span className="block muted">“{a.provenance.request}”</span>
          </span>
        ) : (
          a.file && <span className="small block muted">{a.file}</span>
        )}
      </>
    ),
  },
  {
    key: 'conversations',
    label: 'Conversations',
    sort: (a) => a.conversations,
    descending: true,
    cell: (a) => a.conversations,
  },
  { key: 'turns', label: 'Turns', sort: (a) => a.turns, descending: true, cell: (a) => a.turns },
  {
    key: 'turn-time',
    label: 'Turn p50 / p95',
    sort: (a) => a.p95TurnMs,
    descending: true,
    cell: (a) => `${formatMs(a.p50TurnMs)} / ${formatMs(a.p95TurnMs)}`,
  },
  {
    key: 'cost',
    label: 'Cost',
    sort: (a) => a.usage.costUsd ?? null,
    descending: true,
    cell: (a) => (
      <>
        {a.usage.costUsd === undefined ? '—' : formatUsd(a.usage.costUsd)}
        <span className="small block muted">{a.usage.totalTokens} tokens</span>
      </>
    ),
  },
  { key: 'last', label: 'Last used', sort: (a) => a.lastUsed, descending: true, cell: (a) => when(a.lastUsed) },
];

export function Agents() {
  return (
    <RegistryPage id="agents" title="Agents" load={(since) => api.agentsStats(since)}>
      {(value) => (
        <>
          <RegistryTable
            name="agents"
            rows={value.agents}
            columns={COLUMNS}
            rowKey={(a) => a.goalId}
            words={(a) => `${a.goalId} ${a.agentName} ${a.description} ${a.category} ${a.source}`.toLowerCase()}
            rowProps={(a) => ({ 'data-goal': a.goalId })}
            initialSort="last"
          />
          {value.problems.map((p) => (
            <p key={p} className="small warn-text">
              Left out: {p}
            </p>
          ))}
          <RunsBy rows={value.runsBy ?? []} />
        </>
      )}
    </RegistryPage>
  );
}

/** The runs schedules and triggers started (their conversations count in the agents' rows above too). */
function RunsBy({ rows }: { rows: StarterStats[] }) {
  return (
    <section aria-labelledby="runs-by-title" data-testid="runs-by">
      <h2 id="runs-by-title">Scheduled and triggered runs</h2>
      {rows.length === 0 ? (
        <p className="muted small">None in this window.</p>
      ) : (
        <div className="table-wrap">
          <table className="registry">
            <thead>
              <tr>
                <th scope="col">Started by</th>
                <th scope="col">Runs</th>
                <th scope="col">OK</th>
                <th scope="col">Failed</th>
                <th scope="col">Running</th>
                <th scope="col">Last run</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={`${r.source}:${r.name}`} data-testid="runs-by-row" data-source={r.source} data-name={r.name}>
                  <th scope="row">
                    <a href="#/schedules">
                      {r.source} {r.name}
                    </a>
                  </th>
                  <td data-label="Runs" data-col="runs">
                    {r.runs}
                  </td>
                  <td data-label="OK" data-col="ok">
                    {r.ok}
                  </td>
                  <td data-label="Failed" data-col="failed">
                    {r.failed}
                  </td>
                  <td data-label="Running" data-col="running">
                    {r.running}
                  </td>
                  <td data-label="Last run" data-col="last">
                    {when(r.lastRun)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

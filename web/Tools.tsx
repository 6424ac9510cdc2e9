// Every tool (GET /api/tools?stats=1): native, MCP, HTTP API, made on demand, builtin; the agents offered it, and how
// it is used: calls, errors, p50/p95 time, last use, from Temporal's histories.
import { formatMs, toolSummary } from '../core/format';
import type { ToolRow } from '../core/listings';
import { api } from './api';
import { RegistryTable, when, type Column } from './RegistryTable';
import { RegistryPage } from './RegistryPage';

const KIND_WORDS: Record<ToolRow['kind'], string> = {
  native: 'native',
  builtin: 'builtin',
  mcp: 'MCP',
  http: 'HTTP API',
  made: 'made',
  a2a: 'A2A agent',
  unknown: 'gone',
};

/** Five names, then how many more: ListAgents is offered to every agent. */
const listed = (names: string[]) =>
  names.length > 5 ? `${names.slice(0, 5).join(', ')} and ${names.length - 5} more` : names.join(', ');

const percent = (rate: number) => `${Math.round(rate * 1000) / 10}%`;

const COLUMNS: Column<ToolRow>[] = [
  {
    key: 'tool',
    label: 'Tool',
    sort: (t) => t.name.toLowerCase(),
    cell: (t) => (
      <>
        {t.name}
        {t.description && <span className="small block">{toolSummary(t.description)}</span>}
        {t.agents.length > 0 && <span className="small block muted">Agents: {listed(t.agents)}</span>}
      </>
    ),
  },
  {
    key: 'kind',
    label: 'Kind',
    sort: (t) => t.kind,
    cell: (t) => (
      <>
        <span className={`badge kind-${t.kind}`}>
          {KIND_WORDS[t.kind]}
          {t.kind === 'made' && (t.version ?? t.madeVersion) ? ` v${t.version ?? t.madeVersion}` : ''}
        </span>
        {t.endpoint && <span className="small block muted">{t.endpoint}</span>}
      </>
    ),
  },
  { key: 'calls', label: 'Calls', sort: (t) => t.calls, descending: true, cell: (t) => t.calls },
  {
    key: 'errors',
    label: 'Errors',
    sort: (t) => t.errorRate,
    descending: true,
    cell: (t) => (
      <span className={t.errors ? 'error-cell' : undefined}>
        {t.errors} {t.calls > 0 && <span className="small muted">({percent(t.errorRate)})</span>}
      </span>
    ),
  },
  {
    key: 'time',
    label: 'p50 / p95',
    sort: (t) => t.p95Ms,
    descending: true,
    cell: (t) => `${formatMs(t.p50Ms)} / ${formatMs(t.p95Ms)}`,
  },
  { key: 'last', label: 'Last used', sort: (t) => t.lastUsed, descending: true, cell: (t) => when(t.lastUsed) },
];

export function Tools() {
  return (
    <RegistryPage id="tools" title="Tools" load={(since) => api.toolsStats(since)}>
      {(value) => (
        <>
          <RegistryTable
            name="tools"
            rows={value.tools}
            columns={COLUMNS}
            rowKey={(t) => t.name}
            words={(t) =>
              `${t.name} ${t.kind} ${KIND_WORDS[t.kind]} ${t.endpoint ?? ''} ${t.description} ${t.agents.join(' ')}`.toLowerCase()
            }
            rowProps={(t) => ({ 'data-tool': t.name, 'data-kind': t.kind })}
            initialSort="calls"
          />
        </>
      )}
    </RegistryPage>
  );
}

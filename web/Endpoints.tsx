// The endpoints (MCP servers and HTTP APIs) as the worker sees them, with their calls, errors and times and the last
// day's calls hour by hour, from Temporal's histories (GET /api/endpoints?stats=1), each one's tools (GET /api/tools),
// and an MCP server's resources and prompts (a prompt can start a conversation).
// An MCP server that needs OAuth and that this user has not connected says so, with a Connect button: it goes to the
// server's authorization server, which returns to the API's callback, which says when it is done.
import { useState } from 'react';
import { formatMs } from '../core/format';
import { lastHours } from '../core/listings';
import type { HourStats } from '../core/usage-stats';
import { api, messageOf } from './api';
import { WindowNote, when } from './RegistryTable';
import { useLoaded } from './use-loaded';
import { EndpointFeaturesPanel } from './EndpointFeatures';

/** Off to the authorization server: this page is left, and the callback page links back. */
function ConnectButton({ endpoint, onError }: { endpoint: string; onError: (message: string) => void }) {
  const [busy, setBusy] = useState(false);
  const connect = async () => {
    setBusy(true);
    try {
      window.location.assign((await api.connect(endpoint)).authorizationUrl);
    } catch (err) {
      onError(messageOf(err));
      setBusy(false);
    }
  };
  return (
    <button type="button" className="small" disabled={busy} onClick={() => void connect()}>
      {busy ? 'Connecting…' : 'Connect'}
    </button>
  );
}

export function Endpoints() {
  const [round, setRound] = useState(0);
  const { value: catalog, error } = useLoaded(() => api.endpointsStats(), round);
  // The tools only name what each endpoint offers: without them the page still shows the endpoints.
  const tools = useLoaded(api.tools, round).value ?? [];
  const [connectError, setConnectError] = useState<string | null>(null);

  // An MCP server's tools by the names it gives them; an HTTP API's by operationId.
  const toolsOf = (server: string) =>
    tools
      .filter((t) => (t.mcp?.server ?? t.http?.api) === server)
      .map((t) => t.mcp?.tool ?? t.http?.operation ?? t.name);

  return (
    <section className="endpoints" aria-labelledby="endpoints-title">
      <div className="page-head">
        <h1 id="endpoints-title">Endpoints</h1>
        <button type="button" onClick={() => setRound(round + 1)}>
          Refresh
        </button>
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {connectError && (
        <p className="error" role="alert">
          {connectError}
        </p>
      )}
      {catalog?.registryError && (
        <p className="error" role="alert">
          Registry: {catalog.registryError}
        </p>
      )}
      {!catalog && !error && <p role="status">Loading…</p>}
      {catalog && <WindowNote window={catalog.window} />}
      {catalog && catalog.endpoints.length === 0 && <p className="muted">No MCP endpoints are registered.</p>}
      {catalog && catalog.endpoints.length > 0 && (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Endpoint</th>
                <th scope="col">Status</th>
                <th scope="col">Tools</th>
                <th scope="col">Calls</th>
                <th scope="col">Last 24 h</th>
                <th scope="col">Last error</th>
              </tr>
            </thead>
            <tbody>
              {catalog.endpoints.map((e) => (
                <tr key={e.name} data-testid="endpoints-row" data-endpoint={e.name} data-status={e.status}>
                  <th scope="row">
                    {e.name}
                    <span className="muted small">
                      {' '}
                      {e.transport}
                      {e.categories && e.categories.length > 0 && ` · ${e.categories.join(', ')}`}
                    </span>
                    {e.description && <span className="small block">{e.description}</span>}
                    {e.status === 'ok' && e.transport && ['stdio', 'http', 'sse'].includes(e.transport) && (
                      <EndpointFeaturesPanel name={e.name} />
                    )}
                  </th>
                  <td data-label="Status">
                    <span className={`badge status-${e.status ?? 'gone'}`}>
                      {e.status?.replace('_', ' ') ?? 'gone'}
                    </span>
                    {e.auth === 'oauth' && <span className="muted small block">OAuth</span>}
                    {e.status === 'needs_connecting' && e.auth === 'oauth' && (
                      <ConnectButton endpoint={e.name} onError={setConnectError} />
                    )}
                  </td>
                  <td data-label="Tools">
                    {e.toolCount}
                    {toolsOf(e.name).length > 0 && <span className="small block">{toolsOf(e.name).join(', ')}</span>}
                  </td>
                  <td data-label="Calls" data-col="calls">
                    {e.calls}
                    {e.calls > 0 && (
                      <span className="small block muted">
                        {e.errors} error(s) · {formatMs(e.p50Ms)} / {formatMs(e.p95Ms)} · last {when(e.lastUsed)}
                      </span>
                    )}
                  </td>
                  <td data-label="Last 24 h">
                    <HealthStrip hours={lastHours(e.hours, Date.parse(catalog.window.until))} />
                  </td>
                  <td className="small error-cell" data-label="Last error">
                    {e.error ?? e.lastError ?? '—'}
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

/** An hour a bar, oldest first: its height the hour's calls against the busiest hour's, red when a call failed. */
function HealthStrip({ hours }: { hours: HourStats[] }) {
  const most = Math.max(1, ...hours.map((h) => h.calls));
  const calls = hours.reduce((n, h) => n + h.calls, 0);
  const errors = hours.reduce((n, h) => n + h.errors, 0);
  return (
    <span
      className="health-strip"
      role="img"
      data-testid="health-strip"
      aria-label={`${calls} call(s), ${errors} failed, in the last 24 hours`}
    >
      {hours.map((h) => (
        <span
          key={h.hour}
          className={`hour${h.errors ? ' failed' : h.calls ? ' answered' : ''}`}
          style={{ height: `${h.calls ? 25 + (75 * h.calls) / most : 8}%` }}
          title={`${when(h.hour)}: ${h.calls} call(s), ${h.errors} failed`}
        />
      ))}
    </span>
  );
}

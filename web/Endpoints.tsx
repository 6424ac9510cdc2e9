// The endpoints (MCP servers and HTTP APIs) as the worker sees them (GET /api/endpoints), with each one's tools (GET /api/tools),
// and an MCP server's resources and prompts (a prompt can start a conversation).
// An MCP server that needs OAuth and that this user has not connected says so, with a Connect button: it goes to the
// server's authorization server, which returns to the API's callback, which says when it is done.
import { useState } from 'react';
import { api, messageOf } from './api';
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
  const { value: catalog, error } = useLoaded(api.endpoints, round);
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
      {catalog && catalog.endpoints.length === 0 && <p className="muted">No MCP endpoints are registered.</p>}
      {catalog && catalog.endpoints.length > 0 && (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Endpoint</th>
                <th scope="col">Status</th>
                <th scope="col">Tools</th>
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
                      {e.categories.length > 0 && ` · ${e.categories.join(', ')}`}
                    </span>
                    {e.description && <span className="small block">{e.description}</span>}
                    {e.status === 'ok' && ['stdio', 'http', 'sse'].includes(e.transport) && (
                      <EndpointFeaturesPanel name={e.name} />
                    )}
                  </th>
                  <td data-label="Status">
                    <span className={`badge status-${e.status}`}>{e.status.replace('_', ' ')}</span>
                    {e.auth === 'oauth' && <span className="muted small block">OAuth</span>}
                    {e.status === 'needs_connecting' && e.auth === 'oauth' && (
                      <ConnectButton endpoint={e.name} onError={setConnectError} />
                    )}
                  </td>
                  <td data-label="Tools">
                    {e.toolCount}
                    {toolsOf(e.name).length > 0 && <span className="small block">{toolsOf(e.name).join(', ')}</span>}
                  </td>
                  <td className="small error-cell" data-label="Last error">
                    {e.error ?? '—'}
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

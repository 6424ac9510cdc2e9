// The endpoints (MCP servers and HTTP APIs) as the worker sees them (GET /api/endpoints), with each one's tools (GET /api/tools).
import { useState } from 'react';
import { api } from './api';
import { useLoaded } from './use-loaded';

export function Endpoints() {
  const [round, setRound] = useState(0);
  const { value: catalog, error } = useLoaded(api.endpoints, round);
  // The tools only name what each endpoint offers: without them the page still shows the endpoints.
  const tools = useLoaded(api.tools, round).value ?? [];

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
                  </th>
                  <td data-label="Status">
                    <span className={`badge status-${e.status}`}>{e.status}</span>
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

// The made tools as the worker sees them (GET /api/made-tools?usage=true): every version, its state, who made it and
// how much it is used (from Temporal's histories, docs/registry.md), its code folded away. Managing them stays with
// `agent tools disable|enable|remove`.
import { useState } from 'react';
import { api, type MadeToolSummary } from './api';
import { useLoaded } from './use-loaded';

function stateOf(t: MadeToolSummary): string {
  if (t.problems) return 'broken';
  if (t.disabled) return 'disabled';
  return t.current ? 'current' : 'older';
}

const when = (iso: string | null | undefined) => (iso ? iso.slice(0, 16).replace('T', ' ') : 'never');

export function MadeTools() {
  const [round, setRound] = useState(0);
  const { value: tools, error } = useLoaded(api.madeTools, round);

  return (
    <section className="made-tools" aria-labelledby="made-tools-title">
      <div className="page-head">
        <h1 id="made-tools-title">Made tools</h1>
        <button type="button" onClick={() => setRound(round + 1)}>
          Refresh
        </button>
      </div>
      <p className="muted small">
        Tools agents made with CreateTool (or put in the worker’s tools folder by hand): pure functions run in a
        sandbox. Disable, enable or remove them with <code>agent tools disable|enable|remove &lt;name&gt;</code>.
      </p>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {!tools && !error && <p role="status">Loading…</p>}
      {tools && tools.length === 0 && <p className="muted">No tools have been made yet.</p>}
      {tools && tools.length > 0 && (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Tool</th>
                <th scope="col">State</th>
                <th scope="col">Made by</th>
                <th scope="col">Used</th>
              </tr>
            </thead>
            <tbody>
              {tools.map((t) => (
                <tr
                  key={`${t.name}.v${t.version}`}
                  data-testid="made-tool-row"
                  data-tool={t.name}
                  data-version={t.version}
                  data-state={stateOf(t)}
                >
                  <th scope="row">
                    {t.name} <span className="muted small">v{t.version}</span>
                    {t.description && <span className="small block">{t.description}</span>}
                    {t.code && (
                      <details className="tool-result">
                        <summary>Code</summary>
                        <pre className="tool-args" data-testid="made-tool-code">
                          {t.code}
                        </pre>
                      </details>
                    )}
                  </th>
                  <td data-label="State">
                    <span className={`badge made-${stateOf(t)}`}>{stateOf(t)}</span>
                    {t.problems?.map((p) => (
                      <span key={p} className="small block error-cell">
                        {p}
                      </span>
                    ))}
                  </td>
                  <td className="small" data-label="Made by">
                    {t.provenance ? (
                      <>
                        {t.provenance.createdBy}, {when(t.provenance.createdAt)}
                        <span className="block muted">“{t.provenance.request}”</span>
                      </>
                    ) : (
                      <span className="muted">by hand</span>
                    )}
                  </td>
                  <td className="small" data-label="Used">
                    {t.usage && t.usage.calls > 0
                      ? `${t.usage.calls} call(s), ${t.usage.errors} error(s), last ${when(t.usage.lastUsed)}`
                      : 'never'}
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

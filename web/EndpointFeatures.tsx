// An MCP endpoint's resources, resource templates and prompts on the Endpoints page, loaded when the user opens them;
// a prompt can open a conversation: its arguments asked in a small form, then the chat it started.
import { useId, useState } from 'react';
import { api, messageOf } from './api';
import type { EndpointFeatures, PromptSummary } from '../core/mcp-features';

type Loaded = Omit<EndpointFeatures, 'endpoint'>;

export function EndpointFeaturesPanel({ name }: { name: string }) {
  const [features, setFeatures] = useState<Loaded | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = async () => {
    if (features) return;
    try {
      const [r, p] = await Promise.all([api.endpointResources(name), api.endpointPrompts(name)]);
      setFeatures({ ...r, prompts: p.prompts, unsupported: [...new Set([...r.unsupported, ...p.unsupported])] });
    } catch (err) {
      setError(messageOf(err));
    }
  };
  return (
    <details
      className="endpoint-features"
      data-testid="endpoint-features"
      onToggle={(e) => (e.currentTarget.open ? void load() : undefined)}
    >
      <summary>Resources and prompts</summary>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {!features && !error && <p role="status">Loading…</p>}
      {features && (
        <>
          <h3 className="small">Resources</h3>
          {features.unsupported.includes('resources') ? (
            <p className="muted small">{name} offers no resources.</p>
          ) : (
            <ul className="feature-list" data-testid="endpoint-resources">
              {features.resources.map((r) => (
                <li key={r.uri}>
                  <code>{r.uri}</code> {r.title ?? r.name}
                  {r.mimeType && <span className="muted"> · {r.mimeType}</span>}
                </li>
              ))}
              {features.templates.map((t) => (
                <li key={t.uriTemplate}>
                  <code>{t.uriTemplate}</code> {t.title ?? t.name} <span className="muted">(template)</span>
                </li>
              ))}
            </ul>
          )}
          <h3 className="small">Prompts</h3>
          {features.unsupported.includes('prompts') ? (
            <p className="muted small">{name} offers no prompts.</p>
          ) : (
            <ul className="feature-list" data-testid="endpoint-prompts">
              {features.prompts.map((p) => (
                <PromptItem key={p.name} endpoint={name} prompt={p} />
              ))}
            </ul>
          )}
        </>
      )}
    </details>
  );
}

/** A prompt, and a form that starts a conversation with it (the worker's default agent answers). */
function PromptItem({ endpoint, prompt }: { endpoint: string; prompt: PromptSummary }) {
  const [args, setArgs] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const ids = useId();
  const start = async () => {
    setBusy(true);
    try {
      const given = Object.fromEntries(Object.entries(args).filter(([, v]) => v.trim()));
      const { conversationId } = await api.startWithPrompt({ endpoint, name: prompt.name, args: given });
      location.hash = `#/c/${encodeURIComponent(conversationId)}`;
    } catch (err) {
      setError(messageOf(err));
      setBusy(false);
    }
  };
  return (
    <li data-testid="endpoint-prompt" data-prompt={prompt.name}>
      <form
        className="prompt-form"
        onSubmit={(e) => {
          e.preventDefault();
          void start();
        }}
      >
        <span>
          <code>{prompt.name}</code> {prompt.description && <span className="muted">{prompt.description}</span>}
        </span>
        {prompt.arguments.map((a) => (
          <span key={a.name} className="field inline">
            <label htmlFor={`${ids}-${a.name}`}>
              {a.name}
              {a.required ? '' : ' (optional)'}
            </label>
            <input
              id={`${ids}-${a.name}`}
              data-arg={a.name}
              required={a.required}
              title={a.description}
              value={args[a.name] ?? ''}
              onChange={(e) => setArgs({ ...args, [a.name]: e.target.value })}
            />
          </span>
        ))}
        <button type="submit" className="small" data-testid="start-with-prompt" disabled={busy}>
          {busy ? 'Starting…' : 'Start a conversation'}
        </button>
        {error && (
          <span className="error" role="alert">
            {error}
          </span>
        )}
      </form>
    </li>
  );
}

// The conversations the key may see (GET /api/conversations), newest first; a row opens (and resumes) one.
import { useEffect, useState } from 'react';
import { api, messageOf, type ConversationSummary } from './api';

/** Often enough to see other tabs' conversations change state, rarely enough to spare the visibility store. */
const REFRESH_MS = 15_000;

interface Props {
  currentId: string | null;
  /** The open conversation's title as its page knows it: shown until the server's listing has it (it lags). */
  currentTitle: string | null;
  agentName(goalId: string): string;
  /** Changes when the list should be read again at once (a route change). */
  refresh: unknown;
}

export function ConversationList({ currentId, currentTitle, agentName, refresh }: Props) {
  const [list, setList] = useState<ConversationSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    const load = () =>
      api.conversations().then(
        (l) => {
          if (!live) return;
          setList(l);
          setError(null);
        },
        (err) => live && setError(messageOf(err)),
      );
    void load();
    const timer = setInterval(() => void load(), REFRESH_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [refresh]);

  return (
    <nav className="conversations" aria-labelledby="conversations-title">
      <h2 id="conversations-title">Conversations</h2>
      <a className="new-link" href="#/">
        + New conversation
      </a>
      {error && <p className="error">{error}</p>}
      {list && list.length === 0 && <p className="muted">None yet.</p>}
      {list && (
        <ul>
          {list.map((c) => (
            <li key={c.id}>
              <a
                href={`#/c/${encodeURIComponent(c.id)}`}
                className="conversation-row"
                data-testid="conversation-row"
                data-id={c.id}
                data-state={c.state}
                aria-current={c.id === currentId ? 'page' : undefined}
              >
                <span className="row-title">
                  {c.title ?? (c.id === currentId ? currentTitle : null) ?? 'New conversation'}
                </span>
                <span className="row-meta">
                  <span className={`badge state-${c.state}`}>{c.state.replace(/_/g, ' ')}</span>{' '}
                  {c.goal ? agentName(c.goal) : ''} ·{' '}
                  <time dateTime={c.startedAt}>{new Date(c.startedAt).toLocaleString()}</time>
                </span>
              </a>
            </li>
          ))}
        </ul>
      )}
    </nav>
  );
}

// #/memories/<id>: one memory (edited or deleted as on the list) and the conversations whose turns were shown it,
// latest first, each linking to the conversation and to its run view, where the turn lists the memories it recalled.
// A worker from before it kept them answers without `uses`: the page says it cannot tell.
import { useEffect, useState } from 'react';
import './memories.css';
import { api, messageOf, type MemoryDetail, type MemoryUse } from './api';
import { MemoryCard } from './MemoryCard';
import { when } from './RegistryTable';
import { runViewOpen } from './RunView';

/** The most uses the API lists (the latest). */
const MOST_USES = 50;

export function MemoryPage({ id, agentName }: { id: string; agentName(goalId: string): string }) {
  const [detail, setDetail] = useState<MemoryDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [deleted, setDeleted] = useState(false);
  const [round, setRound] = useState(0);

  useEffect(() => {
    let live = true;
    setError(null);
    api.memory(id).then(
      (d) => live && setDetail(d),
      (err: unknown) => live && setError(messageOf(err)),
    );
    return () => {
      live = false;
    };
  }, [id, round]);

  return (
    <section className="memories-page" aria-labelledby="memory-title">
      <div className="page-head">
        <h1 id="memory-title">Memory {id}</h1>
        <button type="button" onClick={() => setRound(round + 1)} disabled={deleted}>
          Refresh
        </button>
      </div>
      <p className="small">
        <a href="#/memories">All memories</a>
      </p>
      {error && (
        <p className="error" role="alert" data-testid="memory-page-error">
          {error}
        </p>
      )}
      {deleted ? (
        <p role="status" data-testid="memory-deleted">
          Deleted: later turns no longer see it.
        </p>
      ) : detail ? (
        <>
          <MemoryCard
            memory={detail.memory}
            linked={false}
            agentName={agentName}
            onChanged={(memory) => setDetail((d) => d && { ...d, memory })}
            onDeleted={() => setDeleted(true)}
          />
          <Uses uses={detail.uses} agentName={agentName} />
        </>
      ) : (
        !error && <p role="status">Loading…</p>
      )}
    </section>
  );
}

function Uses({ uses, agentName }: { uses: MemoryUse[] | undefined; agentName(goalId: string): string }) {
  return (
    <section aria-labelledby="memory-uses-title" data-testid="memory-uses">
      <h2 id="memory-uses-title">Used by</h2>
      {uses === undefined ? (
        <p className="muted">This server does not say which conversations used it.</p>
      ) : uses.length === 0 ? (
        <p className="muted" data-testid="memory-unused">
          No conversation has been shown it yet.
        </p>
      ) : (
        <>
          <p className="small muted">
            Conversations whose turns were shown it, latest first
            {uses.length >= MOST_USES ? ` (the latest ${MOST_USES})` : ''}; times in UTC.
          </p>
          <ul className="memory-uses">
            {uses.map((u) => (
              <li key={u.conversationId} data-testid="memory-use" data-conversation={u.conversationId}>
                <a href={`#/c/${encodeURIComponent(u.conversationId)}`} className="memory-use-link">
                  {u.conversationId}
                </a>{' '}
                <span className="small muted">
                  {agentName(u.goalId)} ·{' '}
                  {u.firstAt === u.lastAt ? when(u.lastAt) : `${when(u.firstAt)} to ${when(u.lastAt)}`}
                </span>{' '}
                <a
                  href={`#/c/${encodeURIComponent(u.conversationId)}`}
                  className="small"
                  aria-label={`Run view of ${u.conversationId}`}
                  // The run view's toggle is remembered in this browser: opened here, the conversation shows it.
                  onClick={() => runViewOpen.set(true)}
                >
                  run view
                </a>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

// The run view of one conversation: the tree of its turns, model calls, tool calls, waits for the user and
// delegates, live. Every view comes whole from the API (read from the workflows' histories, nothing stored); the
// page keeps the latest, lets running times tick between two, reconnects when the stream drops, and stops once every
// workflow in the tree has ended.
import { useEffect, useState } from 'react';
import './run-view.css';
import { ApiError, messageOf } from './api';
import { openRun, readRun, type RunView as View } from './run-api';
import { RunBranchView } from './run-branch';
import { STATUS_TEXT, hasEnded, isLive } from '../core/run-format';

const OPEN_ITEM = 'agent-orchestrator.run-view';

/** Whether the run view is open, remembered in this browser so every conversation opens the way it was left. */
export const runViewOpen = {
  get(): boolean {
    try {
      return localStorage.getItem(OPEN_ITEM) === 'open';
    } catch {
      return false;
    }
  },
  set(open: boolean): void {
    try {
      localStorage.setItem(OPEN_ITEM, open ? 'open' : 'closed');
    } catch {
      // Storage refused (a private window): the toggle still works for this page.
    }
  },
};

export function RunView({ id }: { id: string }) {
  // With when it came: the page's clock may differ from the server's, so running times count from the arrival.
  const [latest, setLatest] = useState<{ view: View; received: number } | null>(null);
  const view = latest?.view ?? null;
  const [error, setError] = useState<string | null>(null);
  const [reconnecting, setReconnecting] = useState(false);
  const now = useClock(view !== null && isLive(view));

  useEffect(() => {
    let closed = false;
    let close = () => {};
    let timer: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    const connect = () => {
      close = openRun(id, {
        onView(v) {
          failures = 0;
          setLatest({ view: v, received: Date.now() });
          setError(null);
          // The server closes the stream after the last view; without this the browser would open it again.
          if (hasEnded(v)) close();
        },
        onError: setError,
        onLink: (up) => setReconnecting(!up),
        onClosed() {
          close();
          if (closed) return;
          setReconnecting(true);
          // A stream refused says nothing of why: the same run read once does (an unknown conversation stays so).
          readRun(id).then(
            (v) => {
              if (closed) return;
              setLatest({ view: v, received: Date.now() });
              setReconnecting(false);
              if (!hasEnded(v)) retry();
            },
            (err: unknown) => {
              if (closed) return;
              setError(messageOf(err));
              if (err instanceof ApiError && [400, 401, 403, 404].includes(err.status)) setReconnecting(false);
              else retry();
            },
          );
        },
      });
    };
    const retry = () => {
      failures++;
      timer = setTimeout(connect, Math.min(1000 * 2 ** failures, 15_000));
    };
    connect();
    return () => {
      closed = true;
      clearTimeout(timer);
      close();
    };
  }, [id]);

  return (
    <section className="run-view" data-testid="run-view" aria-labelledby="run-view-title" aria-busy={view === null}>
      <div className="run-view-inner">
        <header className="run-view-head">
          <h2 id="run-view-title">Run</h2>
          {reconnecting && <span className="badge warn">reconnecting…</span>}
        </header>
        {error && (
          <p className="error" role="alert" data-testid="run-error">
            {error}
          </p>
        )}
        {/* Heard when the conversation starts waiting for the user, or ends. */}
        <p className="sr-only" aria-live="polite" data-testid="run-announce">
          {view ? `${view.root.agentName || 'The agent'}: ${announced(view.root)}` : ''}
        </p>
        {latest ? (
          <RunBranchView
            branch={latest.view.root}
            clock={{ now: Date.parse(latest.view.at) + Math.max(0, now - latest.received) }}
          />
        ) : (
          !error && <p className="run-empty">Reading the run…</p>
        )}
      </div>
    </section>
  );
}

/** The time now, once a second while `ticking`. */
function useClock(ticking: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    setNow(Date.now());
    if (!ticking) return;
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, [ticking]);
  return now;
}

/** What a screen reader hears: a conversation between turns is ready for the next message, not waiting on an answer. */
function announced(root: View['root']): string {
  return root.status === 'done' && root.state === 'waiting_for_user'
    ? 'done, ready for your next message'
    : STATUS_TEXT[root.status];
}

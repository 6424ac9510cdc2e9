// Starting a conversation: one button per agent the worker offers (GET /api/agents), or its default agent.
import { useState } from 'react';
import { api, messageOf, type AgentsDescription } from './api';

interface Props {
  agents: AgentsDescription | null;
  loadError: string | null;
  onRetry(): void;
}

export function Picker({ agents, loadError, onRetry }: Props) {
  const [starting, setStarting] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function start(goalId?: string) {
    setStarting(goalId ?? '');
    setError(null);
    try {
      const { conversationId } = await api.start(goalId);
      location.hash = `#/c/${encodeURIComponent(conversationId)}`;
    } catch (err) {
      setError(messageOf(err));
      setStarting(null);
    }
  }

  return (
    <section className="picker" aria-labelledby="picker-title">
      <h1 id="picker-title">Start a conversation</h1>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {loadError && (
        <p className="error" role="alert">
          Cannot list the agents: {loadError}{' '}
          <button type="button" onClick={onRetry}>
            Retry
          </button>
        </p>
      )}
      {!agents && !loadError && <p role="status">Loading the agents…</p>}
      {agents && (
        <ul className="agents">
          {agents.agents.map((a) => (
            <li key={a.goalId}>
              <button
                type="button"
                className="agent-option"
                data-testid="agent-option"
                data-goal={a.goalId}
                disabled={starting !== null}
                onClick={() => void start(a.goalId)}
              >
                <span className="agent-name">{starting === a.goalId ? `Starting ${a.agentName}…` : a.agentName}</span>
                <span className="agent-desc">{a.description}</span>
                <span className="agent-cat">{a.category}</span>
              </button>
            </li>
          ))}
          <li>
            <button
              type="button"
              className="agent-option default"
              data-testid="agent-default"
              disabled={starting !== null}
              onClick={() => void start()}
            >
              <span className="agent-name">{starting === '' ? 'Starting…' : 'Default agent'}</span>
              <span className="agent-desc">
                The agent this server starts with (AGENT_GOAL); in multi-goal mode, a picker that finds the right agent
                for you.
              </span>
            </button>
          </li>
        </ul>
      )}
      {agents && agents.problems.length > 0 && (
        <details className="problems">
          <summary>{agents.problems.length} goal file(s) left out</summary>
          <ul>
            {agents.problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}

// #/schedules: the runs nobody types into. The caller's schedules (Temporal Schedules of agent runs, docs/schedules.md),
// each with its actions and latest runs, a form for a new one, and, read-only, the webhook triggers of the registry
// file (TRIGGERS_FILE) with their latest runs: those are changed in the file, not here.
import { useState } from 'react';
import './schedules.css';
import { api, type AgentsDescription, type Schedule } from './api';
import { ScheduleCard } from './ScheduleCard';
import { ScheduleForm } from './ScheduleForm';
import { UnattendedRuns } from './UnattendedRuns';
import { useLoaded } from './use-loaded';

export function Schedules({ agents, agentName }: { agents: AgentsDescription | null; agentName(id: string): string }) {
  const [round, setRound] = useState(0);
  const { value, error } = useLoaded(api.schedules, round);
  // Created or deleted here: shown at once, before the list is read again.
  const [made, setMade] = useState<Schedule[]>([]);
  const [gone, setGone] = useState<Set<string>>(new Set());
  const listed = value?.schedules ?? [];
  const schedules = [...listed, ...made.filter((m) => !listed.some((s) => s.name === m.name))]
    .filter((s) => !gone.has(s.name))
    .sort((a, b) => a.name.localeCompare(b.name));

  return (
    <section className="schedules-page" aria-labelledby="schedules-title">
      <div className="page-head">
        <h1 id="schedules-title">Schedules</h1>
        <button type="button" onClick={() => setRound(round + 1)}>
          Refresh
        </button>
      </div>
      <p className="muted small">
        Agent runs on a schedule, with nobody typing: each run is a conversation whose one prompt is the schedule’s; its
        answer, cost and steps stay readable after the schedule is gone. The CLI has the same:{' '}
        <code>agent schedule</code>.
      </p>
      <ScheduleForm
        agents={agents}
        onCreated={(s) => {
          setMade((m) => [...m.filter((x) => x.name !== s.name), s]);
          setGone((g) => without(g, s.name));
        }}
      />
      <h2>Your schedules</h2>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {!value && !error && <p role="status">Loading…</p>}
      {value && schedules.length === 0 && (
        <p className="muted" data-testid="no-schedules">
          No schedules yet.
        </p>
      )}
      <div className="schedule-list">
        {schedules.map((s) => (
          <ScheduleCard
            key={s.name}
            summary={s}
            agentName={agentName}
            onDeleted={(name) => setGone((g) => new Set(g).add(name))}
          />
        ))}
      </div>
      <Triggers round={round} agentName={agentName} />
    </section>
  );
}

function without(set: Set<string>, name: string): Set<string> {
  const next = new Set(set);
  next.delete(name);
  return next;
}

/** The webhook triggers, read-only. */
function Triggers({ round, agentName }: { round: number; agentName(id: string): string }) {
  const { value, error } = useLoaded(api.triggers, round);
  return (
    <section className="triggers" aria-labelledby="triggers-title" data-testid="triggers">
      <h2 id="triggers-title">Webhook triggers</h2>
      <p className="muted small">
        Signed webhooks that start a run (<code>POST /api/triggers/&lt;name&gt;</code>), kept in the registry file (
        <code>TRIGGERS_FILE</code>) and changed there.
      </p>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {value?.error && (
        <p className="error" role="alert">
          The registry file: {value.error}
        </p>
      )}
      {value && value.triggers.length === 0 && <p className="muted">No webhook triggers.</p>}
      {value?.triggers.map((t) => (
        <article
          key={t.name}
          className="schedule-card"
          data-testid="trigger"
          data-name={t.name}
          aria-labelledby={`trigger-${t.name}`}
        >
          <header className="schedule-head">
            <h3 id={`trigger-${t.name}`}>{t.name}</h3>
            <span className={`badge ${t.enabled ? 'status-ok' : 'warn'}`}>{t.enabled ? 'enabled' : 'disabled'}</span>
            <span className="small muted">
              {agentName(t.goal)} · {t.signature} signature{t.owner ? ` · runs are ${t.owner}’s` : ''}
            </span>
          </header>
          {t.description && <p className="small">{t.description}</p>}
          <UnattendedRuns runs={t.runs} label={`Latest runs of trigger ${t.name}`} />
        </article>
      ))}
    </section>
  );
}

// A new schedule (POST /api/schedules): its name, the agent and the prompt each run gets, when it comes due (a cron
// expression or an interval), the time zone the cron reads, what a run due while one is still going does, and how a
// tool call that needs approval is answered with nobody present. The API checks it all; its refusal is shown as said.
import { useState, type FormEvent, type ReactNode } from 'react';
import { api, messageOf, type AgentsDescription, type Schedule, type ScheduleRequest } from './api';

type Overlap = NonNullable<ScheduleRequest['overlap']>;

const OVERLAP_TEXT: Record<Overlap, string> = {
  skip: 'skip it (default)',
  'buffer-one': 'run it after the one going',
  'allow-all': 'run it alongside',
};

/** The browser's own zone, so `0 8 * * *` means eight o'clock here. */
function localZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    return '';
  }
}

export function ScheduleForm({
  agents,
  onCreated,
}: {
  agents: AgentsDescription | null;
  onCreated(s: Schedule): void;
}) {
  const choices = agents?.agents ?? [];
  const [name, setName] = useState('');
  const [goalId, setGoalId] = useState('');
  const [prompt, setPrompt] = useState('');
  const [kind, setKind] = useState<'cron' | 'every'>('cron');
  const [spec, setSpec] = useState('');
  const [timezone, setTimezone] = useState(localZone);
  const [overlap, setOverlap] = useState<Overlap>('skip');
  const [approvals, setApprovals] = useState<'deny' | 'ask'>('deny');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const goal = goalId || choices[0]?.goalId || '';

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const made = await api.createSchedule({
        name: name.trim(),
        goalId: goal,
        prompt,
        ...(kind === 'cron' ? { cron: spec.trim() } : { every: spec.trim() }),
        ...(timezone.trim() && kind === 'cron' ? { timezone: timezone.trim() } : {}),
        overlap,
        approvals,
      });
      setName('');
      setPrompt('');
      setSpec('');
      onCreated(made);
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="schedule-form" aria-labelledby="schedule-form-title" onSubmit={(e) => void submit(e)}>
      <h2 id="schedule-form-title">New schedule</h2>
      <div className="fields">
        <Field id="schedule-name" label="Name">
          <input
            id="schedule-name"
            data-testid="schedule-name"
            required
            pattern="[A-Za-z0-9][A-Za-z0-9_\-]{0,47}"
            title="Letters, digits, - and _ (at most 48)"
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
        </Field>
        <Field id="schedule-goal" label="Agent">
          <select
            id="schedule-goal"
            data-testid="schedule-goal"
            value={goal}
            onChange={(e) => setGoalId(e.target.value)}
          >
            {choices.map((a) => (
              <option key={a.goalId} value={a.goalId}>
                {a.agentName} ({a.goalId})
              </option>
            ))}
          </select>
        </Field>
        <Field id="schedule-prompt" label="Prompt each run gets" wide>
          <textarea
            id="schedule-prompt"
            data-testid="schedule-prompt"
            required
            rows={2}
            value={prompt}
            onChange={(e) => setPrompt(e.target.value)}
          />
        </Field>
        <Field id="schedule-when" label="When">
          <span className="when">
            <select
              aria-label="Cron expression or interval"
              data-testid="schedule-when-kind"
              value={kind}
              onChange={(e) => setKind(e.target.value as 'cron' | 'every')}
            >
              <option value="cron">cron</option>
              <option value="every">every</option>
            </select>
            <input
              id="schedule-when"
              data-testid="schedule-when"
              required
              placeholder={kind === 'cron' ? '0 8 * * MON-FRI' : '15m, 1h, 1d'}
              value={spec}
              onChange={(e) => setSpec(e.target.value)}
            />
          </span>
        </Field>
        <Field id="schedule-timezone" label="Time zone (cron)">
          <input
            id="schedule-timezone"
            data-testid="schedule-timezone"
            placeholder="UTC"
            disabled={kind !== 'cron'}
            value={timezone}
            onChange={(e) => setTimezone(e.target.value)}
          />
        </Field>
        <Field id="schedule-overlap" label="Due while a run is going">
          <select
            id="schedule-overlap"
            data-testid="schedule-overlap"
            value={overlap}
            onChange={(e) => setOverlap(e.target.value as Overlap)}
          >
            {(Object.keys(OVERLAP_TEXT) as Overlap[]).map((o) => (
              <option key={o} value={o}>
                {OVERLAP_TEXT[o]}
              </option>
            ))}
          </select>
        </Field>
        <Field id="schedule-approvals" label="A call that needs approval">
          <select
            id="schedule-approvals"
            data-testid="schedule-approvals"
            value={approvals}
            onChange={(e) => setApprovals(e.target.value as 'deny' | 'ask')}
          >
            <option value="deny">deny it (default)</option>
            <option value="ask">wait for my approval</option>
          </select>
        </Field>
      </div>
      {error && (
        <p className="error" role="alert" data-testid="schedule-form-error">
          {error}
        </p>
      )}
      <button type="submit" className="primary" data-testid="schedule-create" disabled={busy || !goal}>
        {busy ? 'Creating…' : 'Create schedule'}
      </button>
    </form>
  );
}

function Field({ id, label, wide, children }: { id: string; label: string; wide?: boolean; children: ReactNode }) {
  return (
    <div className={`field${wide ? ' wide' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children}
    </div>
  );
}

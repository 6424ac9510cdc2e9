// A registry page's frame (agents, tools): its title, the window picker and a refresh, loading and errors, the
// window the figures cover; the page itself gives what it loads and how it shows it.
import { useState, type ReactNode } from 'react';
import type { StatsWindow } from '../core/usage-stats';
import { WindowNote } from './RegistryTable';
import { SincePicker } from './SincePicker';
import { useLoaded } from './use-loaded';

export function RegistryPage<T extends { window: StatsWindow }>({
  id,
  title,
  load,
  children,
}: {
  id: string;
  title: string;
  load(since: string): Promise<T>;
  children(value: T): ReactNode;
}) {
  const [round, setRound] = useState(0);
  const [since, setSince] = useState('30d');
  const { value, error } = useLoaded(() => load(since), round);
  return (
    <section className="registry-page" aria-labelledby={`${id}-title`}>
      <div className="page-head">
        <h1 id={`${id}-title`}>{title}</h1>
        <div className="page-actions">
          <SincePicker
            value={since}
            onChange={(s) => {
              setSince(s);
              setRound(round + 1);
            }}
          />
          <button type="button" onClick={() => setRound(round + 1)}>
            Refresh
          </button>
        </div>
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {!value && !error && <p role="status">Loading…</p>}
      {value && (
        <>
          <WindowNote window={value.window} />
          {children(value)}
        </>
      )}
    </section>
  );
}

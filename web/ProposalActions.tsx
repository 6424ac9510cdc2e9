// A proposed memory's choices on its card (its goal's `memory.extract` proposed it from what the user said when a
// conversation ended): Keep (POST …/keep: agents are shown it from now on) or Dismiss (DELETE: it was never kept, so
// no second click is asked). Until one or the other, no agent sees it.
import { api, type Memory } from './api';

interface Props {
  memory: Memory;
  /** The card's words, which the buttons are about. */
  textId: string;
  busy: boolean;
  /** Runs a change, showing the card busy meanwhile and the API's refusal on it after. */
  act(work: () => Promise<void>): void;
  onChanged(memory: Memory): void;
  onDeleted(id: string): void;
}

export function ProposalActions({ memory, textId, busy, act, onChanged, onDeleted }: Props) {
  return (
    <div className="memory-actions" role="group" aria-label="Proposed memory">
      <span className="small muted">Proposed from what you said: no agent is shown it until you keep it.</span>
      <button
        type="button"
        className="primary"
        aria-describedby={textId}
        disabled={busy}
        onClick={() => act(async () => onChanged((await api.keepMemory(memory.id)).memory))}
      >
        Keep
      </button>
      <button
        type="button"
        aria-describedby={textId}
        disabled={busy}
        onClick={() =>
          act(async () => {
            await api.deleteMemory(memory.id);
            onDeleted(memory.id);
          })
        }
      >
        Dismiss
      </button>
    </div>
  );
}

// Under the composer while the agent works on a turn: what sending now will do (the agent's whileBusy setting), and
// a choice to do otherwise for this message. The composer stays usable throughout.
import type { WhileBusy } from '../core/types';
import { WHILE_BUSY } from '../core/types';

const WILL: Record<WhileBusy, string> = {
  enqueue: 'Your message will wait: the agent answers it when this turn ends.',
  interrupt:
    'Your message will interrupt: the answer being written is dropped and the agent reads both messages (a tool already running finishes first).',
  reject: 'This agent takes no message until it answers: wait for its reply, or choose to queue or interrupt.',
};

const LABEL: Record<WhileBusy, string> = { enqueue: 'Queue', interrupt: 'Interrupt', reject: 'Refuse' };

interface Props {
  /** The agent's own setting. */
  setting: WhileBusy;
  /** This message's choice, or null for the agent's setting. */
  choice: WhileBusy | null;
  onChoose(choice: WhileBusy | null): void;
}

export function WhileBusyNote({ setting, choice, onChoose }: Props) {
  const mode = choice ?? setting;
  return (
    <p className="while-busy" data-testid="while-busy" data-mode={mode}>
      <span>{WILL[mode]}</span>{' '}
      <label>
        <span className="sr-only">While the agent works, this message should</span>
        <select
          data-testid="while-busy-choice"
          value={choice ?? ''}
          onChange={(e) => onChoose((e.target.value || null) as WhileBusy | null)}
        >
          <option value="">Agent's setting ({LABEL[setting].toLowerCase()})</option>
          {WHILE_BUSY.filter((m) => m !== 'reject').map((m) => (
            <option key={m} value={m}>
              {LABEL[m]}
            </option>
          ))}
        </select>
      </label>
    </p>
  );
}

/** The API's refusal of a message sent while the agent works (whileBusy `reject`), in the chat's words. */
export function busyRefusal(status: number, message: string): string | null {
  return status === 409 && message.startsWith('The agent is busy')
    ? 'The agent is busy with its answer and takes no message until it replies. Your message is kept: send it then, or choose Interrupt.'
    : null;
}

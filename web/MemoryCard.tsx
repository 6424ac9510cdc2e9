// One memory on the Memories page: its words, tags, where it came from (the conversation that kept it, linked), when it
// was kept and changed, whose it is (an admin key lists every owner's), and the agent it belongs to. Its words and
// tags are edited in place (PATCH) and it is deleted after a second click (DELETE); the API's refusals show in its
// words on the card. A proposed memory (not kept yet) says so, and is kept or dismissed instead (ProposalActions).
import { useId, useRef, useState, type FormEvent } from 'react';
import { api, type Memory } from './api';
import { useAction } from './use-action';
import { ProposalActions } from './ProposalActions';
import { when } from './RegistryTable';

interface Props {
  memory: Memory;
  /** The memory's id links to its own page (where the conversations that used it are listed). */
  linked: boolean;
  agentName(goalId: string): string;
  onChanged(memory: Memory): void;
  onDeleted(id: string): void;
}

export function MemoryCard({ memory: m, linked, agentName, onChanged, onDeleted }: Props) {
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const { busy, error, setError, act } = useAction();
  const textId = useId();
  const editButton = useRef<HTMLButtonElement>(null);

  return (
    <article
      className="memory-card"
      data-testid="memory"
      data-id={m.id}
      data-owner={m.owner}
      aria-labelledby={textId}
      aria-busy={busy}
    >
      <header className="memory-head">
        {linked ? (
          <a href={`#/memories/${encodeURIComponent(m.id)}`} className="memory-id" title="Its page: what used it">
            {m.id}
          </a>
        ) : (
          <span className="memory-id">{m.id}</span>
        )}
        <span className="badge" data-testid="memory-owner">
          <span className="sr-only">owner </span>
          {m.owner}
        </span>
        <span className="small muted">{m.goalId ? `for ${agentName(m.goalId)} only` : 'for every agent'}</span>
        {m.proposed && (
          <span className="badge warn" data-testid="memory-proposed">
            proposed
          </span>
        )}
      </header>
      {editing ? (
        <MemoryEdit
          memory={m}
          busy={busy}
          onCancel={() => {
            setEditing(false);
            setError(null);
          }}
          onSave={(change) =>
            void act(async () => {
              onChanged((await api.editMemory(m.id, change)).memory);
              setEditing(false);
              // Back where the person was: the edit form is gone.
              setTimeout(() => editButton.current?.focus());
            })
          }
        />
      ) : (
        <>
          <p className="memory-text" id={textId} data-testid="memory-text">
            {m.text}
          </p>
          {m.tags.length > 0 && (
            <ul className="memory-tags" aria-label="Tags" data-testid="memory-tags">
              {m.tags.map((t) => (
                <li key={t}>#{t}</li>
              ))}
            </ul>
          )}
        </>
      )}
      <p className="small muted memory-meta">
        <Source memory={m} /> · {m.proposed ? 'proposed' : 'kept'} {when(m.createdAt)}
        {m.updatedAt !== m.createdAt && <> · changed {when(m.updatedAt)}</>} (UTC)
      </p>
      {!editing && m.proposed && (
        <ProposalActions
          memory={m}
          textId={textId}
          busy={busy}
          act={(work) => void act(work)}
          onChanged={onChanged}
          onDeleted={onDeleted}
        />
      )}
      {!editing && !m.proposed && (
        <div className="memory-actions">
          <button
            type="button"
            ref={editButton}
            aria-describedby={textId}
            disabled={busy}
            onClick={() => {
              setConfirming(false);
              setEditing(true);
            }}
          >
            Edit
          </button>
          {confirming ? (
            <span className="confirm" role="group" aria-label="Delete this memory?">
              <span className="small">
                Delete it? Later turns no longer see it; past conversations keep what was said.
              </span>
              <button
                type="button"
                className="danger"
                disabled={busy}
                onClick={() =>
                  void act(async () => {
                    await api.deleteMemory(m.id);
                    onDeleted(m.id);
                  })
                }
              >
                Delete
              </button>
              <button type="button" onClick={() => setConfirming(false)}>
                Keep
              </button>
            </span>
          ) : (
            <button type="button" className="danger" aria-describedby={textId} onClick={() => setConfirming(true)}>
              Delete…
            </button>
          )}
        </div>
      )}
      {error && (
        <p className="error" role="alert" data-testid="memory-error">
          {error}
        </p>
      )}
    </article>
  );
}

/** Where it came from: the conversation that kept it (a link to it), or how it was added. */
function Source({ memory: { source, proposed } }: { memory: Memory }) {
  if (source.kind === 'conversation')
    return (
      <>
        {proposed ? 'from' : 'saved in'} conversation{' '}
        <a href={`#/c/${encodeURIComponent(source.conversationId)}`} data-testid="memory-source">
          {source.conversationId}
        </a>
      </>
    );
  return <span data-testid="memory-source">{SOURCE_WORDS[source.kind] ?? `added (${source.kind})`}</span>;
}

const SOURCE_WORDS: Record<string, string> = {
  api: 'added through the API',
  cli: 'added with the CLI',
  import: 'imported',
};

function MemoryEdit({
  memory,
  busy,
  onSave,
  onCancel,
}: {
  memory: Memory;
  busy: boolean;
  onSave(change: { text: string; tags: string[] }): void;
  onCancel(): void;
}) {
  const [text, setText] = useState(memory.text);
  const [tags, setTags] = useState(memory.tags.join(', '));
  const id = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (text.trim()) onSave({ text: text.trim(), tags: tagsOf(tags) });
  };
  return (
    <form className="memory-edit" aria-label={`Edit memory ${memory.id}`} onSubmit={submit}>
      <label htmlFor={`${id}-text`}>Text</label>
      <textarea id={`${id}-text`} rows={3} autoFocus value={text} onChange={(e) => setText(e.target.value)} />
      <label htmlFor={`${id}-tags`}>Tags (separated by commas)</label>
      <input id={`${id}-tags`} value={tags} onChange={(e) => setTags(e.target.value)} />
      <div className="memory-actions">
        <button type="submit" className="primary" disabled={busy || !text.trim()}>
          Save
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** `pto, Work ,,pto` → ['pto', 'Work']: as typed, without blanks or repeats. */
function tagsOf(typed: string): string[] {
  return [...new Set(typed.split(',').map((t) => t.trim()))].filter(Boolean);
}

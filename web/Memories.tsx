// #/memories: the caller's memories (an admin key's: every owner's, or one owner's), newest first and a page at a
// time, or those matching a search (`?q=`, best first); each edited or deleted in place (MemoryCard). A memory's own
// page, with the conversations that were shown it, is MemoryPage.tsx (#/memories/<id>). The page cannot tell an
// admin key from another (without API keys everyone is an admin): every card names its owner, the Owner field is
// always there, and a key that is not an admin's is told so when it names another owner.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import './memories.css';
import { api, messageOf, type Memory } from './api';
import { MemoryCard } from './MemoryCard';

/** Memories a page. A search has no offset (its best matches come first): "More" asks for this many more instead. */
const PAGE = 20;
/** The most the API answers at once. */
const MOST = 500;

interface Query {
  q: string;
  owner: string;
}

interface Listed {
  memories: Memory[];
  more: boolean;
}

/** The list with its next page after `have`: the newest by offset, a search's by a longer limit. */
async function withNextPage(query: Query, have: Memory[]): Promise<Listed> {
  const owner = query.owner || undefined;
  if (query.q) {
    const limit = Math.min(MOST, have.length + PAGE);
    const { memories } = await api.memories({ q: query.q, owner, limit });
    return { memories, more: memories.length === limit && limit < MOST };
  }
  const { memories } = await api.memories({ owner, limit: PAGE, offset: have.length });
  // One kept meanwhile moves the pages down: what is already shown is not shown twice.
  const known = new Set(have.map((m) => m.id));
  return { memories: [...have, ...memories.filter((m) => !known.has(m.id))], more: memories.length === PAGE };
}

export function Memories({ agentName }: { agentName(goalId: string): string }) {
  const [query, setQuery] = useState<Query>({ q: '', owner: '' });
  const [search, setSearch] = useState('');
  const [owner, setOwner] = useState('');
  const [round, setRound] = useState(0);
  const [listed, setListed] = useState<Listed | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  /** The latest load: the answer to an earlier one (a search typed over) is dropped. */
  const latest = useRef(0);

  const load = (have: Memory[]) => {
    const mine = ++latest.current;
    setLoading(true);
    setError(null);
    withNextPage(query, have)
      .then(
        (next) => mine === latest.current && setListed(next),
        (err: unknown) => mine === latest.current && setError(messageOf(err)),
      )
      .finally(() => mine === latest.current && setLoading(false));
  };
  useEffect(() => {
    setListed(null);
    load([]);
    // A new search or Refresh starts from the first page; "More" calls load itself.
  }, [query, round]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setQuery({ q: search.trim(), owner: owner.trim() });
  };
  const change = (update: (list: Memory[]) => Memory[]) =>
    setListed((l) => l && { ...l, memories: update(l.memories) });
  const shown = listed?.memories ?? [];
  // Another owner named, and this key's own memories answered: the API ignores `owner` from a key not an admin's.
  const ownOnly = !!query.owner && shown.some((m) => m.owner !== query.owner);

  return (
    <section className="memories-page" aria-labelledby="memories-title">
      <div className="page-head">
        <h1 id="memories-title">Memories</h1>
        <button type="button" onClick={() => setRound(round + 1)}>
          Refresh
        </button>
      </div>
      <p className="muted small">
        What you chose to keep for your agents: each turn is shown the ones that fit it, as data with their source and
        date. Change or delete any; a deleted memory is gone from later turns, while past conversations keep what was
        said. One <em>proposed</em> when a conversation ended (an agent that proposes them) is shown to no agent until
        you keep it. The CLI has the same: <code>agent memory</code>.
      </p>
      <form className="memory-search" role="search" aria-label="Memories" onSubmit={submit}>
        <div className="field">
          <label htmlFor="memory-q">Search memories</label>
          <input
            id="memory-q"
            type="search"
            placeholder="words of a memory"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="memory-owner">Owner</label>
          <input
            id="memory-owner"
            placeholder="every owner (an admin key)"
            value={owner}
            onChange={(e) => setOwner(e.target.value)}
          />
        </div>
        <button type="submit" className="primary">
          Search
        </button>
        {(query.q || query.owner) && (
          <button
            type="button"
            onClick={() => {
              setSearch('');
              setOwner('');
              setQuery({ q: '', owner: '' });
            }}
          >
            Show all
          </button>
        )}
      </form>
      {error && (
        <p className="error" role="alert" data-testid="memories-error">
          {error}
        </p>
      )}
      <p className="small muted" role="status" data-testid="memories-status">
        {listed
          ? summary(shown.length, { ...query, owner: ownOnly ? '' : query.owner }, listed.more)
          : loading
            ? 'Loading…'
            : ''}
      </p>
      {ownOnly && (
        <p className="small" data-testid="memories-own-only">
          This key lists its own memories only: naming another owner takes an admin key (API_ADMIN_KEYS).
        </p>
      )}
      <div className="memory-list">
        {shown.map((m) => (
          <MemoryCard
            key={m.id}
            memory={m}
            linked
            agentName={agentName}
            onChanged={(changed) => change((list) => list.map((x) => (x.id === changed.id ? changed : x)))}
            onDeleted={(id) => change((list) => list.filter((x) => x.id !== id))}
          />
        ))}
      </div>
      {listed?.more && (
        <button type="button" disabled={loading} onClick={() => load(shown)}>
          {loading ? 'Loading…' : 'More'}
        </button>
      )}
    </section>
  );
}

/** What the list holds, in a line: `3 memories of ada matching “train”, best first`. */
function summary(count: number, query: Query, more: boolean): string {
  const whose = query.owner ? ` of ${query.owner}` : '';
  if (count === 0)
    return query.q
      ? `No memory${whose} matches “${query.q}”.`
      : `No memories${whose} yet: an agent keeps one when asked to remember something.`;
  const what = `${count} ${count === 1 ? 'memory' : 'memories'}${whose}`;
  const order = query.q ? `matching “${query.q}”, best first` : 'newest first';
  return `${what} ${order}${more ? '; more below' : ''}.`;
}

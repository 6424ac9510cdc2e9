// The shell: header, the key prompt, and the page the URL names — #/ (start or pick a conversation),
// #/c/<id> (a conversation; a reload resumes it), #/agents, #/tools, #/endpoints (the registry, with usage),
// #/made-tools, #/schedules (scheduled runs and webhook triggers), #/memories (what the agents keep for you) and
// #/memories/<id> (one memory, and the conversations that were shown it).
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, apiKey, messageOf, onUnauthorized, type AgentsDescription, type ConversationState } from './api';
import { Chat } from './Chat';
import { ConversationList } from './ConversationList';
import { Agents } from './Agents';
import { Endpoints } from './Endpoints';
import { MadeTools } from './MadeTools';
import { Memories } from './Memories';
import { MemoryPage } from './MemoryPage';
import { Picker } from './Picker';
import { Schedules } from './Schedules';
import { Tools } from './Tools';

const PAGES = ['agents', 'tools', 'endpoints', 'made-tools', 'schedules', 'memories'] as const;
type Page = (typeof PAGES)[number];
type Route = { page: 'home' } | { page: 'chat'; id: string } | { page: 'memory'; id: string } | { page: Page };

const PAGE_TITLES: Record<Page, string> = {
  agents: 'Agents',
  tools: 'Tools',
  endpoints: 'Endpoints',
  'made-tools': 'Made tools',
  schedules: 'Schedules',
  memories: 'Memories',
};

function routeOf(hash: string): Route {
  const chat = /^#\/c\/(.+)$/.exec(hash);
  if (chat) return { page: 'chat', id: decodeURIComponent(chat[1]!) };
  const memory = /^#\/memories\/(.+)$/.exec(hash);
  if (memory) return { page: 'memory', id: decodeURIComponent(memory[1]!) };
  const page = PAGES.find((p) => hash === `#/${p}`);
  return page ? { page } : { page: 'home' };
}

export function App() {
  const [route, setRoute] = useState(() => routeOf(location.hash));
  const [needKey, setNeedKey] = useState(false);
  // Bumped when a key is saved: every view mounts again and reloads with it.
  const [epoch, setEpoch] = useState(0);
  const [agents, setAgents] = useState<AgentsDescription | null>(null);
  const [agentsError, setAgentsError] = useState<string | null>(null);
  const [status, setStatus] = useState<{ goalId: string; state: ConversationState; title: string | null } | null>(null);
  const mainRef = useRef<HTMLElement>(null);

  useEffect(() => {
    const follow = () => setRoute(routeOf(location.hash));
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);
  useEffect(() => onUnauthorized(() => setNeedKey(true)), []);

  const loadAgents = useCallback(() => {
    setAgentsError(null);
    api.agents().then(setAgents, (err) => setAgentsError(messageOf(err)));
  }, []);
  useEffect(() => loadAgents(), [loadAgents, epoch]);

  const agentName = useCallback((id: string) => agents?.agents.find((a) => a.goalId === id)?.agentName ?? id, [agents]);
  const currentAgent = route.page === 'chat' && status ? agentName(status.goalId) : null;

  useEffect(() => {
    document.title = [
      currentAgent,
      route.page === 'memory' ? 'Memory' : route.page in PAGE_TITLES ? PAGE_TITLES[route.page as Page] : null,
      'Agent orchestrator',
    ]
      .filter(Boolean)
      .join(' · ');
  }, [currentAgent, route.page]);
  // A new page takes the focus and starts at its top, as a page load would (the chat puts the focus in its text
  // box itself); otherwise a phone that was scrolled down a conversation opens the picker half-way down its list.
  const firstRoute = useRef(true);
  useEffect(() => {
    if (firstRoute.current) firstRoute.current = false;
    else if (route.page !== 'chat') {
      window.scrollTo(0, 0);
      mainRef.current?.focus({ preventScroll: true });
    }
  }, [route]);

  return (
    <>
      <button type="button" className="skip-link" onClick={() => mainRef.current?.focus()}>
        Skip to content
      </button>
      <header className="topbar">
        <a href="#/" className="brand">
          Agent orchestrator
        </a>
        {currentAgent && (
          <span className="current-agent">
            <span className="sr-only">Agent: </span>
            <span data-testid="current-agent">{currentAgent}</span>
          </span>
        )}
        <nav aria-label="Main">
          <a href="#/" aria-current={route.page === 'home' ? 'page' : undefined}>
            New
          </a>
          {PAGES.map((p) => (
            <a key={p} href={`#/${p}`} data-testid={`${p}-link`} aria-current={current(route, p) ? 'page' : undefined}>
              {PAGE_TITLES[p]}
            </a>
          ))}
        </nav>
      </header>
      {needKey && (
        <KeyPrompt
          refused={apiKey.get() !== null}
          onSave={(key) => {
            apiKey.set(key);
            setNeedKey(false);
            setEpoch((e) => e + 1);
          }}
        />
      )}
      <div className={`layout page-${route.page}`} key={epoch}>
        <aside className="sidebar">
          <ConversationList
            currentId={route.page === 'chat' ? route.id : null}
            currentTitle={status?.title ?? null}
            agentName={agentName}
            refresh={`${route.page}/${route.page === 'chat' ? route.id : ''}/${status?.state}`}
          />
        </aside>
        <main id="main" ref={mainRef} tabIndex={-1}>
          {route.page === 'chat' ? (
            <Chat key={route.id} id={route.id} agentName={agentName} onStatus={setStatus} />
          ) : route.page === 'agents' ? (
            <Agents />
          ) : route.page === 'tools' ? (
            <Tools />
          ) : route.page === 'endpoints' ? (
            <Endpoints />
          ) : route.page === 'made-tools' ? (
            <MadeTools />
          ) : route.page === 'schedules' ? (
            <Schedules agents={agents} agentName={agentName} />
          ) : route.page === 'memories' ? (
            <Memories agentName={agentName} />
          ) : route.page === 'memory' ? (
            <MemoryPage key={route.id} id={route.id} agentName={agentName} />
          ) : (
            <Picker agents={agents} loadError={agentsError} onRetry={loadAgents} />
          )}
        </main>
      </div>
    </>
  );
}

/** The navigation's page for a route: a memory's own page is under Memories. */
function current(route: Route, page: Page): boolean {
  return route.page === page || (route.page === 'memory' && page === 'memories');
}

function KeyPrompt({ refused, onSave }: { refused: boolean; onSave(key: string): void }) {
  const [key, setKey] = useState('');
  return (
    <div className="key-prompt" role="dialog" aria-labelledby="key-title" aria-describedby="key-why">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (key.trim()) onSave(key.trim());
        }}
      >
        <h2 id="key-title">API key needed</h2>
        <p id="key-why">
          {refused ? 'The server refused the stored key. ' : 'This server asks for a key (API_KEYS). '}
          It is kept in this browser’s local storage.
        </p>
        <label htmlFor="api-key">API key</label>
        <div className="row">
          <input
            id="api-key"
            type="password"
            autoComplete="off"
            autoFocus
            data-testid="key-input"
            value={key}
            onChange={(e) => setKey(e.target.value)}
          />
          <button type="submit" className="primary" data-testid="key-save" disabled={!key.trim()}>
            Save key
          </button>
        </div>
      </form>
    </div>
  );
}

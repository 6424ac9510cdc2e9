// The registry's remote A2A agents as our agents see them: each one's card (fetched with its headers, kept a minute),
// its summary for AskAgent and `agent agents` (`a2a:<name>`, its skills as the registry allows), and an A2A client to
// call it. Read from the registry file at each look, so an agent added there is offered on the next turn.
import type { AgentSummary } from '../../core/types';
import { globMatch } from '../../core/naming';
import type { RegistryFile } from '../endpoint-registry';
import { a2a, a2aClient, type A2AClient, type AgentCard } from './sdk';
import { remoteAgentId, resolveA2aAgent, type A2aAgentEntry } from './agent-entry';

export interface RemoteAgent {
  name: string;
  entry: A2aAgentEntry;
  summary: AgentSummary;
  card?: AgentCard;
  /** Why its card could not be read (it is still offered: a call says the same, or works once it is back). */
  error?: string;
}

const CARD_TTL_MS = 60_000;
const FAILED_TTL_MS = 30_000;
/** Short: a card is read while a turn is being prepared. */
const CARD_TIMEOUT_MS = 3_000;

export class RemoteAgents {
  private readonly cards = new Map<string, { at: number; card: Promise<AgentCard>; failed: boolean }>();
  private readonly good = new Map<string, AgentCard>();

  constructor(
    private readonly registry: RegistryFile,
    private readonly env: NodeJS.ProcessEnv = process.env,
    /** Secret values resolved into headers: the worker scrubs them from what it logs and records. */
    private readonly onSecrets: (values: string[]) => void = () => undefined,
  ) {}

  /** The enabled remote agents, each with its card when it could be read. */
  async list(): Promise<RemoteAgent[]> {
    const { agents } = this.registry.read().registry;
    return Promise.all(
      Object.entries(agents)
        .filter(([, entry]) => entry.enabled)
        .map(async ([name, entry]) => {
          try {
            const card = await this.card(name, entry);
            return { name, entry, card, summary: summaryOf(name, entry, card) };
          } catch (err) {
            const error = (err as Error).message;
            return { name, entry, error, summary: summaryOf(name, entry) };
          }
        }),
    );
  }

  async summaries(): Promise<AgentSummary[]> {
    return (await this.list()).map((a) => a.summary);
  }

  /** A client for the remote agent `name`, from its card, its calls carrying the entry's headers. */
  async client(name: string): Promise<{ client: A2AClient; entry: A2aAgentEntry }> {
    const entry = this.registry.read().registry.agents[name];
    if (!entry || !entry.enabled) throw new Error(`No remote A2A agent "${name}" in the registry (a2aAgents).`);
    const card = await this.card(name, entry);
    const { headers } = this.resolved(entry);
    const sdk = a2aClient();
    const withHeaders: typeof fetch = (url, init) =>
      fetch(url, { ...init, headers: { ...(init?.headers as Record<string, string>), ...headers } });
    const factory = new sdk.ClientFactory({
      transports: [
        new sdk.JsonRpcTransportFactory({ fetchImpl: withHeaders }),
        new sdk.RestTransportFactory({ fetchImpl: withHeaders }),
      ],
    });
    return { client: await factory.createFromAgentCard(card), entry };
  }

  /** Its card: read again each minute (a failure, after half a minute), the last good one served meanwhile, so an
   * agent that does not answer costs a conversation's turns nothing but one short wait a minute. */
  private card(name: string, entry: A2aAgentEntry): Promise<AgentCard> {
    const key = `${name} ${JSON.stringify(entry)}`;
    const cached = this.cards.get(key);
    const age = cached ? Date.now() - cached.at : Infinity;
    if (cached && age < (cached.failed ? FAILED_TTL_MS : CARD_TTL_MS)) return cached.card;
    const entryNow = { at: Date.now(), card: this.fetchCard(entry), failed: false };
    entryNow.card = entryNow.card.then(
      (good) => {
        this.good.set(key, good);
        return good;
      },
      (err: unknown) => {
        entryNow.failed = true;
        // The last good card, for everyone asking until it is read again.
        const good = this.good.get(key);
        if (good) return good;
        throw err;
      },
    );
    this.cards.set(key, entryNow);
    return entryNow.card;
  }

  private async fetchCard(entry: A2aAgentEntry): Promise<AgentCard> {
    const { card: given, headers } = this.resolved(entry);
    const url = given.endsWith('.json') ? given : `${given.replace(/\/+$/, '')}/.well-known/agent-card.json`;
    const res = await fetch(url, { headers, signal: AbortSignal.timeout(CARD_TIMEOUT_MS) });
    if (!res.ok) throw new Error(`its card at ${url} answered ${res.status}`);
    return a2a.AgentCard.fromJSON(await res.json());
  }

  private resolved(entry: A2aAgentEntry) {
    const resolved = resolveA2aAgent(entry, this.env);
    if (resolved.secrets.length) this.onSecrets(resolved.secrets);
    return resolved;
  }
}

/** The remote agent as AskAgent and the agent list name it: its card's name and description, and its skills. */
function summaryOf(name: string, entry: A2aAgentEntry, card?: AgentCard): AgentSummary {
  const skills = (card?.skills ?? []).filter((s) => entry.skills.some((w) => globMatch(w, s.id)));
  const skillText = skills.length ? ` Skills: ${skills.map((s) => `${s.name} (${s.description})`).join('; ')}.` : '';
  return {
    goalId: remoteAgentId(name),
    agentName: card?.name || name,
    description: `${entry.description ?? card?.description ?? 'A remote A2A agent.'}${skillText}`,
    category: entry.categories[0] ?? 'remote',
  };
}

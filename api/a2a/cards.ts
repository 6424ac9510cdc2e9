// Agent cards: what an A2A client reads before it calls one of our agents. One card per agent (its goal's name and
// description; its tools as skills), with both bindings we serve and our bearer keys as the security scheme; the
// deployment's card (/.well-known/agent-card.json) is the default agent's, its skills naming every agent, each with
// the address of its own card.
import type { AgentClient } from '../../client/agent-client';
import type { AgentSummary } from '../../core/types';
import type { AgentCard, AgentSkill } from '../../endpoints/a2a/sdk';
import { readPackageVersion } from '../../runtime/package-version';

export const A2A_PATH = '/a2a/agents';
export const CARD_FILE = '.well-known/agent-card.json';

export interface CardOptions {
  /** The API's address as clients reach it (API_PUBLIC_URL, or the request's origin). */
  origin: string;
  /** Whether API keys are required: then the card asks for a bearer key. */
  keys: boolean;
}

export function agentBase(origin: string, goalId: string): string {
  return `${origin}${A2A_PATH}/${encodeURIComponent(goalId)}`;
}

export async function agentCard(agents: AgentClient, goalId: string, opts: CardOptions): Promise<AgentCard> {
  const summary = (await agents.agents()).agents.find((a) => a.goalId === goalId);
  const tools = (await agents.catalog(goalId)).tools.filter((t) => t.category !== 'builtin');
  const skills: AgentSkill[] = tools.length
    ? tools.map((t) => skill(t.name, t.name, t.description, ['tool', t.category]))
    : [skill(goalId, summary?.agentName ?? goalId, summary?.description ?? '', ['agent'])];
  return card(summary ?? { goalId, agentName: goalId, description: '', category: '' }, skills, opts);
}

/** The deployment's card: the default agent's interfaces, and every agent as a skill. */
export async function directoryCard(agents: AgentClient, defaultGoal: string, opts: CardOptions): Promise<AgentCard> {
  const all = (await agents.agents()).agents;
  const main = all.find((a) => a.goalId === defaultGoal) ?? all[0];
  const skills = all.map((a) =>
    skill(a.goalId, a.agentName, `${a.description} (card: ${agentBase(opts.origin, a.goalId)}/${CARD_FILE})`, [
      'agent',
      a.category,
    ]),
  );
  return card(main ?? { goalId: defaultGoal, agentName: defaultGoal, description: '', category: '' }, skills, opts);
}

function card(agent: AgentSummary, skills: AgentSkill[], opts: CardOptions): AgentCard {
  const base = agentBase(opts.origin, agent.goalId);
  const bearer = {
    scheme: {
      $case: 'httpAuthSecurityScheme' as const,
      value: { description: 'An API key (API_KEYS): its owner owns the tasks.', scheme: 'Bearer', bearerFormat: '' },
    },
  };
  return {
    name: agent.agentName,
    description: agent.description || agent.agentName,
    supportedInterfaces: [
      { url: base, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' },
      { url: `${base}/rest`, protocolBinding: 'HTTP+JSON', tenant: '', protocolVersion: '1.0' },
    ],
    provider: undefined,
    version: readPackageVersion(),
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: opts.keys ? { bearer } : {},
    securityRequirements: opts.keys ? [{ schemes: { bearer: { list: [] } } }] : [],
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills,
    signatures: [],
  };
}

function skill(id: string, name: string, description: string, tags: string[]): AgentSkill {
  return {
    id,
    name,
    description,
    tags: tags.filter(Boolean),
    examples: [],
    inputModes: [],
    outputModes: [],
    securityRequirements: [],
  };
}

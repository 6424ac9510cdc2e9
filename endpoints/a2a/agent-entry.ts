// A remote A2A agent in the endpoint registry (`a2aAgents` beside `mcpServers` and `httpApis` in
// config/mcp_endpoints.json): where its card is, the headers its calls carry (`${env:NAME}` references, resolved in the
// worker just before a call), and which of its skills our agents are told about. It becomes a delegate: AskAgent's
// `a2a:<name>` (endpoints/a2a/remote-agents.ts).
import { z } from 'zod';
import { envResolver } from '../env-refs';
import { REMOTE_AGENT_PREFIX } from '../../core/builtin-specs';

export const a2aAgentEntry = z
  .object({
    /** The agent's card: `https://host/.well-known/agent-card.json`, or the agent's base URL (the card is found below). */
    card: z.string().url(),
    headers: z.record(z.string(), z.string()).default({}),
    /** Skill ids (or globs) our agents are told about; default: all. */
    skills: z.array(z.string().min(1)).default(['*']),
    /** What it does, for our agents; default: its card's description. */
    description: z.string().optional(),
    categories: z.array(z.string()).default(['remote']),
    enabled: z.boolean().default(true),
    /** How long one task may take, input the user gives included. */
    timeoutMs: z.number().int().positive().max(86_400_000).default(600_000),
  })
  .strict();

export type A2aAgentEntry = z.infer<typeof a2aAgentEntry>;

/** The goal id a remote agent answers to in AskAgent and the agent list. */
export function remoteAgentId(name: string): string {
  return `${REMOTE_AGENT_PREFIX}${name}`;
}

/** Parses one `a2aAgents` entry; problems come back as `field: message`. */
export function parseA2aAgentEntry(value: unknown): { entry: A2aAgentEntry } | { problems: string[] } {
  const parsed = a2aAgentEntry.safeParse(value);
  if (parsed.success) return { entry: parsed.data };
  return {
    problems: parsed.error.issues.map((issue) => {
      const field = issue.path.join('.') || (issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : 'entry');
      return `${field}: ${issue.message}`;
    }),
  };
}

/** The entry's card URL and headers with `${env:…}` replaced, and the secret values to scrub from errors. */
export function resolveA2aAgent(entry: A2aAgentEntry, env: NodeJS.ProcessEnv) {
  const { sub, subRecord, secrets, check } = envResolver(env);
  const resolved = { card: sub(entry.card), headers: subRecord(entry.headers) };
  check();
  return { ...resolved, secrets };
}

// a+: the MCP turn a, on a worker of its own whose registry also holds an endpoint that hangs at start-up, known bad
// before the first turn. One bad endpoint must not slow the others: issue 8 asks for a+ within 1.2× of a.
import type { AgentWorker } from '../../worker/create-worker';
import { fxEntry, writeRegistry } from '../fx';
import { mcpToolTurn, type McpTurnSpec } from './mcp-tool-turn';

const HUNG_ARGS = ['-e', 'setInterval(() => {}, 1e9)'];
/** A stdio server that starts and never answers `initialize`; the registry's default timeouts apply to it. */
const hungEntry = { command: process.execPath, args: HUNG_ARGS };

export const hungEndpointTurn: McpTurnSpec = {
  ...mcpToolTurn,
  key: 'a+',
  name: 'a+ workflow turn, MCP tool, a hung endpoint too',
  slug: 'mcp-hung',
  description:
    `a on a worker whose registry also holds "hung" (node ${HUNG_ARGS.join(' ')}: never answers initialize), ` +
    'known bad before the first turn and retried in the background meanwhile.',
};

/** The registry of a+'s worker: fx, and the endpoint that hangs (its timeout the registry's default unless given). */
export function hungEndpointRegistry(dir: string, timeoutMs?: number): string {
  return writeRegistry(dir, 'fx-hung-worker.json', {
    fx: fxEntry,
    hung: { ...hungEntry, ...(timeoutMs ? { timeoutMs } : {}) },
  });
}

/** The worker's first discovery waits out the hung endpoint's timeout, once; no turn may wait on it after that. */
export async function learnHungEndpoint(agent: AgentWorker): Promise<void> {
  const hung = (await agent.discovery.catalog()).endpoints.find((e) => e.name === 'hung');
  if (hung?.status !== 'unavailable')
    throw new Error(`the hung endpoint should be unavailable, got ${JSON.stringify(hung)}`);
}

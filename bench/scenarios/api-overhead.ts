// The API's cost on a turn: the text-only turn (zero-latency scripted model, one LLM activity) sent through
// POST /api/conversations/{id}/messages (wait=true, keep-alive HTTP from this process) and the same turn sent with
// AgentClient.say, which is what the API calls: the difference is HTTP, routing, validation and JSON.
import type { Client } from '@temporalio/client';
import type { AgentClient } from '../../client/agent-client';
import { agentConversations } from '../agent-conversation';
import { sendMessage } from '../api-stack';
import type { CallScenario } from '../scenario';
import { SessionRotation } from '../session-rotation';
import { textTurn } from './text-turn';

export function apiOverheadScenarios(
  client: Client,
  agents: AgentClient,
  apiUrl: string,
  opts: { runId: string; turnsPerConversation: number },
): CallScenario<SessionRotation>[] {
  const policy = { turnsPerSession: opts.turnsPerConversation, warmupApart: false };
  const rotation = (slug: string, send: (id: string, prompt: string) => ReturnType<AgentClient['say']>) =>
    new SessionRotation(policy, agentConversations(client, agents.taskQueue, opts.runId, { ...textTurn, slug }, send));
  return [
    {
      key: 'api',
      name: 'text turn via POST /api/conversations/{id}/messages',
      description: 'HTTP (keep-alive) → Hono + zod → AgentClient.say → prompt update; wait=true.',
      sampler: rotation('api-http', (id, prompt) => sendMessage({ url: apiUrl }, id, prompt)),
    },
    {
      key: 'say',
      name: 'the same turn via AgentClient.say',
      description: 'AgentClient.say → prompt update (accepted, then its result), in this process.',
      sampler: rotation('api-say', (id, prompt) => agents.say(id, prompt)),
    },
  ];
}

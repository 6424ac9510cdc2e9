// What a scenario is to the runner and the report: the labels its table row shows, and the sampler the
// round-robin loop drives.
import type { AgentConversationSpec } from './agent-conversation';
import type { Sampler } from './round-robin';
import type { SessionRotation } from './session-rotation';

/** A row of the chat-turn table: turns sent to rotating workflows. */
export interface TurnScenario {
  name: string;
  description: string;
  activitiesPerTurn: string;
  sampler: SessionRotation;
}

/** A chat-turn scenario run as an agent conversation, as data. */
export interface ChatTurnSpec extends AgentConversationSpec {
  description: string;
  activitiesPerTurn: string;
  /** Served by the worker with VALIDATE_PROMPTS=true rather than false. */
  validatePrompts: boolean;
  /** Served by a worker with WORKER_VERSIONING=off (the others are versioned, the default). */
  unversioned?: boolean;
}

/** A row of the MCP tool-call table; `key` names it in ratios ("b:a") and in the JSON. */
export interface CallScenario<S extends Sampler = Sampler> {
  key: string;
  name: string;
  description: string;
  sampler: S;
}

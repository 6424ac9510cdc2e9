// a and a': the same chat-turn shape with its tool reached over MCP (fx convert, a pooled stdio session) and, as
// its control on the same worker, a native tool. Their difference is what MCP adds to a durable turn.
import type { AgentConversationSpec } from '../agent-conversation';
import { MCP_GOAL, MCP_PROMPT, MCP_REPLY } from '../scripted-answers';
import { toolTurn } from './tool-turn';

export interface McpTurnSpec extends AgentConversationSpec {
  key: string;
  description: string;
}

export const mcpToolTurn: McpTurnSpec = {
  key: 'a',
  name: 'a  workflow turn, MCP tool',
  slug: 'mcp-turn',
  description: `promptUpdate on ${MCP_GOAL}; the model calls fx__convert (stdio, pooled session), then answers: resolveGoal (catalog cache hit), planTurn, callMcpTool, planTurn.`,
  goalId: MCP_GOAL,
  prompt: MCP_PROMPT,
  reply: MCP_REPLY,
  tool: 'fx__convert',
};

/** The chat-turn table's one-tool turn, on the MCP worker. */
export const nativeToolTurn: McpTurnSpec = {
  key: "a'",
  name: "a' workflow turn, native tool",
  slug: 'mcp-native',
  description: `promptUpdate on ${toolTurn.goalId}, same worker: the model calls CurrentPTO, then answers: resolveGoal, planTurn, CurrentPTO, planTurn.`,
  goalId: toolTurn.goalId,
  prompt: toolTurn.prompt,
  reply: toolTurn.reply,
  tool: toolTurn.tool,
};

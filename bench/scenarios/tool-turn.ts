// A turn that runs a native tool: the model calls CurrentPTO (no approval needed), then answers with its result.
import type { ChatTurnSpec } from '../scenario';
import { PTO_GOAL, TOOL_PROMPT, TOOL_REPLY } from '../scripted-answers';

export const toolTurn: ChatTurnSpec = {
  name: 'one-tool turn',
  slug: 'tool',
  description:
    'promptUpdate; the model calls CurrentPTO (approval never), then answers (VALIDATE_PROMPTS=false): planTurn, CurrentPTO, planTurn.',
  activitiesPerTurn: '2 LLM + 1 tool',
  validatePrompts: false,
  goalId: PTO_GOAL,
  prompt: TOOL_PROMPT,
  reply: TOOL_REPLY,
  tool: 'CurrentPTO',
};

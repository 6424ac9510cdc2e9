// The cheapest agent turn: the model answers with text and prompts are not validated, so one LLM activity.
import type { ChatTurnSpec } from '../scenario';
import { PTO_GOAL, TEXT_PROMPT, TEXT_REPLY } from '../scripted-answers';

export const textTurn: ChatTurnSpec = {
  name: 'text-only turn',
  slug: 'text',
  description: 'promptUpdate; the model answers with text (VALIDATE_PROMPTS=false): planTurn.',
  activitiesPerTurn: '1 LLM',
  validatePrompts: false,
  goalId: PTO_GOAL,
  prompt: TEXT_PROMPT,
  reply: TEXT_REPLY,
};

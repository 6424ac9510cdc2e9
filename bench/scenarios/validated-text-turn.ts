// The text-only turn with prompt validation on: what the extra LLM activity (validatePrompt) costs per turn.
import type { ChatTurnSpec } from '../scenario';
import { textTurn } from './text-turn';

export const validatedTextTurn: ChatTurnSpec = {
  ...textTurn,
  name: 'text-only turn, validation on',
  slug: 'text-validated',
  description: 'promptUpdate; the model answers with text (VALIDATE_PROMPTS=true): validatePrompt, planTurn.',
  activitiesPerTurn: '2 LLM',
  validatePrompts: true,
};

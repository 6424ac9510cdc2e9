// Fixtures for driving Conversation without Temporal: a goal with one tool, settings, and the loop's two verbs.
import { Conversation, type RunVersions } from '../../workflows/decider/conversation';
import type { Effect, EffectKind } from '../../core/effects';
import { BUILTIN_TOOLS } from '../../core/builtin-specs';
import type { Goal, Settings, ToolSpec } from '../../core/types';
import type { PlanResult } from '../../core/activity-types';

export const settings: Settings = {
  showConfirm: true,
  multiGoal: false,
  pickerGoalId: 'picker',
  goalCategories: [],
  validatePrompts: false,
  maxToolStepsPerTurn: 4,
  historyEventBudget: 1000,
  recentMessagesKept: 4,
};
export const goal: Goal = {
  id: 'g',
  category: 'c',
  agentName: 'Agent',
  agentFriendlyDescription: '',
  description: '',
  starterPrompt: 'start',
  exampleConversation: '',
  tools: ['Book'],
};
export const book: ToolSpec = {
  name: 'Book',
  description: 'Book it',
  category: 'c',
  inputSchema: { type: 'object', properties: { day: { type: 'string' } }, required: ['day'] },
  approval: 'default',
  kind: 'native',
};
export const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };
export const text = (t: string): PlanResult => ({ text: t, toolCalls: [], usage });
export const calls = (...c: [string, Record<string, unknown>][]): PlanResult => ({
  text: '',
  toolCalls: c.map(([tool, args], i) => ({ id: `c${i}`, tool, args })),
  usage,
});

export function begun(overrides: Partial<Settings> = {}, versions: RunVersions = { refreshToolsEachTurn: true }) {
  const convo = new Conversation();
  convo.begin({ ...settings, ...overrides }, { goal, tools: [book, BUILTIN_TOOLS.CompleteGoal!] }, versions);
  // The starter prompt opens the conversation.
  convo.apply(next(convo, 'plan'), text('hello'));
  return convo;
}

/** The next effect, checked to be of `kind`. */
export function next<K extends EffectKind>(convo: Conversation, kind: K): Effect<K> {
  const effect = convo.nextEffect();
  expect(effect?.kind).toBe(kind);
  return effect as Effect<K>;
}

/** The tools a plan request offers the model: sent with it, or sent before and named by number (PlanContextRef). */
export function offeredBy(convo: Conversation, plan: Effect<'plan'>): ToolSpec[] {
  const { request } = plan;
  return request.tools ?? convo.turn.contexts.get(request.context.version)!.tools;
}

/** Plans with `plan` and returns the next effect (null: waiting for the user). */
export function planThen(convo: Conversation, plan: PlanResult): Effect | null {
  convo.apply(next(convo, 'plan'), plan);
  return convo.nextEffect();
}

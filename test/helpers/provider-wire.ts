// The provider wire tests' bench: a replay server for one provider (testkit/wire-replay.ts), the real provider model
// from createModel pointed at it, and the real LLM activities (createLlmActivities) planning a turn with a few tools
// the recorded answers call. A failure comes back as the ApplicationFailure the activity throws.
import { ApplicationFailure } from '@temporalio/common';
import { createLlmActivities } from '../../activities/llm/llm-activities';
import { createModel } from '../../activities/llm/model';
import { loadPrices } from '../../activities/llm/prices';
import type { LlmActivities, PlanResult } from '../../core/activity-types';
import type { ChatMessage, Goal, ToolSpec } from '../../core/types';
import { startWireReplay, type WireProvider, type WireReplay } from '../../testkit/wire-replay';

/** The model each provider's fixtures were recorded for, as LLM_MODEL names it. */
export const WIRE_MODELS: Record<WireProvider, string> = {
  'openai-chat': 'openai-chat:gpt-4o-mini',
  openai: 'openai:gpt-5-mini',
  anthropic: 'anthropic:claude-sonnet-4-5',
  google: 'google:gemini-2.5-flash',
};

const tool = (name: string, description: string, properties: Record<string, unknown>): ToolSpec => ({
  name,
  description,
  category: 'wire',
  kind: 'native',
  approval: 'never',
  inputSchema: { type: 'object', properties, required: Object.keys(properties), additionalProperties: false },
});

/** The tools the recorded answers call. */
export const WIRE_TOOLS: ToolSpec[] = [
  tool('GetWeather', 'The weather in a city now.', { city: { type: 'string' } }),
  tool('GetOrder', 'An order by its id.', { orderId: { type: 'string' } }),
  tool('SendEmail', 'Sends an e-mail.', {
    to: { type: 'string' },
    subject: { type: 'string' },
    body: { type: 'string' },
  }),
  tool('LookupCustomer', 'A customer by e-mail address.', { email: { type: 'string' } }),
];

export const WIRE_GOAL: Goal = {
  id: 'goal_wire',
  category: 'wire',
  agentName: 'Wire Agent',
  agentFriendlyDescription: 'Answers with recorded provider replies.',
  description: 'Help the user with orders, weather and e-mail.',
  starterPrompt: 'Greet the user.',
  exampleConversation: 'user: hi\nagent: Hello! How can I help?',
  tools: WIRE_TOOLS.map((t) => t.name),
};

export interface WireBench {
  replay: WireReplay;
  llm: LlmActivities;
  /** Plans one turn after the user's `text`. */
  plan(text?: string): Promise<PlanResult>;
  /** Plans one turn that must fail: the failure it fails with. */
  failure(text?: string): Promise<ApplicationFailure>;
  close(): Promise<void>;
}

export async function startWireBench(provider: WireProvider): Promise<WireBench> {
  const replay = await startWireReplay(provider);
  const name = WIRE_MODELS[provider];
  const resolved = createModel({ model: name, key: 'wire-test-key', baseUrl: replay.baseUrl });
  const llm = createLlmActivities({
    model: resolved.model,
    provider: resolved.provider,
    modelName: name,
    prices: loadPrices(),
    timeoutMs: 10_000,
  });
  const plan = (text = 'Hi') => {
    const messages: ChatMessage[] = [{ kind: 'user', text, promptId: 1 }];
    return llm.planTurn({ goal: WIRE_GOAL, tools: WIRE_TOOLS, messages, summary: '', agents: [] });
  };
  return {
    replay,
    llm,
    plan,
    async failure(text) {
      const err = await plan(text).then(
        (result) => new Error(`planned instead of failing: ${JSON.stringify(result)}`),
        (e: unknown) => e,
      );
      if (!(err instanceof ApplicationFailure)) throw err;
      return err;
    },
    close: () => replay.close(),
  };
}

// Sampling: an MCP server asks our model for a completion during one of its tool calls. It runs through the same
// model, price table, metrics and trace spans as the conversation's own calls, and what it spent comes back with
// the tool's outcome so the conversation counts it in its usage and budget.
import { generateText, type LanguageModel, type ModelMessage } from 'ai';
import type { Usage } from '../../core/types';
import { observeLlmCall, recordLlmUsage } from '../call-telemetry';
import type { PriceTable } from './prices';
import type { ScriptedCallInfo } from './scripted-model';
import { usageOf } from './sdk-usage';

export interface SamplingRequest {
  system?: string;
  /** The server's messages, text only (other parts are described). */
  messages: { role: 'user' | 'assistant'; text: string }[];
  maxTokens: number;
  temperature?: number;
  /** The conversation's goal, for metrics and traces. */
  goalId: string;
}

export interface Sampled {
  text: string;
  /** As LLM_MODEL names it. */
  model: string;
  usage: Usage;
  stopReason: 'endTurn' | 'maxTokens';
}

export type Sampler = (request: SamplingRequest, signal: AbortSignal) => Promise<Sampled>;

export function createSampler(deps: {
  model: LanguageModel;
  modelName: string;
  prices?: PriceTable;
  timeoutMs?: number;
}): Sampler {
  return async (request, signal) => {
    const call = { model: deps.modelName, goal: request.goalId, task: 'sample' };
    // A timer of our own, not AbortSignal.timeout: AbortSignal.any holds its sources weakly (see llm-activities.ts).
    const timeout = new AbortController();
    const timer = setTimeout(
      () => timeout.abort(new Error('the model did not answer in time')),
      deps.timeoutMs ?? 60_000,
    );
    return observeLlmCall(call, async (): Promise<Sampled> => {
      const result = await generateText({
        model: deps.model,
        system: request.system,
        messages: request.messages.map((m): ModelMessage => ({ role: m.role, content: m.text })),
        maxOutputTokens: request.maxTokens,
        temperature: request.temperature,
        maxRetries: 0, // the server decides whether to ask again
        abortSignal: AbortSignal.any([signal, timeout.signal]),
        providerOptions: {
          scripted: { task: 'sample', goalId: request.goalId } satisfies ScriptedCallInfo as never,
        },
      });
      const raw = usageOf(result.usage);
      const usage = deps.prices ? deps.prices.priced(deps.modelName, raw) : raw;
      recordLlmUsage(call, usage);
      return {
        text: result.text,
        model: deps.modelName,
        usage,
        stopReason: result.finishReason === 'length' ? 'maxTokens' : 'endTurn',
      };
    }).finally(() => clearTimeout(timer));
  };
}

// The scripted model, remembering every prompt the AI SDK handed it: what the model received, after the worker's
// conversion of the conversation (tool results included), for tests to read.
import { setTimeout as sleep } from 'node:timers/promises';
import type { LanguageModelV3CallOptions, LanguageModelV3Prompt } from '@ai-sdk/provider';
import { ScriptedModel, type ScriptInput } from '../activities/llm/scripted-model';
import type { ResolvedModel } from '../activities/llm/model';

type ToolResultPart = Extract<
  Extract<LanguageModelV3Prompt[number], { role: 'tool' }>['content'][number],
  { type: 'tool-result' }
>;

export class RecordingModel extends ScriptedModel {
  readonly prompts: LanguageModelV3Prompt[] = [];
  /** When each call arrived (ms since the epoch). */
  readonly calledAt: number[] = [];
  /** A slow model: each call answers this long after it arrives. */
  latencyMs = 0;

  override async doGenerate(options: LanguageModelV3CallOptions) {
    await this.arrive(options);
    return super.doGenerate(options);
  }

  override async doStream(options: LanguageModelV3CallOptions) {
    await this.arrive(options);
    return super.doStream(options);
  }

  private async arrive(options: LanguageModelV3CallOptions): Promise<void> {
    this.prompts.push(options.prompt);
    this.calledAt.push(Date.now());
    if (this.latencyMs) await sleep(this.latencyMs, undefined, { signal: options.abortSignal });
  }

  /** Every tool result the model was shown for `tool`, one per call. */
  toolResults(tool: string): ToolResultPart[] {
    const byCall = new Map<string, ToolResultPart>();
    for (const prompt of this.prompts)
      for (const m of prompt)
        if (m.role === 'tool')
          for (const part of m.content)
            if (part.type === 'tool-result' && part.toolName === tool) byCall.set(part.toolCallId, part);
    return [...byCall.values()];
  }
}

export function recording(script: ScriptInput): ResolvedModel & { model: RecordingModel } {
  return { model: new RecordingModel(script), provider: 'scripted', modelId: 'recording', description: 'recording' };
}

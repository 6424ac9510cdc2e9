// A planning request laid out for the providers' prompt caches. Every provider caches a request's longest prefix seen
// before: the tools and the stable system prompt come first and do not change between turns (the summary, the one
// part that does, goes after them in a system message of its own), then the conversation, which only grows.
// Anthropic caches only up to the breakpoints a request marks (at most 4): the last tool, the stable system prompt
// and the last message, so each step reads the conversation so far from the cache and writes only what is new.
// OpenAI and Gemini cache prefixes by themselves; OpenAI is also given a cache key per agent (llm-activities.ts).
import type { ModelMessage, SystemModelMessage, ToolSet } from 'ai';
import { splitPlanSystemPrompt } from './prompts';

const BREAKPOINT = { anthropic: { cacheControl: { type: 'ephemeral' } } } as const;

export function cacheFriendly(request: { system: string; messages: ModelMessage[]; tools: ToolSet }): {
  system: SystemModelMessage[];
  messages: ModelMessage[];
  tools: ToolSet;
} {
  const { stable, summary } = splitPlanSystemPrompt(request.system);
  const names = Object.keys(request.tools);
  const lastTool = names[names.length - 1];
  const last = request.messages.length - 1;
  return {
    system: [
      { role: 'system', content: stable, providerOptions: BREAKPOINT },
      ...(summary ? [{ role: 'system' as const, content: summary }] : []),
    ],
    messages: request.messages.map((m, i) =>
      i === last ? ({ ...m, providerOptions: { ...m.providerOptions, ...BREAKPOINT } } as ModelMessage) : m,
    ),
    tools: lastTool
      ? { ...request.tools, [lastTool]: { ...request.tools[lastTool]!, providerOptions: BREAKPOINT } }
      : request.tools,
  };
}

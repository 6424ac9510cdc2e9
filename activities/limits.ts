// Caps on what activities hand back, so no single reply or tool result can exceed Temporal's payload limit
// (2 MiB, counted on the next activity's input too) and wedge a conversation. What is cut says so, visibly.
import type { ToolOutcome } from '../core/types';
import { capContent } from '../core/tool-content';

export interface Limits {
  /** MAX_REPLY_CHARS: the longest reply text kept from the model. */
  maxReplyChars: number;
  /** MAX_TOOL_RESULT_CHARS: the longest tool result kept, as JSON. */
  maxToolResultChars: number;
}

export const DEFAULT_LIMITS: Limits = { maxReplyChars: 20_000, maxToolResultChars: 50_000 };

/** `text` within `max` characters; a longer one keeps its start and says what was cut, naming the setting. */
export function capText(text: string, max: number, what = 'the reply', setting = 'MAX_REPLY_CHARS'): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n[… cut: ${what} was ${text.length.toLocaleString('en-US')} characters; the first ${max.toLocaleString('en-US')} are kept (${setting}).]`;
}

/** A tool outcome within `max` characters of JSON: a larger result becomes a preview the LLM is told is partial. */
export function capOutcome(outcome: ToolOutcome, max: number): ToolOutcome {
  if (outcome.status === 'tool_error')
    return { ...outcome, error: capText(outcome.error, max, 'the error', 'MAX_TOOL_RESULT_CHARS') };
  if (outcome.status !== 'ok') return outcome;
  // Content parts (an MCP tool's images, resources) keep their text within the same cap; media is capped at the source.
  const content = outcome.content ? { content: capContent(outcome.content, max) } : {};
  const json = JSON.stringify(outcome.result) ?? '';
  if (json.length <= max) return { ...outcome, ...content };
  return {
    ...content,
    status: 'ok',
    result: {
      truncated: true,
      note: `The result was ${json.length.toLocaleString('en-US')} characters of JSON; only the first ${max.toLocaleString('en-US')} are shown (MAX_TOOL_RESULT_CHARS). Ask for less (a filter, a page) if you need the rest.`,
      preview: json.slice(0, max),
    },
  };
}

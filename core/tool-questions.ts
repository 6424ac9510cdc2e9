// A tool asks the user something while its call runs: an MCP server's elicitation (a form, or a URL to visit), or its
// request to use our model (sampling), which the user approves first when the endpoint's policy says so. The
// question is recorded in the conversation (an update from the call's activity), shown like an approval, and its
// answer goes back to the server; nobody answering within TOOL_QUESTION_TIMEOUT declines it.

import { checkArgs, type ArgsCheck } from './check-args';
import type { JsonSchema } from './types';

export type ToolQuestionKind = 'form' | 'url' | 'sampling';

export interface ToolQuestion {
  /** Stable across the call's attempts (`<activity id>/<n>/<hash of what is asked>`): a retried call that asks the
   * same again gets the answer already given, or waits for the same question, never a second one. */
  id: string;
  /** The tool as the model knows it (`<server>__<tool>`), and its server. */
  tool: string;
  server: string;
  kind: ToolQuestionKind;
  message: string;
  /** form: the requested schema, an object of primitive fields (strings, numbers, booleans, enums). */
  schema?: QuestionSchema;
  /** url: where the server sends the user; the answer only says whether they went. */
  url?: string;
  /** sampling: what the server wants our model to answer, for the user to approve. */
  sampling?: { prompt: string; systemPrompt?: string; maxTokens: number };
  /** The tool call asking, set by the conversation. */
  callId?: string;
  /** Set when a delegate's tool asks: the user answers it here, and the answer goes down to that agent. */
  delegate?: { agentName: string; childId: string };
}

export interface QuestionSchema {
  type: 'object';
  properties: Record<string, QuestionField>;
  required?: string[];
}

export interface QuestionField {
  type: 'string' | 'number' | 'integer' | 'boolean' | 'array';
  title?: string;
  description?: string;
  default?: unknown;
  enum?: string[];
  /** Labels for `enum` (the legacy form) or titled options (`oneOf` of `{ const, title }`). */
  enumNames?: string[];
  oneOf?: { const: string; title?: string }[];
  items?: { type?: string; enum?: string[]; anyOf?: { const: string; title?: string }[] };
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
}

/** The user's answer, as MCP's elicitation result has it: `accept` (with the form's content), `decline`, `cancel`. */
export type QuestionAnswer =
  | { action: 'accept'; content?: Record<string, string | number | boolean | string[]> }
  | { action: 'decline' | 'cancel' };

/** What a client sends: the answer to the open question (`questionId` guards against answering a newer one). */
export interface AnsweredQuestion {
  questionId?: string;
  answer: QuestionAnswer;
}

/** A running tool's progress or log message (MCP `notifications/progress`, `notifications/message`): shown live (the
 * stream bus, the API's `tool_progress` event), never kept in history. */
export interface ToolProgress {
  /** The tool call activity's attempt (`${runId}/${activityId}/${attempt}`). */
  attempt: string;
  /** The tool as the model knows it (`<server>__<tool>`). */
  tool: string;
  progress?: number;
  total?: number;
  message?: string;
  /** For log messages: the server's level (`info`, `warning`, …). */
  level?: string;
}

/** The values a form field takes, each with its label: `enum` (with `enumNames`), `oneOf`, or its items' for an array. */
export function fieldChoices(field: QuestionField): { value: string; title?: string }[] {
  if (field.oneOf?.length) return field.oneOf.map((o) => ({ value: o.const, title: o.title }));
  if (field.enum?.length) return field.enum.map((value, i) => ({ value, title: field.enumNames?.[i] }));
  if (field.items?.anyOf?.length) return field.items.anyOf.map((o) => ({ value: o.const, title: o.title }));
  if (field.items?.enum?.length) return field.items.enum.map((value) => ({ value }));
  return [];
}

type FormContent = Record<string, unknown>;

/** Everything wrong with a form's content: types, choices and required fields (checkArgs), then the bounds. The
 * workflow refuses an answer for any of them; the web chat and the CLI check the same before sending. */
export function formProblems(schema: QuestionSchema, content: FormContent): ArgsCheck {
  const checked = checkArgs(schema as unknown as JsonSchema, content);
  return { problems: [...checked.problems, ...boundsProblems(schema, content)], missing: checked.missing };
}

/** What a form's schema bounds beyond types and choices: how many picks, a string's length, a number's range. */
function boundsProblems(schema: QuestionSchema, content: FormContent): string[] {
  const found: string[] = [];
  for (const [name, field] of Object.entries(schema.properties ?? {})) {
    const v = content[name];
    const label = field.title ?? name;
    if (Array.isArray(v)) {
      if (field.minItems !== undefined && v.length < field.minItems)
        found.push(`${label}: pick at least ${field.minItems}.`);
      if (field.maxItems !== undefined && v.length > field.maxItems)
        found.push(`${label}: pick at most ${field.maxItems}.`);
    } else if (typeof v === 'number') {
      if (field.minimum !== undefined && v < field.minimum) found.push(`${label}: at least ${field.minimum}.`);
      if (field.maximum !== undefined && v > field.maximum) found.push(`${label}: at most ${field.maximum}.`);
    } else if (typeof v === 'string') {
      if (field.minLength !== undefined && v.length < field.minLength)
        found.push(`${label}: at least ${field.minLength} characters.`);
      if (field.maxLength !== undefined && v.length > field.maxLength)
        found.push(`${label}: at most ${field.maxLength} characters.`);
    }
  }
  return found;
}

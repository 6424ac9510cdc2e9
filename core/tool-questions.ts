// A tool asks the user something while its call runs: an MCP server's elicitation (a form, or a URL to visit), or its
// request to use our model (sampling), which the user approves first when the endpoint's policy says so. The
// question is recorded in the conversation (an update from the call's activity), shown like an approval, and its
// answer goes back to the server; nobody answering within TOOL_QUESTION_TIMEOUT declines it.

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

// An MCP endpoint's resources and prompts as clients see them, and the two ways they enter a conversation: a
// resource attached to the user's message (its content joins the message's text) and a server prompt that opens a
// conversation (its messages become the conversation's first, the last user message its first prompt). Pure: the
// worker reads, clients compose, the workflow only ever sees messages.
import type { CarriedState } from './conversation-types';
import type { ChatMessage, ToolContent } from './types';
import { MAX_PROMPT_CHARS } from './messages';
import { describePart } from './tool-content';
import { ZERO_USAGE } from './usage';
import { ATTACHMENT_MARK } from './attachment';

export interface ResourceSummary {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
}

export interface ResourceTemplateSummary {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

export interface PromptSummary {
  name: string;
  title?: string;
  description?: string;
  arguments: { name: string; description?: string; required?: boolean }[];
}

/** What an endpoint offers beside tools; a list the server does not offer (no capability) is empty. */
export interface EndpointFeatures {
  endpoint: string;
  resources: ResourceSummary[];
  templates: ResourceTemplateSummary[];
  prompts: PromptSummary[];
  /** The capabilities the server did not declare: `resources`, `prompts`. */
  unsupported: ('resources' | 'prompts')[];
}

/** Which resource: an endpoint of the registry and a URI it serves. */
export interface ResourceRef {
  endpoint: string;
  uri: string;
  /** Whose session reads it: an OAuth endpoint's tokens are per owner (absent: the worker's own). */
  owner?: string;
}

/** A resource as read in the worker: each of its contents as an embedded-resource part. */
export interface ResourceRead extends ResourceRef {
  contents: Extract<ToolContent, { type: 'resource' }>[];
}

/** Which prompt, and its arguments (MCP prompt arguments are strings). */
export interface PromptRef {
  endpoint: string;
  name: string;
  args?: Record<string, string>;
  /** Whose session gets it (see ResourceRef.owner). */
  owner?: string;
}

/** A prompt's messages, in words, consecutive ones of a role joined. */
export interface PromptOpening extends PromptRef {
  description?: string;
  messages: { role: 'user' | 'assistant'; text: string }[];
}

/**
 * The user's words with the resource after them, marked so readers can tell them apart; within the prompt limit
 * (what does not fit is cut, and says so).
 */
export function withAttachment(text: string, read: ResourceRead): string {
  const body = read.contents.map(describePart).join('\n') || '(the resource is empty)';
  const head = `${text}\n\n${ATTACHMENT_MARK}${read.uri} from ${read.endpoint}]\n`;
  const room = MAX_PROMPT_CHARS - head.length - 200;
  if (room <= 0)
    throw new Error(`The message is too long to attach a resource to (at most ${MAX_PROMPT_CHARS} characters).`);
  if (body.length <= room) return head + body;
  return `${head}${body.slice(0, room)}\n[… cut: the resource was ${body.length.toLocaleString('en-US')} characters; the first ${room.toLocaleString('en-US')} are attached.]`;
}

/**
 * What a conversation starts with when a prompt opens it: the prompt's messages as its first, and its last user
 * message as the prompt the agent answers first (none when the prompt ends with the assistant's words: the
 * conversation then waits for the user). The goal's starter prompt is not used.
 */
export function openingState(opening: PromptOpening): CarriedState {
  // Said first, so every view knows where the opening came from (and none takes its first message for a starter).
  const messages: ChatMessage[] = [
    { kind: 'note', text: `Opened with the prompt "${opening.name}" of the MCP server "${opening.endpoint}".` },
  ];
  let promptSeq = 0;
  for (const m of opening.messages) {
    if (m.role === 'user')
      messages.push({ kind: 'user', text: m.text.slice(0, MAX_PROMPT_CHARS), promptId: ++promptSeq });
    else messages.push({ kind: 'agent', text: m.text, toolCalls: [] });
  }
  const last = messages.at(-1);
  const pending = last?.kind === 'user' ? [{ id: last.promptId, text: last.text }] : [];
  if (pending.length) messages.pop();
  return { summary: '', messages, pendingPrompts: pending, usage: ZERO_USAGE, promptSeq, runs: 0, firstSeq: 0 };
}

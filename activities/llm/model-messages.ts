// Structured conversation → the AI SDK's provider-neutral messages (native tool calling).
import type { LanguageModel, ModelMessage } from 'ai';
import type { ChatMessage } from '../../core/types';
import { describeBlob, type BlobRef } from '../../core/blobs';
import { READ_FILE } from '../../core/read-file';
import { toolResultOutput } from './tool-result-output';

/** Notes (goal switches, system events) travel as user text with this prefix; providers reject mid-chat system turns. */
export const NOTE_PREFIX = '[note] ';

/**
 * Providers want an assistant's tool calls followed at once by their results. Words said while calls were still
 * running (a delegate's question relayed to the user, and the user's answer) belong to those calls: once their
 * results are in (a delegate's envelope says what came of it), the model sees the results alone.
 */
export function toModelMessages(
  messages: ChatMessage[],
  { media = false, images }: ModelMessageOptions = {},
): ModelMessage[] {
  return inCallOrder(messages.filter((m) => !(m.kind === 'note' && m.forUser))).map((m) =>
    toModelMessage(m, media, images),
  );
}

export interface ModelMessageOptions {
  /** The provider takes images in tool results (takesMediaInToolResults); without, media is described in words. */
  media?: boolean;
  /** Attached images' bytes by file id, for a model that takes images (MODEL_IMAGES): sent as image parts. */
  images?: Map<string, Uint8Array>;
}

/**
 * Whether a model's provider sends images in a tool result on the wire. Checked in the providers' code (AI SDK v6):
 * OpenAI's Responses API (`input_image`), Anthropic (`image` blocks) and Google (inline data) do; Chat Completions
 * (`@ai-sdk/openai`'s chat models and `@ai-sdk/openai-compatible`) turn a tool result's content into one JSON
 * string, base64 and all, so those get text with the image described instead.
 */
export function takesMediaInToolResults(model: LanguageModel): boolean {
  const provider = typeof model === 'string' ? model : model.provider;
  return /^(openai\.responses|anthropic|google)/.test(provider);
}

function inCallOrder(messages: ChatMessage[]): ChatMessage[] {
  const ordered: ChatMessage[] = [];
  const waiting = new Set<string>();
  let held: ChatMessage[] = [];
  for (const m of messages) {
    if (m.kind === 'tool') {
      waiting.delete(m.call.id);
      ordered.push(m);
      if (waiting.size === 0) held = [];
    } else if (waiting.size > 0) {
      held.push(m);
    } else {
      ordered.push(m);
      if (m.kind === 'agent') for (const c of m.toolCalls) waiting.add(c.id);
    }
  }
  return [...ordered, ...held];
}

function toModelMessage(m: ChatMessage, media: boolean, images?: Map<string, Uint8Array>): ModelMessage {
  switch (m.kind) {
    case 'user': {
      if (!m.attachments?.length) return { role: 'user', content: m.text };
      const text = withAttachments(m.text, m.attachments);
      // Images the model takes travel as image parts after the words; every file is also listed in the words.
      const shown = m.attachments.flatMap((f) => {
        const bytes = images?.get(f.id);
        return bytes ? [{ type: 'image' as const, image: bytes, mediaType: f.type }] : [];
      });
      return { role: 'user', content: shown.length ? [{ type: 'text', text }, ...shown] : text };
    }
    case 'note':
      return { role: 'user', content: NOTE_PREFIX + m.text };
    case 'agent':
      return {
        role: 'assistant',
        content: [
          ...(m.text ? [{ type: 'text' as const, text: m.text }] : []),
          ...m.toolCalls.map((c) => ({
            type: 'tool-call' as const,
            toolCallId: c.id,
            toolName: c.tool,
            input: c.args,
          })),
        ],
      };
    case 'tool':
      return {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: m.call.id,
            toolName: m.call.tool,
            output: toolResultOutput(m.outcome, media),
          },
        ],
      };
  }
}

/**
 * The user's words and, after them, each attached file in a line with its id and preview: the model reads the rest with
 * ReadFile (a file's bytes never travel in a model request whole).
 */
export function withAttachments(text: string, files: BlobRef[]): string {
  const listed = files.map(
    (f) => `- ${describeBlob(f)}, id ${f.id}${f.preview ? `; it begins:\n${indent(f.preview)}` : ''}`,
  );
  return `${text}\n\n[Attached files — read them with ${READ_FILE}:]\n${listed.join('\n')}`;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n');
}

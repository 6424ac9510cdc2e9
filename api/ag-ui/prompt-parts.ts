// An AG-UI user message as a prompt: its text (or its text parts) as the words; its media parts given inline (a
// `data` source) stored whole in the blob store, held by the conversation for its owner, and attached, as the web
// chat's uploads and A2A's file parts are; a part given by URL or provider file id is named, not fetched (the API
// does not reach out to addresses clients give). The message id is the prompt's ref: sent twice, one turn.
import type { ContentPart, UserMessage } from '@ag-ui/core';
import type { AgentClient } from '../../client/agent-client';
import type { BlobRef } from '../../core/blobs';
import { MAX_ATTACHMENTS, MAX_PROMPT_CHARS, type PromptInput } from '../../core/messages';
import { UserError } from '../../core/user-error';

export async function promptOf(
  agents: AgentClient,
  message: UserMessage,
  at: { conversationId: string; owner: string },
): Promise<Exclude<PromptInput, string> & { ref: string }> {
  const parts: ContentPart[] =
    typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
  const words: string[] = [];
  const files: { bytes: Uint8Array; name: string }[] = [];
  for (const part of parts) {
    if (part.type === 'text') words.push(part.text);
    else if (part.source.type === 'data')
      files.push({ bytes: Buffer.from(part.source.value, 'base64'), name: nameOf(part) });
    else words.push(`(${part.type} ${nameOf(part)} at ${part.source.value})`);
  }
  if (files.length > MAX_ATTACHMENTS)
    throw new UserError(`Message ${message.id} has ${files.length} files; the limit is ${MAX_ATTACHMENTS}.`);
  const attachments: BlobRef[] = [];
  for (const f of files)
    attachments.push(
      await agents.files.put(f.bytes, { name: f.name, owner: at.owner, conversationId: at.conversationId }),
    );
  const text = words.join('\n').trim() || (attachments.length ? 'See the attached files.' : '');
  if (!text) throw new UserError(`Message ${message.id} has no text and no files.`);
  if (text.length > MAX_PROMPT_CHARS)
    throw new UserError(`Message ${message.id} has ${text.length} characters; the limit is ${MAX_PROMPT_CHARS}.`);
  return { text, ...(attachments.length ? { attachments } : {}), ref: message.id };
}

/** A media part's name: its metadata's `filename` or `name` when the client gave one, else its kind. */
function nameOf(part: Exclude<ContentPart, { type: 'text' }>): string {
  const meta = part.metadata as { filename?: unknown; name?: unknown } | undefined;
  const given = typeof meta?.filename === 'string' ? meta.filename : typeof meta?.name === 'string' ? meta.name : '';
  return given || part.type;
}

// What a client's A2A message says, as a prompt: its text parts as the words, its data parts after them as JSON, its
// file parts stored whole in the blob store (held by the conversation, owned by its owner) and attached, as the web
// chat's uploads are. A file given by URL is named, not fetched: the API does not reach out to addresses clients give.
import type { AgentClient } from '../../client/agent-client';
import type { BlobRef } from '../../core/blobs';
import { MAX_ATTACHMENTS, type PromptInput } from '../../core/messages';
import { a2aErrors, type Message } from '../../endpoints/a2a/sdk';

export async function promptOf(
  agents: AgentClient,
  message: Message,
  at: { conversationId: string; owner: string },
): Promise<Exclude<PromptInput, string>> {
  const words: string[] = [];
  const files: { bytes: Uint8Array; name: string }[] = [];
  for (const part of message.parts) {
    const content = part.content;
    if (content?.$case === 'text') words.push(content.value);
    else if (content?.$case === 'data') words.push(`data: ${JSON.stringify(content.value)}`);
    else if (content?.$case === 'url') words.push(`(file ${part.filename || 'unnamed'} at ${content.value})`);
    else if (content?.$case === 'raw')
      files.push({ bytes: new Uint8Array(content.value), name: part.filename || 'file' });
  }
  if (files.length > MAX_ATTACHMENTS)
    throw new a2aErrors.RequestMalformedError(
      `The message has ${files.length} files; the limit is ${MAX_ATTACHMENTS}.`,
    );
  const attachments: BlobRef[] = [];
  if (files.length) {
    const store = agents.files;
    for (const f of files)
      attachments.push(await store.put(f.bytes, { name: f.name, owner: at.owner, conversationId: at.conversationId }));
  }
  const text = words.join('\n').trim() || (attachments.length ? 'See the attached files.' : '');
  if (!text) throw new a2aErrors.RequestMalformedError('The message has no text, data or file parts.');
  return { text, ...(attachments.length ? { attachments } : {}) };
}

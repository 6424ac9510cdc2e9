// A file attached to a conversation: read from disk (or given as bytes), stored for the conversation and its owner,
// its reference returned to send with a prompt. Refusals (over a limit, a file the readers will not read) are
// UserErrors in the store's words.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { LimitedBlobStore } from '../blobs';
import type { BlobRef } from '../core/blobs';
import { FileRefusal } from '../readers/reader';
import { UserError } from '../core/user-error';

export async function storeAttachment(
  store: LimitedBlobStore,
  holder: { conversationId: string; owner: string },
  file: string | Uint8Array,
  name?: string,
): Promise<BlobRef> {
  let bytes: Uint8Array;
  if (typeof file === 'string') {
    try {
      bytes = await readFile(file);
    } catch (err) {
      throw new UserError(`Cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  } else bytes = file;
  const fileName = name ?? (typeof file === 'string' ? path.basename(file) : 'file');
  try {
    return await store.put(bytes, { name: fileName, owner: holder.owner, conversationId: holder.conversationId });
  } catch (err) {
    if (err instanceof FileRefusal) throw new UserError(err.message);
    throw err;
  }
}

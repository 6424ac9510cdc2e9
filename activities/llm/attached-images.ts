// Attached images for a model that takes them (MODEL_IMAGES): their bytes, read from the blob store for the request
// that carries them. Only the newest few go (MAX_IMAGES, at most MAX_IMAGE_BYTES each); older or bigger ones are
// described in words, as for a model that takes none.
import type { ChatMessage } from '../../core/types';
import type { BlobStore } from '../../blobs/blob-store';

const MAX_IMAGES = 4;
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

export class AttachedImages {
  constructor(private readonly store: BlobStore) {}

  /** The bytes of the newest images attached in `messages`, by file id. */
  async of(messages: ChatMessage[]): Promise<Map<string, Uint8Array>> {
    const wanted = messages
      .flatMap((m) => (m.kind === 'user' ? (m.attachments ?? []) : []))
      .filter((f) => IMAGE_TYPES.has(f.type) && f.size <= MAX_IMAGE_BYTES)
      .slice(-MAX_IMAGES);
    const images = new Map<string, Uint8Array>();
    for (const f of wanted) {
      // A file pruned meanwhile is described, not sent.
      if (await this.store.stat(f.id)) images.set(f.id, await this.store.get(f.id));
    }
    return images;
  }
}

// Where conversation data too big for history is kept: content-addressed (the sha256 of the bytes), with who may read
// it and which conversations use it, so it is pruned with them. The filesystem under DATA_DIR by default
// (blobs/fs-store.ts); any S3-compatible bucket for several workers on several machines (blobs/s3-store.ts).
import type { BlobRef } from '../core/blobs';

export interface StoredBlob {
  ref: BlobRef;
  /** The owners whose conversations hold it (API keys' owners; `local` without keys). */
  owners: string[];
}

export interface BlobStore {
  /**
   * Keeps `bytes` (once per content), detecting its type from the content and describing it with its reader; records
   * that `owner` and `conversationId` hold it. Idempotent: the same bytes again give the same ref. Refuses (FileRefusal)
   * what is over the limits, not a type we read, or malformed.
   */
  put(bytes: Uint8Array, meta: { name: string; owner: string; conversationId?: string }): Promise<BlobRef>;
  /** The ref and owners of a stored blob; null when unknown. */
  stat(id: string): Promise<StoredBlob | null>;
  /** The bytes (or a byte range of them). */
  get(id: string, range?: { offset: number; length: number }): Promise<Uint8Array>;
  /** Records that a conversation holds a blob (an attachment or a tool result it keeps). */
  hold(id: string, conversationId: string, owner: string): Promise<void>;
  /** Forgets a conversation's holds, and deletes the blobs nothing holds any more; how many were deleted. */
  release(conversationId: string): Promise<number>;
}

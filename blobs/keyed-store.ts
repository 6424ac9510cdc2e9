// The blob store's protocol over any ObjectSpace (a folder, a bucket), safe for several processes at once without
// locks: content at `sha256/<2 hex>/<id>` with its ref beside it (`<id>.json`), and every hold its own small object —
// `conversations/<conversation>/<id>-<size>` and `holds/<id>/c.<conversation>` for a conversation, `holds/<id>/o.<owner>`
// for an owner — so no writer ever reads, changes and rewrites an object another may be writing.
//
// A put writes its holds before it looks for the content; a release moves the content aside before its last look for
// holds. So either the release sees the new hold (and puts the content back) or the put finds the content gone (and
// writes it again): a held blob is never left without its bytes. It may be away for a moment, between a release
// moving it aside and putting it back: reads of a held blob look again then (settle).
import { createHash, randomBytes } from 'node:crypto';
import type { BlobFacts, BlobRef } from '../core/blobs';
import { FileRefusal } from '../readers/reader';
import type { BlobStore, StoredBlob } from './blob-store';
import { checkConversationRoom, checkFileSize, type BlobLimits } from './blob-limits';
import type { ObjectSpace } from './object-space';

/** What a reader says of the bytes (readers/index.ts's describeFile): the type found in the content, and more. */
export type DescribeFile = (
  bytes: Uint8Array,
  name: string,
) => Promise<{ type: string; preview: string; facts: BlobFacts }>;

const ID = /^[0-9a-f]{64}$/;
/** Rounds of put back and look again before a release leaves a blob to the next one (holds came and went each time). */
const MAX_DELETE_ROUNDS = 10;

export class KeyedBlobStore implements BlobStore {
  constructor(
    private readonly space: ObjectSpace,
    private readonly describe: DescribeFile,
    readonly limits: BlobLimits,
  ) {}

  async put(bytes: Uint8Array, meta: { name: string; owner: string; conversationId?: string }): Promise<BlobRef> {
    checkFileSize(this.limits, meta.name, bytes.length);
    const id = createHash('sha256').update(bytes).digest('hex');
    if (meta.conversationId) await this.checkRoom(meta.conversationId, id, meta.name, bytes.length);
    // Described before anything is written, so a refused file leaves nothing behind.
    let ref = await this.readRef(id);
    const fresh = ref ? undefined : await this.refOf(id, bytes, meta.name);
    await this.writeHolds(id, bytes.length, meta.owner, meta.conversationId);
    if (!ref || !(await this.space.exists(contentKey(id)))) {
      ref = fresh ?? (await this.refOf(id, bytes, meta.name));
      await this.space.write(contentKey(id), bytes);
      await this.space.write(refKey(id), json(ref));
    }
    return { ...ref, name: meta.name };
  }

  async stat(id: string): Promise<StoredBlob | null> {
    if (!ID.test(id)) return null;
    const ref = await this.settle(id, () => this.readRef(id));
    if (!ref) return null;
    const owners = new Set<string>();
    for (const name of await this.space.list(holdsFolder(id))) {
      const bytes = await this.space.read(`${holdsFolder(id)}/${name}`);
      const owner = bytes ? parse<{ owner?: string }>(bytes)?.owner : undefined;
      if (owner) owners.add(owner);
    }
    return { ref, owners: [...owners].sort() };
  }

  async get(id: string, range?: { offset: number; length: number }): Promise<Uint8Array> {
    if (range && !(range.offset >= 0 && range.length >= 0))
      throw new FileRefusal(`A range starts at 0 or later and is 0 bytes long or more.`);
    const bytes = ID.test(id) ? await this.settle(id, () => this.space.read(contentKey(id), range)) : null;
    if (!bytes) throw new FileRefusal(unknownFile(id));
    return bytes;
  }

  async hold(id: string, conversationId: string, owner: string): Promise<void> {
    const ref = ID.test(id) ? await this.settle(id, () => this.readRef(id)) : null;
    if (!ref) throw new FileRefusal(unknownFile(id));
    await this.checkRoom(conversationId, id, ref.name, ref.size);
    await this.writeHolds(id, ref.size, owner, conversationId);
    // A release of the last other conversation may have deleted it between the look above and the holds.
    const there = await this.settle(id, async () => ((await this.space.exists(contentKey(id))) ? true : null));
    if (!there) {
      await this.dropHold(id, ref.size, conversationId);
      throw new FileRefusal(unknownFile(id));
    }
  }

  async release(conversationId: string): Promise<number> {
    const folder = conversationFolder(conversationId);
    let deleted = 0;
    for (const name of await this.space.list(folder)) {
      const [id, size] = name.split('-');
      if (!id || !ID.test(id)) continue;
      await this.dropHold(id, Number(size), conversationId);
      deleted += await this.deleteIfUnheld(id);
    }
    await this.space.removeFolder(folder);
    return deleted;
  }

  /** Refuses a blob that would take the conversation over its limit (one it holds already costs nothing more). */
  private async checkRoom(conversationId: string, id: string, name: string, size: number): Promise<void> {
    let held = 0;
    for (const entry of await this.space.list(conversationFolder(conversationId))) {
      const [heldId, heldSize] = entry.split('-');
      if (heldId === id) return;
      held += Number(heldSize) || 0;
    }
    checkConversationRoom(this.limits, name, size, held);
  }

  private async writeHolds(id: string, size: number, owner: string, conversationId?: string): Promise<void> {
    await this.space.write(`${holdsFolder(id)}/o.${keyPart(owner)}`, json({ owner }));
    if (!conversationId) return;
    await this.space.write(`${holdsFolder(id)}/c.${keyPart(conversationId)}`, json({ owner, conversationId }));
    await this.space.write(`${conversationFolder(conversationId)}/${id}-${size}`, json({ owner }));
  }

  private async dropHold(id: string, size: number, conversationId: string): Promise<void> {
    await this.space.remove(`${holdsFolder(id)}/c.${keyPart(conversationId)}`);
    await this.space.remove(`${conversationFolder(conversationId)}/${id}-${size}`);
  }

  /**
   * Deletes a blob no conversation holds: moved aside, looked at once more, then deleted or put back. 1 if deleted.
   * Putting back looks again: the hold that came meanwhile may have been released already, by a release that found the
   * blob away and deleted nothing, and a blob nobody holds must not stay behind (three processes taking up and
   * releasing the same contents at once left such a ref, about one run in six).
   */
  private async deleteIfUnheld(id: string): Promise<number> {
    for (let round = 0; round < MAX_DELETE_ROUNDS; round++) {
      if (await this.heldByAConversation(id)) return 0;
      const aside = `trash/${id}.${randomBytes(6).toString('hex')}`;
      const movedContent = await this.space.move(contentKey(id), aside);
      const movedRef = await this.space.move(refKey(id), `${aside}.json`);
      if (await this.heldByAConversation(id)) {
        // A put or hold came meanwhile: it either finds these back or has written them again (the same bytes).
        if (movedContent) await this.space.move(aside, contentKey(id));
        if (movedRef) await this.space.move(`${aside}.json`, refKey(id));
        continue;
      }
      await this.space.remove(aside);
      await this.space.remove(`${aside}.json`);
      for (const name of await this.space.list(holdsFolder(id))) {
        if (name.startsWith('o.')) await this.space.remove(`${holdsFolder(id)}/${name}`);
      }
      await this.space.removeFolder(holdsFolder(id));
      return movedContent ? 1 : 0;
    }
    return 0;
  }

  /**
   * What `read` finds; when it finds nothing while a conversation holds the blob, a release has it aside for a moment
   * (it puts back what is held): looked at again, for up to about two seconds.
   */
  private async settle<T>(id: string, read: () => Promise<T | null>): Promise<T | null> {
    for (let attempt = 0; ; attempt++) {
      const found = await read();
      if (found !== null || attempt >= 20 || !(await this.heldByAConversation(id))) return found;
      await new Promise((resolve) => setTimeout(resolve, 5 + attempt * 5));
    }
  }

  private async heldByAConversation(id: string): Promise<boolean> {
    return (await this.space.list(holdsFolder(id))).some((name) => name.startsWith('c.'));
  }

  private async refOf(id: string, bytes: Uint8Array, name: string): Promise<BlobRef> {
    // A copy: a reader may hand its bytes to a worker thread (transferred, so detached here) and they are written after.
    const { type, preview, facts } = await this.describe(new Uint8Array(bytes), name);
    return { id, size: bytes.length, type, name, preview, ...(facts && Object.keys(facts).length ? { facts } : {}) };
  }

  private async readRef(id: string): Promise<BlobRef | null> {
    const bytes = await this.space.read(refKey(id));
    return bytes ? parse<BlobRef>(bytes) : null;
  }
}

export function unknownFile(id: string): string {
  return `No file ${id}: it was never stored, or was deleted with the conversations that held it.`;
}

const contentKey = (id: string) => `sha256/${id.slice(0, 2)}/${id}`;
const refKey = (id: string) => `${contentKey(id)}.json`;
const holdsFolder = (id: string) => `holds/${id}`;
const conversationFolder = (conversationId: string) => `conversations/${keyPart(conversationId)}`;

/** A conversation id or owner as one safe key segment (never `.`, `..` or a `/`); a long one by its hash. */
function keyPart(s: string): string {
  const encoded = encodeURIComponent(s).replace(/\./g, '%2E').replace(/\*/g, '%2A');
  return encoded.length <= 150 ? encoded : `h-${createHash('sha256').update(s).digest('hex')}`;
}

function json(value: unknown): Uint8Array {
  return Buffer.from(JSON.stringify(value));
}

function parse<T>(bytes: Uint8Array): T | null {
  try {
    return JSON.parse(Buffer.from(bytes).toString('utf8')) as T;
  } catch {
    return null;
  }
}

// What a blob store needs of where it keeps things: whole objects by key, listed by folder, moved. A folder on disk
// (fs-store.ts) and an S3 bucket (s3-store.ts) both give it, so the store's protocol (keyed-store.ts) is written once.

export interface ObjectSpace {
  /** Writes the object whole: a reader sees the old object, the new one or none, never a part. */
  write(key: string, bytes: Uint8Array): Promise<void>;
  /** The object's bytes (a range of them); null when there is none. */
  read(key: string, range?: { offset: number; length: number }): Promise<Uint8Array | null>;
  /** Whether there is an object at `key`. */
  exists(key: string): Promise<boolean>;
  /** The names of the objects directly in `folder` (keys `folder/<name>`). */
  list(folder: string): Promise<string[]>;
  /** Removes the object; none there is fine. */
  remove(key: string): Promise<void>;
  /** Moves an object to another key; false when there was none to move. */
  move(from: string, to: string): Promise<boolean>;
  /** Tidies an emptied folder away where folders exist (a bucket has none). */
  removeFolder(folder: string): Promise<void>;
}

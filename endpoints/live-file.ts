// A small JSON registry file read live (the endpoints, the webhook triggers): read again only when it changed (stat
// first, so an unchanged file costs one stat), keeping the last good contents when an edit breaks it: the error is
// reported, the previous contents keep serving.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** A registry is a short list: a larger file is a mistake, and is not parsed. */
const MAX_REGISTRY_BYTES = 1024 * 1024;

export class LiveFile<T> {
  private lastStamp = '';
  private good: T;
  private error: string | null = null;

  constructor(
    readonly file: string,
    private readonly parse: (text: string) => T,
    empty: T,
    /** What to write to empty it, said when the file is deleted after serving. */
    private readonly emptyHint: string,
  ) {
    this.good = empty;
  }

  current(): { value: T; error: string | null } {
    let stamp: string;
    let size: number;
    try {
      const st = statSync(this.file);
      stamp = `${st.mtimeMs}:${st.size}:${st.ino}`;
      size = st.size;
    } catch {
      // Never there: nothing in it, and not an error (each registry is optional). Deleted after serving: say so.
      if (this.lastStamp) {
        this.error = `${path.basename(this.file)} is missing (deleted or moved?): still serving the last valid registry; write ${this.emptyHint} to remove every entry`;
      }
      return { value: this.good, error: this.error };
    }
    if (stamp !== this.lastStamp) {
      this.lastStamp = stamp;
      try {
        if (size > MAX_REGISTRY_BYTES) throw new Error(`${size} bytes is over the ${MAX_REGISTRY_BYTES}-byte limit`);
        this.good = this.parse(readFileSync(this.file, 'utf8'));
        this.error = null;
      } catch (err) {
        this.error = `${path.basename(this.file)}: ${(err as Error).message} (still serving the last valid registry)`;
      }
    }
    return { value: this.good, error: this.error };
  }
}

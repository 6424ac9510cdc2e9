// ReadFile's activity: a window of a stored file, read from the blob store by the reader of its kind (readers/).
// The bytes stay in the store; only the window read (at most READ_FILE_CHARS) comes back into history.
import type { BuiltinRunActivities } from '../core/builtin-runs';
import type { BlobStore } from '../blobs/blob-store';
import { readWindow, type ReaderLimits } from '../readers';
import { FileRefusal } from '../readers/reader';

export interface FileDeps {
  store: BlobStore;
  /** READ_FILE_CHARS: the most text one read gives back. */
  maxChars: number;
  /** READER_*: what the readers open. */
  readers?: ReaderLimits;
}

export function createFileActivities({ store, maxChars, readers }: FileDeps): Pick<BuiltinRunActivities, 'readFile'> {
  return {
    /** ReadFile: a window of a stored file, as the call's outcome: the text (or rows) read, whether there is more and
     * what next; a window the file's kind cannot serve, or a file no longer stored, is a tool error in words. */
    async readFile({ ref, window }) {
      if (!(await store.stat(ref.id)))
        return { status: 'tool_error', error: `The file ${ref.name} (${ref.id}) is no longer stored.` };
      try {
        const bytes = await store.get(ref.id);
        const read = await readWindow(bytes, ref.type, window, maxChars, readers);
        return { status: 'ok', result: { id: ref.id, ...read } };
      } catch (err) {
        if (err instanceof FileRefusal) return { status: 'tool_error', error: err.message };
        throw err;
      }
    },
  };
}

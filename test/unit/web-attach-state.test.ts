// The web chat's pending files (web/attach-state.ts): what is refused before any byte is sent, the limit read from the
// API's 413, and how uploads, refusals and removals change the list.
import type { BlobRef } from '../../core/blobs';
import { limitFromRefusal, limitWords, reduceFiles, refusalBefore, summary } from '../../web/attach-state';

const MB = 1024 * 1024;
const ref: BlobRef = { id: 'a'.repeat(64), size: 10, type: 'text/plain', name: 'a.txt', preview: 'hello' };

describe('pending files in the web chat', () => {
  it('reads the per-file limit from the words of the API refusal', () => {
    expect(limitFromRefusal('The upload is over the 25 MB a file may be (FILE_MAX_MB).')).toBe(25 * MB);
    expect(limitFromRefusal('report.pdf is 30.2 MB, over the 0.5 MB a file may be (FILE_MAX_MB).')).toBe(0.5 * MB);
    // A conversation's limit is not a file's.
    expect(limitFromRefusal('… over the 200 MB a conversation may hold (CONVERSATION_FILES_MAX_MB).')).toBeNull();
  });

  it('refuses before uploading a file over a known limit, an empty file, and an eleventh file', () => {
    expect(refusalBefore({ name: 'big.bin', size: 1.5 * MB }, 0, MB)).toBe(
      'big.bin is 1.5 MB, over the 1 MB a file may be (FILE_MAX_MB).',
    );
    expect(refusalBefore({ name: 'big.bin', size: 1.5 * MB }, 0, null)).toBeNull();
    expect(refusalBefore({ name: 'e.txt', size: 0 }, 0, null)).toBe('e.txt is empty.');
    expect(refusalBefore({ name: 'k.txt', size: 1 }, 10, null)).toMatch(/at most 10 files/);
    expect(limitWords(25 * MB)).toBe('25 MB');
  });

  it('holds Send while a file uploads, and sends only the files stored', () => {
    let files = reduceFiles([], { type: 'add', key: 1, name: 'a.txt', size: 10 });
    files = reduceFiles(files, { type: 'add', key: 2, name: 'b.txt', size: 0, refused: 'b.txt is empty.' });
    files = reduceFiles(files, { type: 'progress', key: 1, sent: 4 });
    expect(summary(files)).toEqual({ uploading: true, refs: [] });
    expect(files[0]).toMatchObject({ status: 'uploading', sent: 4 });
    files = reduceFiles(files, { type: 'ready', key: 1, ref });
    expect(summary(files)).toEqual({ uploading: false, refs: [ref] });
    // A refusal arriving for a file already removed changes nothing.
    files = reduceFiles(files, { type: 'remove', key: 2 });
    expect(reduceFiles(files, { type: 'refused', key: 2, error: 'late' })).toEqual(files);
    expect(reduceFiles(files, { type: 'clear' })).toEqual([]);
  });
});

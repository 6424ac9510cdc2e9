// A process that releases a conversation's files and is SIGKILLed at the worst moment of it: right after it moved a
// blob nobody holds aside to delete it, before it looked again or deleted anything. For test/unit/blob-store.test.ts.
// Run: node --require tsx/cjs test/helpers/blob-release-killed.ts <dir> <conversationId>
import { FolderSpace, FsBlobStore } from '../../blobs/fs-store';
import { DEFAULT_BLOB_LIMITS } from '../../blobs/blob-limits';
import { describeText } from './blob-contents';

const [dir, conversationId] = process.argv.slice(2);
const move = FolderSpace.prototype.move;
FolderSpace.prototype.move = async function (this: FolderSpace, from: string, to: string) {
  const moved = await move.call(this, from, to);
  if (moved && to.startsWith('trash/')) process.kill(process.pid, 'SIGKILL');
  return moved;
};
void new FsBlobStore(dir!, describeText, DEFAULT_BLOB_LIMITS).release(conversationId!);

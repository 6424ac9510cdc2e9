// Contents the blob store tests share between processes: a few distinct files, the same in every process.
import type { DescribeFile } from '../../blobs/keyed-store';

/** How many distinct contents sharedContent(i) cycles through. */
export const SHARED_CONTENTS = 4;

/** The i-th put's bytes: one of SHARED_CONTENTS texts of ~300 KB, so writes take long enough to overlap. */
export function sharedContent(i: number): Uint8Array {
  const n = i % SHARED_CONTENTS;
  return Buffer.from(`content ${n}\n`.repeat(30_000 + n));
}

/** A stand-in for readers' describeFile until it lands: plain text, its start as the preview. */
export const describeText: DescribeFile = async (bytes) => {
  const text = Buffer.from(bytes).toString('utf8');
  return { type: 'text/plain', preview: text.slice(0, 100), facts: { chars: text.length } };
};

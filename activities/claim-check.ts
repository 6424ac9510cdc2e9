// The claim check: a tool result too big for a workflow's history is kept whole in the blob store, and history gets
// its reference — id, size, type, a preview — with word of how to read more (ReadFile). Nothing is cut off and no
// request explodes. Without a store (or under the threshold) a result keeps the old cap (limits.ts).
import { activityInfo, Context } from '@temporalio/activity';
import { feedQuery } from '../core/messages';
import { LOCAL_OWNER } from '../blobs';
import { describeBlob, type BlobRef } from '../core/blobs';
import { READ_FILE } from '../core/read-file';
import type { ToolOutcome } from '../core/types';
import type { BlobStore } from '../blobs/blob-store';
import { capOutcome } from './limits';

export interface ClaimCheck {
  store: BlobStore;
  /** CLAIM_CHECK_CHARS: results longer than this (as JSON) go to the store. */
  thresholdChars: number;
}

/** Who a result is kept for: the conversation holds it, its owner may read it through the API. */
export interface Keeper {
  check?: ClaimCheck;
  maxChars: number;
  /** The tool, naming the stored result (`<tool> result`). */
  tool: string;
  owner?: string;
}

/** The outcome as history keeps it: as it is, kept whole in the store with a preview, or (no store) capped. */
export async function keepOutcome(outcome: ToolOutcome, keeper: Keeper): Promise<ToolOutcome> {
  const { check } = keeper;
  if (!check || outcome.status !== 'ok' || outcome.stored) return capOutcome(outcome, keeper.maxChars);
  const text = typeof outcome.result === 'string' ? outcome.result : (JSON.stringify(outcome.result) ?? '');
  if (text.length <= check.thresholdChars) return capOutcome(outcome, keeper.maxChars);
  const conversationId = conversationOf();
  const ref = await check.store.put(new TextEncoder().encode(text), {
    name: `${keeper.tool} result`,
    owner: keeper.owner ?? (await ownerOf(conversationId)),
    ...(conversationId ? { conversationId } : {}),
  });
  const { content: _content, structured: _structured, ...rest } = outcome;
  return { ...rest, result: storedResult(ref), stored: ref };
}

/** What the model reads in place of a result kept whole. */
export function storedResult(ref: BlobRef): { file: string; id: string; preview: string; note: string } {
  return {
    file: describeBlob(ref),
    id: ref.id,
    preview: ref.preview,
    note: `The whole result is kept as a file; this is its start. Read the part you need with ${READ_FILE} (by rows, pages, characters, a JSONPath or a filter).`,
  };
}

/**
 * Whose the stored result is (the API shows it to that owner only): the conversation's owner, asked of the
 * conversation itself when the call did not say (a native tool's activity gets its arguments alone); `local` for a
 * conversation started without one, as the API's own uploads.
 */
async function ownerOf(conversationId: string | undefined): Promise<string> {
  if (!conversationId) return LOCAL_OWNER;
  const feed = await Context.current()
    .client.workflow.getHandle(conversationId)
    .query(feedQuery, Number.MAX_SAFE_INTEGER);
  return feed.owner ?? LOCAL_OWNER;
}

/** The conversation the running activity serves: the blob is held for it, and released with it. */
function conversationOf(): string | undefined {
  try {
    return activityInfo().workflowExecution?.workflowId;
  } catch {
    return undefined; // called outside an activity (tests, benchmarks)
  }
}

/**
 * A reply longer than `maxChars`: kept whole in the store, its start in history with the file named (the user opens it
 * whole, the model reads on with ReadFile). Null when it fits.
 */
export async function keepReply(
  store: BlobStore,
  text: string,
  maxChars: number,
): Promise<{ text: string; stored: BlobRef } | null> {
  if (text.length <= maxChars) return null;
  const conversationId = conversationOf();
  const stored = await store.put(new TextEncoder().encode(text), {
    name: 'reply',
    owner: await ownerOf(conversationId),
    ...(conversationId ? { conversationId } : {}),
  });
  const note = `[… the whole reply, ${text.length.toLocaleString('en-US')} characters, is kept as file ${stored.id}: read on with ${READ_FILE}.]`;
  return { text: `${text.slice(0, maxChars)}\n${note}`, stored };
}

// The worker's side of TranscriptRef: LLM activities get only the messages a conversation added since its last
// request, and this cache holds the rest, per run. A miss (another worker ran the earlier calls, or this one
// restarted) reads the messages from the workflow itself through its history query.
import { Context } from '@temporalio/activity';
import { historyQuery } from '../../core/messages';
import type { ChatMessage } from '../../core/types';
import type { TranscriptInput } from '../../core/activity-types';

/** Conversations whose messages are kept; the least recently used go first. */
const KEPT = 500;

export class TranscriptCache {
  private readonly runs = new Map<string, ChatMessage[]>();

  /** The messages an LLM request reads: given in full, or rebuilt from the cache and the request's tail. */
  async messagesOf(input: TranscriptInput): Promise<ChatMessage[]> {
    if (input.messages) return input.messages;
    const { count, tail } = input.transcript;
    const run = Context.current().info.workflowExecution;
    if (!run)
      throw new Error('A transcript reference needs the workflow that sent it; pass `messages` outside a workflow.');
    const { workflowId, runId } = run;
    const key = `${workflowId}/${runId}`;
    const known = this.runs.get(key) ?? [];
    const head =
      known.length >= count - tail.length
        ? known.slice(0, count - tail.length)
        : await this.fetch(workflowId, runId, count - tail.length);
    const messages = [...head, ...tail];
    this.runs.delete(key);
    this.runs.set(key, messages);
    if (this.runs.size > KEPT) this.runs.delete(this.runs.keys().next().value!);
    return messages;
  }

  private async fetch(workflowId: string, runId: string, count: number): Promise<ChatMessage[]> {
    const all = await Context.current().client.workflow.getHandle(workflowId, runId).query(historyQuery);
    return all.slice(0, count);
  }
}

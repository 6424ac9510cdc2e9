// LiveFeeds against a scripted conversation feed and a real in-memory bus: the text being written reaches a view
// whole even when a look at the workflow brings an earlier step's agent message mid-stream.
import type { AgentClient } from '../../client/agent-client';
import { LiveFeeds, type LiveEvent } from '../../api/live-feed';
import { MemoryStreamBus } from '../../stream';
import type { ChatMessage } from '../../core/types';
import type { ConversationFeed } from '../../core/conversation-types';

function feedOf(messages: ChatMessage[], state: ConversationFeed['state'] = 'working'): ConversationFeed {
  return {
    goalId: 'g',
    owner: null,
    state,
    first: 0,
    next: messages.length,
    messages: messages.map((message, seq) => ({ seq, message })),
    pendingApproval: null,
    usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
  };
}

describe('LiveFeeds', () => {
  it('keeps the attempt being written when a look brings an earlier step’s agent message', async () => {
    const messages: ChatMessage[] = [{ kind: 'user', text: 'balance?', promptId: 1 }];
    const agents = {
      async feed(_id: string, since: number) {
        const all = feedOf(messages);
        return { ...all, messages: all.messages.filter((m) => m.seq >= since) };
      },
    } as unknown as AgentClient;
    const bus = new MemoryStreamBus();
    const feeds = new LiveFeeds(agents, bus, { busyMs: 10_000, idleMs: 10_000 });
    const events: LiveEvent[] = [];
    const close = await feeds.open(
      'c1',
      { next: 0, attempt: '', offset: 0 },
      (e) => events.push(e),
      () => undefined,
    );

    bus.publish('c1', { kind: 'delta', attempt: 'r/2/1', text: 'You have 88 ' });
    // The step before (a tool call) lands in the workflow while the reply after it is being written.
    messages.push(
      { kind: 'agent', text: '', toolCalls: [{ id: 't1', tool: 'CurrentPTO', args: {} }] },
      { kind: 'tool', call: { id: 't1', tool: 'CurrentPTO', args: {} }, outcome: { status: 'ok', result: 88 } },
    );
    feeds.poke('c1');
    await new Promise((r) => setTimeout(r, 20));
    bus.publish('c1', { kind: 'delta', attempt: 'r/2/1', text: 'hours of PTO ' });
    bus.publish('c1', { kind: 'delta', attempt: 'r/2/1', text: 'left.' });

    let text = '';
    for (const e of events) if (e.event === 'token') text = text.slice(0, e.data.offset) + e.data.text;
    expect(text).toBe('You have 88 hours of PTO left.');
    expect(events.filter((e) => e.event === 'message').map((e) => (e.data as { seq: number }).seq)).toEqual([0, 1, 2]);
    close();
    feeds.close();
  });
});

// A2A tasks as turns (api/a2a/turn-tasks.ts): each state a turn can be in, read from a conversation's feed.
import { parseTaskId, taskIdOf, taskOf } from '../../api/a2a/turn-tasks';
import type { ConversationFeed } from '../../core/conversation-types';
import { STOPPED_REPLY } from '../../core/messages';
import type { ChatMessage } from '../../core/types';
import { TaskState } from '../../endpoints/a2a/sdk';

const user = (promptId: number, text = `prompt ${promptId}`): ChatMessage => ({ kind: 'user', text, promptId });
const agent = (text: string): ChatMessage => ({ kind: 'agent', text, toolCalls: [] });
const ZERO = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };

function feed(messages: ChatMessage[], more: Partial<ConversationFeed> = {}): ConversationFeed {
  return {
    goalId: 'goal_hr_pto',
    owner: 'alice',
    state: 'waiting_for_user',
    first: 0,
    next: messages.length,
    messages: messages.map((message, seq) => ({ seq, message })),
    pendingApproval: null,
    question: null,
    usage: ZERO,
    ...more,
  };
}

const state = (f: ConversationFeed, promptId: number) => taskOf('c1', f, promptId)?.status?.state;
const QUESTION = { id: 'q1', tool: 'a2a:helper', server: 'helper', kind: 'form' as const, message: 'which colour?' };
const APPROVAL = {
  call: { id: 'call-1', tool: 'BookPTO', args: { days: 2 } },
  tool: 'BookPTO',
  description: 'Book it',
};

describe('A2A tasks read from a conversation', () => {
  it('names a task by its conversation and prompt, and reads the name back', () => {
    expect(taskIdOf('agent-1a2b', 3)).toBe('agent-1a2b~3');
    expect(parseTaskId('agent-1a2b~3')).toEqual({ conversationId: 'agent-1a2b', promptId: 3 });
    expect(parseTaskId('agent-1a2b')).toBeNull();
    expect(parseTaskId('~3')).toBeNull();
    expect(parseTaskId('agent~0')).toBeNull();
  });

  it('an earlier turn is completed, its last words the reply artifact; the latest is completed between turns', () => {
    const f = feed([user(1), agent('one'), user(2), agent('two')]);
    const first = taskOf('c1', f, 1)!;
    expect(first.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(first.artifacts[0]?.parts[0]?.content).toEqual({ $case: 'text', value: 'one' });
    expect(state(f, 2)).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('the running turn is working; a queued prompt is submitted, and cancelled once the conversation ended', () => {
    const working = feed([user(1)], { state: 'working', queued: [{ promptId: 2, ref: 'm2' }] });
    expect(state(working, 1)).toBe(TaskState.TASK_STATE_WORKING);
    expect(state(working, 2)).toBe(TaskState.TASK_STATE_SUBMITTED);
    expect(state({ ...working, state: 'ended' }, 2)).toBe(TaskState.TASK_STATE_CANCELED);
  });

  it("a tool's question (the conversation reads waiting_for_user) and an approval are input-required", () => {
    const asked = taskOf('c1', feed([user(1)], { question: QUESTION }), 1)!;
    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(asked.status?.message?.parts[1]?.content).toMatchObject({
      $case: 'data',
      value: { kind: 'question', questionId: 'q1' },
    });
    const approval = feed([user(1), agent('Booking that now.')], {
      state: 'awaiting_approval',
      pendingApproval: APPROVAL,
    });
    expect(state(approval, 1)).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    // An earlier turn stays completed whatever the latest one waits for.
    expect(state(feed([user(1), agent('one'), user(2)], { question: QUESTION }), 1)).toBe(
      TaskState.TASK_STATE_COMPLETED,
    );
  });

  it('a stopped turn, or one the conversation ended without answering, is cancelled', () => {
    expect(state(feed([user(1), agent(STOPPED_REPLY)]), 1)).toBe(TaskState.TASK_STATE_CANCELED);
    expect(state(feed([user(1)], { state: 'ended' }), 1)).toBe(TaskState.TASK_STATE_CANCELED);
  });

  it('a turn summarised away is completed; a prompt the conversation never had is no task', () => {
    const f = feed([user(5), agent('five')]);
    expect(state(f, 2)).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(taskOf('c1', f, 9)).toBeNull();
  });
});

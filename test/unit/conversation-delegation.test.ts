// Delegation decisions without Temporal: AskAgent calls start child conversations side by side, their envelopes
// become the calls' results, approvals and questions travel up and answers down, limits refuse with a tool error,
// and a delegate (task mode) ends its one task with an envelope.
import { Conversation } from '../../workflows/decider/conversation';
import { ASK_AGENT, ASK_USER, askAgentSpec, BUILTIN_TOOLS } from '../../core/builtin-specs';
import type { Goal, JsonSchema, ToolCall } from '../../core/types';
import type { DelegateEnvelope } from '../../core/conversation-types';
import { toModelMessages } from '../../activities/llm/model-messages';
import { envelopeOf, envelopeProblem } from '../../workflows/envelope';
import { book, goal, next, settings, text, usage } from '../helpers/conversation-unit';
import { transcript } from '../../workflows/decider/views';
import { expire, waitLimit } from '../../workflows/decider/waits';

const delegates = [
  { goalId: 'goal_pto', agentName: 'PTO agent', description: 'time off', category: 'hr' },
  { goalId: 'goal_orders', agentName: 'Order agent', description: 'orders', category: 'ecommerce' },
];
const orchestrator: Goal = { ...goal, id: 'goal_orchestrator', tools: [], delegates: ['*'] };
const ask = (id: string, goalId: string, task: string): ToolCall => ({ id, tool: ASK_AGENT, args: { goalId, task } });
const ok = (summary: string): DelegateEnvelope => ({
  status: 'ok',
  summary,
  usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
});

function parent(
  limits = { maxDepth: 3, maxParallel: 5, timeoutSeconds: 60 },
  depth = 0,
  askSpec = askAgentSpec(delegates),
) {
  const convo = new Conversation(
    depth
      ? { goalId: orchestrator.id, task: { task: 't', parentId: 'p', callId: 'x', depth } }
      : { goalId: orchestrator.id },
    'conv-1',
  );
  convo.begin(
    { ...settings, delegation: limits },
    { goal: orchestrator, tools: [askSpec, BUILTIN_TOOLS.CompleteGoal!] },
  );
  // A delegate's first prompt is its task; a user's conversation opens with a greeting, then the user asks.
  if (depth) return convo;
  convo.apply(next(convo, 'plan'), text('hello'));
  convo.enqueuePrompt('check my PTO and order ORD-1001');
  return convo;
}

function planCalls(convo: Conversation, ...calls: ToolCall[]) {
  convo.apply(next(convo, 'plan'), { text: '', toolCalls: calls, usage });
}

describe('Conversation: delegation (parent side)', () => {
  it('runs a conversation begun when the argument was named agentId as before: same child, same input', () => {
    // Its AskAgent spec was recorded with its goal, under the old name; the model's calls use that name.
    const spec = askAgentSpec(delegates);
    const { goalId, ...rest } = spec.inputSchema.properties as Record<string, JsonSchema>;
    const properties = { agentId: goalId!, ...rest };
    const convo = parent(undefined, 0, {
      ...spec,
      inputSchema: { ...spec.inputSchema, properties, required: ['agentId', 'task'] },
    });
    planCalls(convo, { id: 'a', tool: ASK_AGENT, args: { agentId: 'goal_pto', task: 'PTO left for x@y.z' } });
    const start = next(convo, 'start_delegates');
    expect(start.delegates.map((d) => d.childId)).toEqual(['conv-1/1-goal_pto']);
    expect(start.delegates[0]!.input.goalId).toBe('goal_pto');
  });

  it('starts every AskAgent call of a step at once, with child ids from its own, and plans once all envelopes are in', () => {
    const convo = parent();
    planCalls(convo, ask('a', 'goal_pto', 'PTO left for x@y.z'), ask('b', 'goal_orders', 'where is ORD-1001'));
    const start = next(convo, 'start_delegates');
    expect(start.delegates.map((d) => d.childId)).toEqual(['conv-1/1-goal_pto', 'conv-1/2-goal_orders']);
    expect(start.delegates[0]!.input).toEqual({
      goalId: 'goal_pto',
      task: { task: 'PTO left for x@y.z', parentId: 'conv-1', callId: 'a', depth: 1 },
    });
    convo.apply(start, [
      { callId: 'a', started: true },
      { callId: 'b', started: true },
    ]);
    expect(convo.nextEffect()).toBeNull();
    expect(convo.status()).toBe('working');
    expect(convo.delegations.list().map((d) => d.state)).toEqual(['running', 'running']);

    convo.applyEnvelope('b', ok('shipped'));
    expect(convo.hasWork()).toBe(false);
    convo.applyEnvelope('a', ok('88 h left'));
    convo.applyEnvelope('a', ok('again')); // a second envelope for the same call is ignored
    const results = convo.messages.filter((m) => m.kind === 'tool');
    expect(results.map((m) => m.kind === 'tool' && m.outcome)).toEqual([
      { status: 'ok', result: ok('shipped') },
      { status: 'ok', result: ok('88 h left') },
    ]);
    expect(convo.usage.totalTokens).toBe(2 * 2 + 2 * 15); // two plans of its own, two delegates' usage
    expect(next(convo, 'plan')).toBeTruthy();
  });

  it('refuses beyond the parallel limit and past the depth limit with a tool error, and checks arguments', () => {
    const convo = parent({ maxDepth: 3, maxParallel: 1, timeoutSeconds: 60 });
    planCalls(convo, ask('a', 'goal_pto', 't1'), ask('b', 'goal_orders', 't2'), ask('c', 'goal_unknown', 't3'));
    const start = next(convo, 'start_delegates');
    expect(start.delegates.map((d) => d.call.id)).toEqual(['a']);
    const outcomes = Object.fromEntries(
      convo.messages.flatMap((m) => (m.kind === 'tool' ? [[m.call.id, m.outcome]] : [])),
    );
    expect(outcomes.b).toEqual({
      status: 'tool_error',
      error: expect.stringMatching(/at most 1 agents can work at once \(DELEGATE_MAX_PARALLEL\)/),
    });
    expect(outcomes.c).toEqual(
      expect.objectContaining({
        status: 'invalid_input',
        problems: [expect.stringMatching(/"goalId" must be one of/)],
      }),
    );

    const deep = parent({ maxDepth: 2, maxParallel: 5, timeoutSeconds: 60 }, 2);
    planCalls(deep, ask('a', 'goal_pto', 't'));
    expect(deep.nextEffect()?.kind).toBe('plan');
    const [refused] = deep.messages.filter((m) => m.kind === 'tool');
    expect(refused?.kind === 'tool' && refused.outcome).toEqual({
      status: 'tool_error',
      error: expect.stringMatching(/already 2 deep; the limit is 2 \(DELEGATE_MAX_DEPTH\)/),
    });
  });

  it("shows a delegate's approval as its own and sends the user's answer down", () => {
    const convo = parent();
    planCalls(convo, ask('a', 'goal_pto', 'book PTO'));
    const start = next(convo, 'start_delegates');
    convo.apply(start, [{ callId: 'a', started: true }]);
    const approval = {
      call: { id: 'k1', tool: 'BookPTO', args: { hours: 8 } },
      tool: 'BookPTO',
      description: 'Book time off',
    };
    convo.delegateReport({ callId: 'a', agentName: 'PTO agent', waiting: { kind: 'approval', approval } });
    const pauses = convo.replies.pauses;
    expect(convo.nextEffect()).toBeNull();
    expect(convo.replies.pauses).toBe(pauses + 1);
    expect(convo.status()).toBe('awaiting_approval');
    expect(convo.pendingApproval()).toEqual({
      ...approval,
      delegate: { agentName: 'PTO agent', childId: 'conv-1/1-goal_pto' },
    });
    expect(convo.confirmRefusal({ approve: true, callId: 'other' })).toMatch(/not the pending one/);
    expect(convo.confirm({ approve: true, callId: 'k1' })).toBeNull();
    expect(next(convo, 'answer_delegate')).toEqual({
      kind: 'answer_delegate',
      childId: 'conv-1/1-goal_pto',
      answer: { confirm: { approve: true, callId: 'k1' } },
    });
    expect(convo.pendingApproval()).toBeNull();
    expect(convo.status()).toBe('working');
    // No limit of its own on a delegate's approval: the delegate's APPROVAL_TIMEOUT decides.
    expect(waitLimit(convo)).toBeNull();
  });

  it("relays a delegate's question, takes the user's next message as the answer and keeps it out of the model's view", () => {
    const convo = parent();
    planCalls(convo, ask('a', 'goal_pto', 'PTO left?'));
    convo.apply(next(convo, 'start_delegates'), [{ callId: 'a', started: true }]);
    convo.delegateReport({
      callId: 'a',
      agentName: 'PTO agent',
      waiting: { kind: 'question', question: 'Your email?', callId: 'q1' },
    });
    expect(convo.nextEffect()).toBeNull();
    expect(convo.replies.last?.reply).toBe('PTO agent asks: Your email?');
    expect(convo.status()).toBe('waiting_for_user');
    const id = convo.enqueuePrompt('x@y.z', true);
    expect(next(convo, 'answer_delegate').answer).toEqual({ reply: 'x@y.z' });
    convo.applyEnvelope('a', ok('88 h left'));
    expect(convo.messages.map((m) => m.kind)).toEqual(['user', 'agent', 'user', 'agent', 'agent', 'user', 'tool']);
    next(convo, 'plan');
    convo.apply({ kind: 'plan', request: undefined as never }, text('You have 88 h left.'));
    expect(convo.replies.collect(id)?.reply).toBe('You have 88 h left.');
    // Providers want tool results right after their calls: the relayed words stay out of the model's view.
    const roles = toModelMessages(convo.messages).map((m) => m.role);
    expect(roles).toEqual(['user', 'assistant', 'user', 'assistant', 'tool', 'assistant']);
  });

  it("answering one delegate's approval while another's question waits pauses again, with that question", () => {
    const convo = parent();
    planCalls(convo, ask('a', 'goal_pto', 'book'), ask('b', 'goal_orders', 'chase my order'));
    convo.apply(next(convo, 'start_delegates'), [
      { callId: 'a', started: true },
      { callId: 'b', started: true },
    ]);
    const approval = { call: { id: 'k1', tool: 'BookPTO', args: {} }, tool: 'BookPTO', description: '' };
    convo.delegateReport({ callId: 'a', agentName: 'PTO agent', waiting: { kind: 'approval', approval } });
    convo.delegateReport({
      callId: 'b',
      agentName: 'Order agent',
      waiting: { kind: 'question', question: 'Which order?', callId: 'q1' },
    });
    expect(convo.nextEffect()).toBeNull();
    expect(convo.nextEffect()).toBeNull();
    expect(convo.pendingApproval()?.tool).toBe('BookPTO');
    convo.confirm({ approve: true });
    const pauses = convo.replies.pauses;
    convo.apply(next(convo, 'answer_delegate'), true);
    // The confirm update waiting for the next pause gets it now, not once the whole step is over.
    expect(convo.replies.pauses).toBe(pauses + 1);
    expect(convo.replies.last).toEqual(
      expect.objectContaining({ reply: 'Order agent asks: Which order?', pendingToolCall: null }),
    );
  });

  it('a cancelled turn cancels its delegates: their calls get a cancelled envelope', () => {
    const convo = parent();
    planCalls(convo, ask('a', 'goal_pto', 't'));
    convo.apply(next(convo, 'start_delegates'), [{ callId: 'a', started: true }]);
    expect(convo.cancelTurn()).toBe(true);
    expect(convo.nextEffect()).toBeNull();
    const [result] = convo.messages.filter((m) => m.kind === 'tool');
    expect(result?.kind === 'tool' && result.outcome).toEqual({
      status: 'ok',
      result: expect.objectContaining({ status: 'cancelled' }),
    });
    expect(convo.delegations.list()[0]?.state).toBe('done');
  });

  it('a delegate that could not start is an error envelope', () => {
    const convo = parent();
    planCalls(convo, ask('a', 'goal_pto', 't'));
    convo.apply(next(convo, 'start_delegates'), [{ callId: 'a', failed: 'already started' }]);
    const [result] = convo.messages.filter((m) => m.kind === 'tool');
    expect(result?.kind === 'tool' && result.outcome).toEqual({
      status: 'ok',
      result: expect.objectContaining({ status: 'error', summary: expect.stringMatching(/already started/) }),
    });
  });
});

describe('envelopes', () => {
  it('takes a valid one as it is and turns anything else into an error envelope that says why', () => {
    const good = ok('done');
    expect(envelopeProblem(good)).toBeNull();
    expect(
      envelopeOf({ goalId: 'g', endedBy: 'goal_complete', summary: '', messages: [], usage, envelope: good }),
    ).toEqual(good);
    expect(envelopeProblem({ ...good, status: 'maybe' })).toMatch(
      /status must be one of ok, error, needs_input, cancelled/,
    );
    expect(envelopeProblem({ ...good, usage: { inputTokens: 1 } })).toMatch(/usage must hold/);
    const bad = envelopeOf({
      goalId: 'g',
      endedBy: 'goal_complete',
      summary: '',
      messages: [],
      usage,
      envelope: { ...good, summary: 3 } as never,
    });
    expect(bad).toEqual({
      status: 'error',
      summary: 'The agent answered with an unreadable envelope: summary must be a string',
      usage: expect.anything(),
    });
    // Ended by somebody before it finished its task: cancelled, with what it had used.
    expect(envelopeOf({ goalId: 'g', endedBy: 'user', summary: '', messages: [], usage })).toMatchObject({
      status: 'cancelled',
      usage,
    });
  });
});

describe('Conversation: task mode (the delegate side)', () => {
  const child = (extra: Partial<typeof settings> = {}) => {
    const convo = new Conversation(
      { goalId: goal.id, task: { task: 'book PTO on Monday', parentId: 'conv-1', callId: 'a', depth: 1 } },
      'conv-1/1-g',
    );
    convo.begin(
      { ...settings, multiGoal: true, validatePrompts: true, approvalTimeoutSeconds: 60, ...extra },
      { goal, tools: [book, BUILTIN_TOOLS.CompleteGoal!, BUILTIN_TOOLS.ListAgents!] },
      { refreshToolsEachTurn: true, cancelAndExpire: true },
    );
    return convo;
  };

  it('starts on its task (no greeting, no check, no agent list), asks with AskUser, and ends with an ok envelope', () => {
    const convo = child();
    expect(convo.tools.map((t) => t.name)).toEqual(['Book', 'CompleteGoal', ASK_USER]);
    const plan = next(convo, 'plan');
    expect(plan.request.transcript?.tail).toEqual([{ kind: 'user', text: 'book PTO on Monday', promptId: 1 }]);
    convo.apply(plan, {
      text: '',
      toolCalls: [{ id: 'q1', tool: ASK_USER, args: { question: 'Which Monday?' } }],
      usage,
    });
    expect(convo.nextEffect()).toBeNull();
    expect(convo.delegateWait()).toEqual({ kind: 'question', question: 'Which Monday?', callId: 'q1' });
    convo.enqueuePrompt('the 3rd');
    expect(next(convo, 'plan')).toBeTruthy();
    const [answer] = convo.messages.filter((m) => m.kind === 'tool');
    expect(answer?.kind === 'tool' && answer.outcome).toEqual({ status: 'ok', result: { answer: 'the 3rd' } });
    expect(convo.delegateWait()).toBeNull();
    convo.apply(
      { kind: 'plan', request: undefined as never },
      { text: '', toolCalls: [{ id: 'b1', tool: 'Book', args: { day: '3rd' } }], usage },
    );
    expect(convo.nextEffect()).toBeNull();
    expect(convo.delegateWait()).toEqual({ kind: 'approval', approval: expect.objectContaining({ tool: 'Book' }) });
    convo.confirm({ approve: true });
    const run = next(convo, 'run_tool');
    convo.apply(run, { status: 'ok', result: { booked: '3rd' } });
    convo.apply(next(convo, 'plan'), text('Booked the 3rd.'));
    expect(convo.ended).toBe(true);
    expect(transcript(convo).envelope).toEqual({
      status: 'ok',
      summary: 'Booked the 3rd.',
      data: { booked: '3rd' },
      usage: convo.usage,
    });
  });

  it('ends with needs_input when nobody answers its question, and with error when the model is down', () => {
    const convo = child();
    convo.apply(next(convo, 'plan'), {
      text: '',
      toolCalls: [{ id: 'q1', tool: ASK_USER, args: { question: 'Which Monday?' } }],
      usage,
    });
    expect(convo.nextEffect()).toBeNull();
    const limit = waitLimit(convo);
    expect(limit).toEqual({ seconds: 60, expires: 'approval' });
    expire(convo, limit!);
    expect(transcript(convo).envelope).toEqual(
      expect.objectContaining({ status: 'needs_input', summary: 'I need an answer to go on: Which Monday?' }),
    );

    const down = child();
    down.apply(next(down, 'plan'), { failed: 'model unreachable' });
    expect(transcript(down).envelope?.status).toBe('error');
  });

  it('CompleteGoal ends the task with its summary; AskUser outside task mode is refused', () => {
    const convo = child();
    convo.apply(next(convo, 'plan'), {
      text: '',
      toolCalls: [{ id: 'c1', tool: 'CompleteGoal', args: { summary: 'Nothing to book.' } }],
      usage,
    });
    expect(convo.nextEffect()).toBeNull();
    expect(transcript(convo).envelope?.summary).toBe('Nothing to book.');
    expect(convo.mayContinueAsNew()).toBe(false);

    const user = new Conversation({ goalId: goal.id });
    user.begin(settings, { goal, tools: [BUILTIN_TOOLS[ASK_USER]!] });
    user.apply(next(user, 'plan'), {
      text: '',
      toolCalls: [{ id: 'q', tool: ASK_USER, args: { question: 'x' } }],
      usage,
    });
    expect(user.nextEffect()?.kind).toBe('plan');
    const [refused] = user.messages.filter((m) => m.kind === 'tool');
    expect(refused?.kind === 'tool' && refused.outcome.status).toBe('invalid_input');
  });
});

// Cancelling a turn and waits that expire, decided by Conversation alone (the workflow cancels the activity).
import { Conversation } from '../../workflows/decider/conversation';
import { BUILTIN_TOOLS } from '../../core/builtin-specs';
import type { ToolSpec } from '../../core/types';
import { begun, book, calls, goal, next, settings, text } from '../helpers/conversation-unit';
import { transcript } from '../../workflows/decider/views';
import { expire, waitLimit } from '../../workflows/decider/waits';

const expiring = { refreshToolsEachTurn: true, cancelAndExpire: true };
const limits = { approvalTimeoutSeconds: 86_400, idleTimeoutSeconds: 7 * 86_400 };

function started(tools: ToolSpec[] = [book], overrides = {}): Conversation {
  const convo = new Conversation();
  convo.begin(
    { ...settings, ...limits, ...overrides },
    { goal, tools: [...tools, BUILTIN_TOOLS.CompleteGoal!] },
    expiring,
  );
  convo.apply(next(convo, 'plan'), text('hello'));
  return convo;
}

describe('Conversation: cancelling the running turn', () => {
  it('refuses when nothing runs, and stops a turn whose model call was cancelled', () => {
    const convo = begun();
    expect(convo.cancelRefusal()).toMatch(/nothing is running/);
    expect(convo.cancelTurn()).toBe(false);
    convo.enqueuePrompt('book monday', true);
    const plan = next(convo, 'plan');
    expect(convo.cancelTurn()).toBe(true);
    convo.applyCancelled(plan);
    expect(convo.nextEffect()).toBeNull();
    expect(convo.status()).toBe('waiting_for_user');
    expect(convo.replies.last?.reply).toMatch(/Stopped/);
    // The next prompt starts a fresh turn.
    convo.enqueuePrompt('again');
    expect(convo.nextEffect()?.kind).toBe('plan');
  });

  it('records a cancelled native call as not run, and declines the calls after it', () => {
    const convo = started([{ ...book, approval: 'never' }]);
    convo.enqueuePrompt('book two days');
    convo.apply(next(convo, 'plan'), calls(['Book', { day: 'mon' }], ['Book', { day: 'tue' }]));
    const run = next(convo, 'run_tool');
    convo.cancelTurn();
    convo.applyCancelled(run);
    expect(convo.nextEffect()).toBeNull();
    const outcomes = convo.messages.flatMap((m) => (m.kind === 'tool' ? [m.outcome] : []));
    expect(outcomes).toEqual([
      { status: 'tool_error', error: 'Cancelled by the user before it finished; it did not complete.' },
      { status: 'rejected', reason: 'the user cancelled the turn' },
    ]);
  });

  it('says a cancelled non-idempotent MCP call may have acted', () => {
    const remote: ToolSpec = {
      ...book,
      name: 'srv__act',
      kind: 'mcp',
      approval: 'never',
      mcp: { server: 'srv', tool: 'act', idempotent: false, timeoutMs: 1000 },
    };
    const convo = started([remote]);
    convo.enqueuePrompt('act');
    convo.apply(next(convo, 'plan'), calls(['srv__act', { day: 'mon' }]));
    const run = next(convo, 'run_tool');
    convo.cancelTurn();
    convo.applyCancelled(run);
    convo.nextEffect();
    const tool = convo.messages.find((m) => m.kind === 'tool');
    expect(tool?.kind === 'tool' && tool.outcome).toMatchObject({
      error: expect.stringMatching(/may or may not have acted/),
    });
  });

  it('keeps a result that arrived despite the cancel, then stops', () => {
    const convo = started([{ ...book, approval: 'never' }]);
    convo.enqueuePrompt('book');
    convo.apply(next(convo, 'plan'), calls(['Book', { day: 'mon' }]));
    const run = next(convo, 'run_tool');
    convo.cancelTurn();
    convo.apply(run, { status: 'ok', result: { booked: 'mon' } });
    expect(convo.nextEffect()).toBeNull();
    expect(convo.messages.some((m) => m.kind === 'tool' && m.outcome.status === 'ok')).toBe(true);
    expect(convo.replies.last?.reply).toMatch(/Stopped/);
  });

  it('drops a prompt whose turn had not begun (tools being refreshed), answering its update with the stop', () => {
    const convo = begun();
    const id = convo.enqueuePrompt('book monday', true);
    expect(convo.cancelTurn()).toBe(true);
    expect(convo.cancelRefusal()).toMatch(/already being cancelled/);
    expect(convo.nextEffect()).toBeNull();
    expect(convo.replies.collect(id)?.reply).toMatch(/^Stopped/);
    expect(convo.messages.at(-2)).toEqual({ kind: 'user', text: 'book monday', promptId: id });
    expect(convo.cancelTurn()).toBe(false);
  });

  it('never continues as new with a cancel pending', () => {
    const convo = begun();
    convo.enqueuePrompt('one');
    convo.apply(next(convo, 'plan'), text('done'));
    convo.enqueuePrompt('two');
    expect(convo.mayContinueAsNew()).toBe(true);
    convo.cancelTurn();
    expect(convo.mayContinueAsNew()).toBe(false);
  });

  it('cancels a pending approval: the call is declined', () => {
    const convo = started();
    convo.enqueuePrompt('book');
    convo.apply(next(convo, 'plan'), calls(['Book', { day: 'mon' }]));
    expect(convo.nextEffect()).toBeNull();
    expect(convo.status()).toBe('awaiting_approval');
    expect(convo.cancelTurn()).toBe(true);
    expect(convo.hasWork()).toBe(true);
    expect(convo.nextEffect()).toBeNull();
    expect(convo.pendingApproval()).toBeNull();
    expect(convo.status()).toBe('waiting_for_user');
  });
});

describe('Conversation: waits that expire', () => {
  it('gives an approval APPROVAL_TIMEOUT, then declines it and says so', () => {
    const convo = started();
    expect(waitLimit(convo)).toEqual({ seconds: 7 * 86_400, expires: 'idle' });
    convo.enqueuePrompt('book');
    convo.apply(next(convo, 'plan'), calls(['Book', { day: 'mon' }]));
    expect(convo.nextEffect()).toBeNull();
    const limit = waitLimit(convo)!;
    expect(limit).toEqual({ seconds: 86_400, expires: 'approval' });
    expire(convo, limit);
    expect(convo.pendingApproval()).toBeNull();
    expect(convo.replies.last?.reply).toMatch(/expired: nobody answered within 24 h/);
    expect(convo.messages).toContainEqual(
      expect.objectContaining({
        kind: 'tool',
        outcome: { status: 'rejected', reason: 'nobody answered within 24 h (APPROVAL_TIMEOUT)' },
      }),
    );
    expect(convo.nextEffect()).toBeNull();
    expect(waitLimit(convo)?.expires).toBe('idle');
  });

  it('ends an idle conversation with its transcript', () => {
    const convo = started();
    expire(convo, waitLimit(convo)!);
    expect(convo.ended).toBe(true);
    expect(transcript(convo)).toMatchObject({
      endedBy: 'idle',
      messages: expect.arrayContaining([expect.objectContaining({ kind: 'note' })]),
    });
  });

  it('never expires in runs recorded before the timeouts existed', () => {
    const convo = begun(limits);
    expect(waitLimit(convo)).toBeNull();
  });
});

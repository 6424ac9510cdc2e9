import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { dataset } from '../../tools/mock-data';
import { endChatSignal, usageQuery } from '../../core/messages';
import { ptoScript } from '../fixtures/scripts';
import { decide, history, rejection, say, startConversation, toolOutcomes } from '../helpers/conversation';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';
import { week } from '../../testkit/days';
import { isoDay } from '../../core/days';

describe('AgentGoalWorkflow on a real Temporal server', () => {
  const mon = week(4);
  const tue = week(4, 1);
  const thu = week(4, 3);
  const fri = week(4, 4);
  const nextMon = week(5);
  let env: TestWorkflowEnvironment;
  let worker: Awaited<ReturnType<typeof startWorker>>;

  beforeAll(async () => {
    env = await startTemporal();
    worker = await startWorker(env, { script: ptoScript, settings: testSettings({ MAX_TOOL_STEPS: '3' }) });
  });
  afterAll(async () => {
    await worker?.stop();
    await env?.teardown();
  });

  const start = () => startConversation(env.client, worker.worker.options.taskQueue, { goalId: 'goal_hr_pto' });

  it('opens with the goal starter prompt and answers several turns', async () => {
    const { handle, greeting } = await start();
    expect(greeting?.reply).toMatch(/What is your work email/);

    const first = await say(handle, 'What is my balance for ada@example.com?');
    expect(first.reply).toMatch(/You have \d+ hours of PTO left/);
    const second = await say(handle, 'And the balance for grace@example.com?');
    expect(second.reply).toBe('You have 36 hours of PTO left.');

    const usage = await handle.query(usageQuery);
    expect(usage.total.totalTokens).toBeGreaterThan(0);
    await handle.signal(endChatSignal);
    const transcript = await handle.result();
    expect(transcript.endedBy).toBe('user');
    expect(transcript.messages.filter((m) => m.kind === 'user')).toHaveLength(3);
  });

  it('asks before acting, and books on approval', async () => {
    const before = dataset(worker.store, 'employees').find((e) => e.email === 'ada@example.com')!.ptoHoursLeft;
    const { handle } = await start();
    const proposal = await say(handle, `book ${mon} to ${tue} for ada@example.com`);
    expect(proposal.reply).toBe('Booking that now.');
    expect(proposal.pendingToolCall?.call.tool).toBe('BookPTO');
    expect(toolOutcomes(await history(handle), 'BookPTO')).toHaveLength(0);

    const done = await decide(handle, { approve: true });
    expect(done.reply).toBe(`Booked ${mon} to ${tue}; ${before - 16} hours left.`);
    expect(dataset(worker.store, 'employees').find((e) => e.email === 'ada@example.com')!.ptoHoursLeft).toBe(
      before - 16,
    );
    await handle.signal(endChatSignal);
  });

  it('runs the call with the args the user edited', async () => {
    const { handle } = await start();
    await say(handle, `book ${mon} to ${fri} for grace@example.com`);
    const done = await decide(handle, {
      approve: true,
      args: { email: 'grace@example.com', startDate: nextMon, endDate: nextMon },
    });
    expect(done.reply).toMatch(new RegExp(`^Booked ${nextMon} to ${nextMon}; \\d+ hours left\\.$`));
    await handle.signal(endChatSignal);
  });

  it('tells the LLM when the user rejects a call, with the reason', async () => {
    const { handle } = await start();
    await say(handle, `book ${mon} to ${tue} for ada@example.com`);
    const done = await decide(handle, { approve: false, reason: 'wrong week' });
    expect(done.reply).toBe('OK, I did not book it (wrong week).');
    const [outcome] = toolOutcomes(await history(handle), 'BookPTO');
    expect(outcome?.outcome).toEqual({ status: 'rejected', reason: 'wrong week' });
    expect(await rejection(decide(handle, { approve: true }))).toMatch(/no tool call is waiting/);
    await handle.signal(endChatSignal);
  });

  it('hands tool errors to the LLM as results', async () => {
    const { handle } = await start();
    const reply = await say(handle, 'What is my balance for nobody@example.com?');
    expect(reply.reply).toBe('Sorry: No employee with email nobody@example.com.');
    await handle.signal(endChatSignal);
  });

  it('asks for missing arguments instead of running or approving the call', async () => {
    const { handle } = await start();
    const reply = await say(handle, 'book some days');
    expect(reply.pendingToolCall).toBeNull();
    expect(reply.reply).toBe('I need these to book: ["startDate","endDate"]. Which dates?');
    await handle.signal(endChatSignal);
  });

  it('steers back when a prompt does not fit the goal', async () => {
    const { handle } = await start();
    const reply = await say(handle, 'order me a pizza');
    expect(reply.reply).toBe('I can only help with paid time off.');
    const messages = await history(handle);
    expect(messages.filter((m) => m.kind === 'agent' && m.toolCalls.length > 0)).toHaveLength(0);
    await handle.signal(endChatSignal);
  });

  it('chains tools without the user until the agent needs them', async () => {
    const { handle } = await start();
    const grace = dataset(worker.store, 'employees').find((e) => e.email === 'grace@example.com')!;
    // FuturePTOCalc counts what accrues in the whole calendar months from today to the start.
    const today = isoDay(new Date());
    const months =
      (Number(mon.slice(0, 4)) - Number(today.slice(0, 4))) * 12 +
      (Number(mon.slice(5, 7)) - Number(today.slice(5, 7)));
    const enough = grace.ptoHoursLeft + months * grace.hoursAccruedPerMonth >= 32;
    const reply = await say(handle, `plan ${mon} to ${thu} for grace@example.com`);
    expect(reply.reply).toBe(`You need 32 hours; enough: ${enough}.`);
    const tools = toolOutcomes(await history(handle)).map((m) => [m.call.tool, m.outcome.status]);
    expect(tools).toEqual([
      ['CurrentPTO', 'ok'],
      ['FuturePTOCalc', 'ok'],
    ]);
    await handle.signal(endChatSignal);
  });

  it('stops a tool loop at the per-turn step cap', async () => {
    const { handle } = await start();
    const reply = await say(handle, 'loop forever');
    expect(reply.reply).toMatch(/I have taken 3 steps/);
    expect(toolOutcomes(await history(handle), 'CurrentPTO')).toHaveLength(3);
    await handle.signal(endChatSignal);
  });

  it('ends with a JSON transcript when the goal is complete', async () => {
    const { handle } = await start();
    const reply = await say(handle, 'that is all');
    expect(reply.ended).toBe(true);
    const transcript = await handle.result();
    expect(transcript.endedBy).toBe('goal_complete');
    expect(JSON.parse(JSON.stringify(transcript)).messages.length).toBeGreaterThan(3);
  });

  it('rejects empty prompts and prompts after the end with clear messages', async () => {
    const { handle } = await start();
    expect(await rejection(say(handle, '   '))).toMatch(/The prompt is empty/);
    expect(await rejection(say(handle, 'x'.repeat(20_000)))).toMatch(/limit is 16000/);
    await handle.signal(endChatSignal);
    await handle.result();
    expect(await rejection(say(handle, 'hello again'))).toMatch(/Workflow Update failed|completed|ended/);
  });
});

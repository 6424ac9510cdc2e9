import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { agentsQuery, changeGoalSignal, currentGoalQuery, endChatSignal } from '../../core/messages';
import { pickerScript } from '../fixtures/scripts';
import { history, say, startConversation, toolOutcomes, waitForUser, waitUntil } from '../helpers/conversation';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';

describe('multi-goal mode: ListAgents and ChangeGoal', () => {
  let env: TestWorkflowEnvironment;
  let worker: Awaited<ReturnType<typeof startWorker>>;

  beforeAll(async () => {
    env = await startTemporal();
    worker = await startWorker(env, {
      script: pickerScript,
      settings: testSettings({ AGENT_GOAL: 'goal_choose_agent' }),
    });
  });
  afterAll(async () => {
    await worker?.stop();
    await env?.teardown();
  });

  const start = () => startConversation(env.client, worker.worker.options.taskQueue, { goalId: 'goal_choose_agent' });

  it('lists agents, switches goal, lists again and returns to the picker on completion', async () => {
    const { handle, greeting } = await start();
    const agentIds = (await handle.query(agentsQuery)).map((a) => a.goalId);
    expect(agentIds).toEqual(
      expect.arrayContaining(['goal_currency_desk', 'goal_general', 'goal_hr_pto', 'goal_order_status']),
    );
    expect(agentIds).not.toContain('goal_choose_agent');
    expect(greeting?.reply).toBe(`I can hand you to: ${agentIds.join(', ')}.`);

    expect((await say(handle, 'I need PTO help')).reply).toBe('PTO assistant here. Your email?');
    expect((await handle.query(currentGoalQuery))?.id).toBe('goal_hr_pto');

    // Every goal gets ListAgents in multi-goal mode, and calling it goes back to the picker.
    expect((await say(handle, 'what other agents are there?')).reply).toBe(
      `I can hand you to: ${agentIds.join(', ')}.`,
    );
    expect((await handle.query(currentGoalQuery))?.id).toBe('goal_choose_agent');
    expect((await say(handle, 'PTO again please')).reply).toBe('PTO assistant here. Your email?');

    // Completing a goal goes back to the picker instead of ending the conversation.
    const back = await say(handle, 'done');
    expect(back.ended).toBe(false);
    expect(back.reply).toBe('Back at the picker. What next?');
    expect((await handle.query(currentGoalQuery))?.id).toBe('goal_choose_agent');

    // The picker's own completion ends the conversation.
    const bye = await say(handle, 'bye');
    expect(bye.ended).toBe(true);
    expect((await handle.result()).endedBy).toBe('goal_complete');
  });

  it('switches straight to the right agent when the request is clear, which then continues it', async () => {
    const { handle } = await start();
    await say(handle, 'I need PTO help');
    const reply = await say(handle, 'actually, where is my order ORD-1001?');
    expect(reply.reply).toBe('Order ORD-1001 is shipped.');
    expect((await handle.query(currentGoalQuery))?.id).toBe('goal_order_status');
    const steps = toolOutcomes(await history(handle)).map((m) => m.call.tool);
    expect(steps.slice(-2)).toEqual(['ChangeGoal', 'GetOrder']);
    await handle.signal(endChatSignal);
  });

  it('asks which agent when the request is ambiguous, without switching', async () => {
    const { handle } = await start();
    const reply = await say(handle, 'help me with something');
    expect(reply.reply).toBe('Happy to. Is it about time off, an order, or money?');
    expect((await handle.query(currentGoalQuery))?.id).toBe('goal_choose_agent');
    await handle.signal(endChatSignal);
  });

  it('tells the LLM about an unknown goal instead of switching silently', async () => {
    const { handle } = await start();
    const reply = await say(handle, 'astrology please');
    expect(reply.reply).toMatch(/No such agent: Unknown goal "goal_astrology"\. Known goals: .*goal_hr_pto/);
    expect((await handle.query(currentGoalQuery))?.id).toBe('goal_choose_agent');
    const [outcome] = toolOutcomes(await history(handle), 'ChangeGoal');
    expect(outcome?.outcome.status).toBe('tool_error');
    await handle.signal(endChatSignal);
  });

  it('switches goal on the changeGoal signal and opens with the new agent', async () => {
    const { handle } = await start();
    await handle.signal(changeGoalSignal, 'goal_order_status');
    await waitUntil(async () => (await handle.query(currentGoalQuery))?.id === 'goal_order_status');
    const reply = await waitForUser(handle);
    expect(reply?.reply).toBe('Order status here.');
    const messages = await history(handle);
    expect(messages.some((m) => m.kind === 'note' && /Switched to the agent "Order status"/.test(m.text))).toBe(true);
    await handle.signal(endChatSignal);
  });
});

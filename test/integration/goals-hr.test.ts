// The HR goals (check PTO, paycheck deposit status) end to end: a real dev server, a real worker, the goal's
// whole tool sequence driven by a scripted model; then the offline demo script (config/scripted-model.json)
// routing the picker to them, as `npm start` does.
import { addDays, onOrAfter } from '../../core/days';
import { dataset, demoDay } from '../../tools/mock-data';
import { paycheckDeposits } from '../../tools/mock-data/hr';
import { currentGoalQuery, endChatSignal, toolsQuery } from '../../core/messages';
import { hrGoalsScript } from '../fixtures/goal-scripts-hr';
import { history, say, startConversation, toolOutcomes } from '../helpers/conversation';
import { goalTestbed } from '../helpers/goal-testbed';
import { week } from '../../testkit/days';

describe('HR goals on a real Temporal server', () => {
  const { bed, start, steps } = goalTestbed(hrGoalsScript);
  // Monday to Thursday four weeks on: 32 hours, and Ada's balance covers them.
  const [monday, thursday] = [week(4, 0), week(4, 3)];

  it('goal_hr_check_pto: the balance, then a forecast, and no booking', async () => {
    const before = structuredClone(dataset(bed.worker.store, 'employees'));
    const { handle, greeting } = await start('goal_hr_check_pto');
    expect(greeting?.reply).toBe('Check PTO here. What is your work email?');
    expect((await handle.query(toolsQuery)).map((t) => t.name)).toEqual([
      'CurrentPTO',
      'FuturePTOCalc',
      'CompleteGoal',
      'Remember',
      'Forget',
    ]);

    expect((await say(handle, 'ada@example.com')).reply).toBe('Ada Lovelace has 104 hours (13 days) of PTO.');
    expect((await say(handle, `could I take ${monday} to ${thursday} for ada@example.com?`)).reply).toMatch(
      /^That needs 32 hours; \d+(\.\d+)? by then; enough: true\.$/,
    );
    // Booking is not this agent's job: the workflow refuses a tool the goal does not have, without asking anyone.
    const booking = await say(handle, `book ${monday} to ${thursday} for ada@example.com`);
    expect(booking.pendingToolCall).toBeNull();
    expect(booking.reply).toMatch(/^I cannot book here: .*unknown tool \\"BookPTO\\"/);

    const outcomes = toolOutcomes(await history(handle));
    expect(outcomes.map((m) => [m.call.tool, m.outcome.status])).toEqual([
      ['CurrentPTO', 'ok'],
      ['FuturePTOCalc', 'ok'],
      ['BookPTO', 'invalid_input'],
    ]);
    expect(outcomes[0]?.outcome).toEqual({
      status: 'ok',
      result: { email: 'ada@example.com', name: 'Ada Lovelace', hoursLeft: 104, daysLeft: 13 },
    });
    expect(outcomes[1]?.outcome).toMatchObject({ status: 'ok', result: { hoursNeeded: 32, enough: true } });

    const done = await say(handle, 'thanks');
    expect(done.ended).toBe(true);
    expect((await handle.result()).endedBy).toBe('goal_complete');
    expect(dataset(bed.worker.store, 'employees')).toEqual(before);
  });

  it('goal_hr_check_pto: an unknown employee is a tool error the agent passes on', async () => {
    const { handle } = await start('goal_hr_check_pto');
    expect((await say(handle, 'nobody@example.com')).reply).toBe('Sorry: No employee with email nobody@example.com.');
    expect(await steps(handle)).toEqual([['CurrentPTO', 'tool_error']]);
    await handle.signal(endChatSignal);
  });

  it('goal_hr_paycheck_bank_status: connected, waiting for verification, unknown', async () => {
    const before = structuredClone(paycheckDeposits(bed.worker.store));
    // Paid every other Friday: next the first Friday after the demo day, last two weeks before that.
    const payday = onOrAfter(addDays(demoDay(bed.worker.store), 1), 5);
    const { handle, greeting } = await start('goal_hr_paycheck_bank_status');
    expect(greeting?.reply).toBe('Paycheck deposit status here. What is your work email?');

    expect((await say(handle, 'ada@example.com')).reply).toBe(
      'Ada Lovelace: connected. Connected to First Analytical Bank (account ending 1843). ' +
        `Last deposit $4,120.55 on ${addDays(payday, -14)}. Next payday ${payday}.`,
    );
    expect((await say(handle, 'and grace@example.com?')).reply).toMatch(
      /^Grace Hopper: pending_verification\. The link to Compiler Credit Union \(account ending 1906\) is waiting for verification\. Two small test deposits/,
    );
    expect((await say(handle, 'nobody@example.com')).reply).toBe('Sorry: No employee with email nobody@example.com.');

    const outcomes = toolOutcomes(await history(handle), 'PaycheckBankStatus');
    expect(outcomes.map((m) => m.outcome.status)).toEqual(['ok', 'ok', 'tool_error']);
    expect(outcomes[0]?.outcome).toMatchObject({
      status: 'ok',
      result: {
        connected: true,
        status: 'connected',
        bank: 'First Analytical Bank',
        accountLast4: '1843',
        lastDeposit: { amount: 4120.55 },
      },
    });
    expect(outcomes[1]?.outcome).toMatchObject({
      status: 'ok',
      result: { connected: false, status: 'pending_verification' },
    });

    expect((await say(handle, 'that is all')).ended).toBe(true);
    expect(paycheckDeposits(bed.worker.store)).toEqual(before);
  });

  it('the offline demo script routes the picker to both HR agents and runs their tools', async () => {
    const { handle } = await startConversation(bed.env.client, bed.demo.worker.options.taskQueue, {
      goalId: 'goal_choose_agent',
    });
    const goal = async () => (await handle.query(currentGoalQuery))?.id;

    expect((await say(handle, 'is my paycheck deposited?')).reply).toMatch(/^You're with Paycheck deposit status/);
    expect(await goal()).toBe('goal_hr_paycheck_bank_status');
    expect((await say(handle, 'grace@example.com')).reply).toMatch(
      /^Grace Hopper: The link to Compiler Credit Union .* is waiting for verification/,
    );
    expect((await say(handle, 'bye')).ended).toBe(false);
    expect(await goal()).toBe('goal_choose_agent');

    expect((await say(handle, 'how many days off do I have?')).reply).toMatch(/^You're with Check PTO/);
    expect(await goal()).toBe('goal_hr_check_pto');
    expect((await say(handle, 'ada@example.com')).reply).toMatch(
      /^Ada Lovelace, you have 104 hours \(13 days\) of PTO left/,
    );
    expect((await say(handle, `${monday} to ${thursday} for ada@example.com`)).reply).toMatch(
      /^Those days need 32 hours; you will have [\d.]+ by then \(enough: true\)/,
    );

    expect(await steps(handle)).toEqual([
      ['ListAgents', 'ok'],
      ['ChangeGoal', 'ok'],
      ['PaycheckBankStatus', 'ok'],
      ['CompleteGoal', 'ok'],
      ['ChangeGoal', 'ok'],
      ['CurrentPTO', 'ok'],
      ['FuturePTOCalc', 'ok'],
    ]);
    expect(dataset(bed.demo.store, 'employees').find((e) => e.email === 'ada@example.com')?.bookings).toEqual([]);
    await handle.signal(endChatSignal);
  });
});

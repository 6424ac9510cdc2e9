// The offline demo as the README tells it: the shipped script (config/scripted-model.json) on a real dev server
// and worker, from the agent picker as `npm start` opens it. Every input the README suggests leads where the README
// says, from any agent: a request another agent owns switches straight to it, and that agent acts on it. It runs
// twice: on today's date and with the workers' clock a year ahead, with the same inputs (the README's are relative:
// "next Monday to Thursday"), so the demo cannot go stale as the calendar moves.
import { addDays, isoDay, resolveDay } from '../../core/days';
import { agentsQuery, currentGoalQuery, endChatSignal } from '../../core/messages';
import { decide, say, startConversation } from '../helpers/conversation';
import { goalTestbed } from '../helpers/goal-testbed';

/** "The agents" in the README: the input that reaches each agent the picker lists, and how the agent answers it. */
const ENTRY: [input: string, goalId: string, reply: RegExp][] = [
  ['I want to check my PTO', 'goal_hr_pto', /^You're with the PTO assistant now/],
  ['how many days off do I have?', 'goal_hr_check_pto', /^You're with Check PTO/],
  ['is my paycheck deposited?', 'goal_hr_paycheck_bank_status', /^You're with Paycheck deposit status/],
  ['I want to check my account balance', 'goal_fin_check_account_balances', /^You're with Account balances/],
  ['move money', 'goal_fin_move_money', /^You're with Money movement/],
  ["I'd like to apply for a loan", 'goal_fin_loan_application', /^You're with Easy loan/],
  ['where is my order', 'goal_order_status', /^You're with Order status/],
  ['list my orders', 'goal_ecomm_list_orders', /^You're with List all orders/],
  ['events in Melbourne in March', 'goal_event_flight_invoice', /^In Melbourne, March \d{4}: .*Festival/],
  ["I'd like to see a football match", 'goal_match_train_invoice', /^You're with the match day trains agent now\./],
  ['order food', 'goal_food_ordering', /^You're with the food ordering agent now\./],
  ['treasure', 'goal_pirate_treasure', /^Ahoy, matey!/],
  ['I want to exchange currency', 'goal_currency_desk', /^You're with the currency desk now/],
  ['I need the general assistant', 'goal_general', /^You're with the General assistant now/],
  ['I need the stripe agent', 'goal_stripe', /^You're with the Stripe agent now\./],
  ['I need travel money', 'goal_travel_money', /^You're with Travel money now\./],
  ['I need the orchestrator', 'goal_orchestrator', /^You're with the Orchestrator now\./],
  ['I need a new agent', 'goal_agent_builder', /^You're with the Agent builder now\./],
  [
    'trains over the HTTP API',
    'goal_trains_http',
    /^You're with the trains agent that uses the train service's HTTP API/,
  ],
];

const YEAR_MS = 365 * 86_400_000;

describe.each([
  ['today', 0],
  ['a year ahead', YEAR_MS],
])('the offline demo script, as the README tells it (%s)', (_, ahead) => {
  // One instant for the whole file: a run across midnight still has one today.
  const at = new Date(Date.now() + ahead);
  const today = isoDay(at);
  const { bed, steps } = goalTestbed({ rules: [] }, { now: () => at });
  const nextMonday = resolveDay('next Monday', today)!;
  const thursday = addDays(nextMonday, 3);
  const fromPicker = async () => {
    const { handle } = await startConversation(bed.env.client, bed.demo.worker.options.taskQueue, {
      goalId: 'goal_choose_agent',
    });
    return { handle, goal: async () => (await handle.query(currentGoalQuery))?.id };
  };

  it('Quick start: books PTO, then tracks an order without a "bye" in between, and bye ends it', async () => {
    const { handle, goal } = await fromPicker();
    expect((await say(handle, 'I want to check my PTO')).reply).toMatch(/^You're with the PTO assistant now/);
    expect((await say(handle, 'ada@example.com')).reply).toMatch(
      /^Ada Lovelace, you have 104 hours \(13 days\) of PTO left/,
    );
    const proposal = await say(handle, 'book next Monday to Thursday for ada@example.com');
    expect(proposal.pendingToolCall?.call).toMatchObject({
      tool: 'BookPTO',
      args: { startDate: nextMonday, endDate: thursday },
    });
    expect((await decide(handle, { approve: true })).reply).toMatch(
      new RegExp(`^Booked ${nextMonday} to ${thursday}: 32 hours deducted, 72 left\\.`),
    );

    expect((await say(handle, 'where is my order')).reply).toMatch(
      /^You're with Order status now\. What is your order id/,
    );
    expect(await goal()).toBe('goal_order_status');
    expect((await say(handle, 'ORD-1001')).reply).toBe(
      `UPS says: In transit, last seen in Louisville, KY, expected ${addDays(today, 4)}.`,
    );

    // bye: the agent is done (back to the picker); bye again: the conversation is.
    expect((await say(handle, 'bye')).reply).toMatch(/^Done! Anything else\?/);
    expect(await goal()).toBe('goal_choose_agent');
    expect((await say(handle, 'bye')).ended).toBe(true);
    expect((await handle.result()).endedBy).toBe('goal_complete');
  });

  it('carries the request through the switch: "convert 100 USD to EUR" in the picker converts at once', async () => {
    const { handle, goal } = await fromPicker();
    expect((await say(handle, 'convert 100 USD to EUR')).reply).toBe('100 USD is 92 EUR.');
    expect(await goal()).toBe('goal_currency_desk');
    expect((await say(handle, 'rates for GBP')).reply).toMatch(/^Rates for 1 GBP: /);
    expect((await say(handle, 'trade 50 USD to JPY')).pendingToolCall?.call.tool).toBe('fx__book_trade');
    expect((await decide(handle, { approve: true })).reply).toMatch(/^Booked trade T-\d+: 50 USD → [\d.]+ JPY\.$/);
    expect(await steps(handle)).toEqual([
      ['ListAgents', 'ok'],
      ['ChangeGoal', 'ok'],
      ['fx__convert', 'ok'],
      ['fx__get_rates', 'ok'],
      ['fx__book_trade', 'ok'],
    ]);
    await handle.signal(endChatSignal);
  });

  it('reaches every agent the picker lists by its README input, each straight from the one before', async () => {
    const { handle, goal } = await fromPicker();
    expect(ENTRY.map(([, goalId]) => goalId).sort()).toEqual(
      (await handle.query(agentsQuery)).map((a) => a.goalId).sort(),
    );
    for (const [input, goalId, reply] of ENTRY) {
      expect({ input, reply: (await say(handle, input)).reply }).toEqual({
        input,
        reply: expect.stringMatching(reply),
      });
      expect({ input, goal: await goal() }).toEqual({ input, goal: goalId });
    }
    await handle.signal(endChatSignal);
  });

  it('runs the README sequence of the Orchestrator: the PTO and order agents side by side, one combined answer', async () => {
    const { handle, goal } = await fromPicker();
    await say(handle, 'I need the orchestrator');
    expect(await goal()).toBe('goal_orchestrator');
    const reply = await say(handle, 'how much PTO does ada@example.com have, and where is order ORD-1001?');
    // The two delegates run side by side: their answers come in the order they finish, which a busy machine decides.
    expect(reply.reply).toMatch(/^Here is what the agents found\. /);
    expect(reply.reply).toMatch(/Ada Lovelace, you have 104 hours/);
    expect(reply.reply).toMatch(/UPS says: In transit/);
    expect(await steps(handle, 'AskAgent')).toEqual([
      ['AskAgent', 'ok'],
      ['AskAgent', 'ok'],
    ]);
    await handle.signal(endChatSignal);
  });

  it('runs the README sequences of the General assistant, Travel money and Check PTO', async () => {
    const { handle, goal } = await fromPicker();
    await say(handle, 'I need the general assistant');
    expect((await say(handle, 'convert 100 USD to EUR')).reply).toBe('100 USD is 92 EUR.');
    expect((await say(handle, 'rates for GBP')).reply).toMatch(/^Rates for 1 GBP: /);
    expect(await goal()).toBe('goal_general');

    await say(handle, 'I need travel money');
    expect((await say(handle, 'convert 1000 USD to JPY')).reply).toMatch(/^1000 USD is [\d.]+ JPY\.$/);
    expect(await goal()).toBe('goal_travel_money');

    await say(handle, 'how many days off do I have?');
    await say(handle, 'ada@example.com');
    expect((await say(handle, 'next Monday to Thursday for ada@example.com')).reply).toMatch(/say "book time off"/);
    expect((await say(handle, 'book time off')).reply).toMatch(/^You're with the PTO assistant now/);
    expect(await goal()).toBe('goal_hr_pto');
    await handle.signal(endChatSignal);
  });

  it('tells the user why a tool failed, in the reply', async () => {
    const { handle } = await fromPicker();
    await say(handle, 'I want to book time off');
    expect((await say(handle, 'book next Monday to Friday for grace@example.com')).pendingToolCall?.call.tool).toBe(
      'BookPTO',
    );
    expect((await decide(handle, { approve: true })).reply).toBe('Sorry: Not enough PTO: 40 hours needed, 36 left.');
    await handle.signal(endChatSignal);
  });
});

// The finance goals (account balances, money movement, loan application) end to end: a real dev server, a real
// worker, each goal's whole tool sequence with approvals, and the bank's mock data checked after each; then the
// offline demo script (config/scripted-model.json) routing the picker to them, as `npm start` does.
import type { MockStore } from '../../tools/define-tool';
import { demoDay } from '../../tools/mock-data';
import { bankCustomers, loanApplications, transfers } from '../../tools/mock-data/finance';
import { currentGoalQuery, endChatSignal } from '../../core/messages';
import { financeGoalsScript } from '../fixtures/goal-scripts-finance';
import { decide, history, say, startConversation, toolOutcomes } from '../helpers/conversation';
import { goalTestbed } from '../helpers/goal-testbed';

const balances = (store: MockStore, accountId: string) =>
  bankCustomers(store).find((c) => c.accountId === accountId)?.balances;

describe('finance goals on a real Temporal server', () => {
  const { bed, start, steps } = goalTestbed(financeGoalsScript);

  it('goal_fin_check_account_balances: finds the account by email or number, then reads its balances', async () => {
    const before = structuredClone(bankCustomers(bed.worker.store));
    const { handle, greeting } = await start('goal_fin_check_account_balances');
    expect(greeting?.reply).toBe('Account balances here. Your email or account number?');

    expect((await say(handle, 'ada@example.com')).reply).toBe(
      'Ada Lovelace (11235): checking $875.40, savings $3,200.15, bitcoin 0.1378 BTC.',
    );
    expect((await say(handle, 'my account 81321')).reply).toBe(
      'Grace Hopper (81321): checking $2,410.00, savings $150.75, bitcoin 0 BTC.',
    );
    expect((await say(handle, 'account 99999')).reply).toBe('No luck: No account number 99999.');

    const outcomes = toolOutcomes(await history(handle));
    expect(outcomes.map((m) => [m.call.tool, m.outcome.status])).toEqual([
      ['FindAccount', 'ok'],
      ['AccountBalances', 'ok'],
      ['FindAccount', 'ok'],
      ['AccountBalances', 'ok'],
      ['FindAccount', 'tool_error'],
    ]);
    expect(outcomes[0]?.outcome).toEqual({
      status: 'ok',
      result: {
        valid: true,
        accountId: '11235',
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        accounts: ['checking', 'savings'],
      },
    });
    expect(outcomes[1]?.call.args).toEqual({ accountId: '11235' });
    expect(outcomes[1]?.outcome).toMatchObject({
      status: 'ok',
      // A customer for twelve years: since 10 March, twelve years before the demo data's year.
      result: {
        checking: 875.4,
        savings: 3200.15,
        bitcoin: 0.1378,
        customerSince: `${Number(demoDay(bed.worker.store).slice(0, 4)) - 12}-03-10`,
      },
    });

    expect((await say(handle, 'thanks')).ended).toBe(true);
    expect(bankCustomers(bed.worker.store)).toEqual(before);
    expect(transfers(bed.worker.store)).toEqual([]);
  });

  it('goal_fin_move_money: shows the balances, then moves money only once the user approves', async () => {
    const { handle, greeting } = await start('goal_fin_move_money');
    expect(greeting?.reply).toBe('Money movement here. Your email or account number?');
    expect((await say(handle, 'ada@example.com')).reply).toBe(
      'checking $875.40, savings $3,200.15, bitcoin 0.1378 BTC. How much, from where, to where?',
    );

    const proposal = await say(handle, 'move 500 from savings to checking on 11235');
    expect(proposal.reply).toBe('Moving 500 from savings to checking.');
    expect(proposal.pendingToolCall?.call).toMatchObject({
      tool: 'MoveMoney',
      args: { accountId: '11235', from: 'savings', to: 'checking', amount: 500 },
    });
    expect(balances(bed.worker.store, '11235')).toEqual({ checking: 875.4, savings: 3200.15 });

    const done = await decide(handle, { approve: true });
    expect(done.reply).toBe(
      'TRF-0001: Moved $500.00 from savings to your checking. Checking is now $1,375.40, savings $2,700.15.',
    );
    expect(balances(bed.worker.store, '11235')).toEqual({ checking: 1375.4, savings: 2700.15 });

    // To another customer: credited to their checking.
    await say(handle, 'move 100.25 from checking to 81321 on 11235');
    expect((await decide(handle, { approve: true })).reply).toBe(
      'TRF-0002: Moved $100.25 from checking to account 81321 (Grace Hopper). Checking is now $1,275.15, savings $2,700.15.',
    );
    expect(balances(bed.worker.store, '11235')).toEqual({ checking: 1275.15, savings: 2700.15 });
    expect(balances(bed.worker.store, '81321')).toEqual({ checking: 2510.25, savings: 150.75 });
    expect(transfers(bed.worker.store)).toEqual([
      {
        confirmationId: 'TRF-0001',
        accountId: '11235',
        from: 'savings',
        to: 'checking',
        amount: 500,
        on: expect.any(String),
      },
      {
        confirmationId: 'TRF-0002',
        accountId: '11235',
        from: 'checking',
        to: '81321',
        amount: 100.25,
        on: expect.any(String),
      },
    ]);

    expect(await steps(handle)).toEqual([
      ['FindAccount', 'ok'],
      ['AccountBalances', 'ok'],
      ['MoveMoney', 'ok'],
      ['MoveMoney', 'ok'],
    ]);
    const [first] = toolOutcomes(await history(handle), 'MoveMoney');
    expect(first?.outcome).toMatchObject({
      status: 'ok',
      result: { status: 'completed', confirmationId: 'TRF-0001', newBalances: { checking: 1375.4, savings: 2700.15 } },
    });
    expect((await say(handle, 'that is all')).ended).toBe(true);
  });

  it('goal_fin_move_money: a rejected transfer, an overdraft and an unknown payee change nothing', async () => {
    const before = structuredClone(bankCustomers(bed.worker.store));
    const { handle } = await start('goal_fin_move_money');
    await say(handle, 'account 11235');

    await say(handle, 'move 50 from checking to savings on 11235');
    expect((await decide(handle, { approve: false, reason: 'changed my mind' })).reply).toBe(
      'Nothing moved (changed my mind).',
    );
    await say(handle, 'move 5000 from checking to savings on 11235');
    expect((await decide(handle, { approve: true })).reply).toBe(
      'Transfer failed: Not enough money in checking: $5,000.00 asked, $875.40 available.',
    );
    await say(handle, 'move 10 from checking to 99999 on 11235');
    expect((await decide(handle, { approve: true })).reply).toBe(
      'Transfer failed: No account number 99999 to send money to.',
    );

    expect(await steps(handle, 'MoveMoney')).toEqual([
      ['MoveMoney', 'rejected'],
      ['MoveMoney', 'tool_error'],
      ['MoveMoney', 'tool_error'],
    ]);
    expect(bankCustomers(bed.worker.store)).toEqual(before);
    expect(transfers(bed.worker.store)).toEqual([]);
    await handle.signal(endChatSignal);
  });

  it('goal_fin_loan_application: validates the account, then records the application on approval', async () => {
    const before = structuredClone(bankCustomers(bed.worker.store));
    const { handle, greeting } = await start('goal_fin_loan_application');
    expect(greeting?.reply).toBe('Easy loan here. Your email or account number?');
    expect((await say(handle, 'grace@example.com')).reply).toBe('Account 81321 of Grace Hopper is valid. How much?');

    const proposal = await say(handle, 'borrow 5000 over 24 months for a new laptop on 81321');
    expect(proposal.pendingToolCall?.call).toMatchObject({
      tool: 'ApplyForLoan',
      args: { accountId: '81321', amount: 5000, termMonths: 24, purpose: 'a new laptop' },
    });
    expect(loanApplications(bed.worker.store)).toEqual([]);
    expect((await decide(handle, { approve: true })).reply).toBe(
      'Submitted LOAN-0001: 5000 over 24 months, 225.91 a month.',
    );
    expect(loanApplications(bed.worker.store)).toEqual([
      {
        referenceId: 'LOAN-0001',
        accountId: '81321',
        amount: 5000,
        termMonths: 24,
        purpose: 'a new laptop',
        aprPercent: 7.9,
        estimatedMonthlyPayment: 225.91,
        status: 'submitted',
        submittedOn: expect.any(String),
      },
    ]);

    // Over the limit: refused, nothing recorded.
    await say(handle, 'borrow 80000 on 81321');
    expect((await decide(handle, { approve: true })).reply).toBe(
      'Application refused: Easy loans go up to $50,000.00; $80,000.00 needs an appointment with an advisor.',
    );
    expect(await steps(handle)).toEqual([
      ['FindAccount', 'ok'],
      ['ApplyForLoan', 'ok'],
      ['ApplyForLoan', 'tool_error'],
    ]);
    expect(loanApplications(bed.worker.store)).toHaveLength(1);
    // Applying moves no money.
    expect(bankCustomers(bed.worker.store)).toEqual(before);
    expect((await say(handle, 'thanks')).ended).toBe(true);
  });

  it('the offline demo script routes the picker to the three finance agents and runs their tools', async () => {
    const { handle } = await startConversation(bed.env.client, bed.demo.worker.options.taskQueue, {
      goalId: 'goal_choose_agent',
    });
    const goal = async () => (await handle.query(currentGoalQuery))?.id;

    expect((await say(handle, 'I want to check my account balance')).reply).toMatch(/^You're with Account balances/);
    expect(await goal()).toBe('goal_fin_check_account_balances');
    expect((await say(handle, '11235')).reply).toMatch(
      /^Ada Lovelace, your balances: checking \$875\.40, savings \$3,200\.15, bitcoin 0\.1378 BTC/,
    );
    await say(handle, 'bye');

    expect((await say(handle, 'transfer money please')).reply).toMatch(/^You're with Money movement/);
    expect(await goal()).toBe('goal_fin_move_money');
    expect((await say(handle, 'ada@example.com')).reply).toMatch(/How much shall I move, and where\?/);
    const proposal = await say(handle, 'move 500 from savings to checking on 11235');
    expect(proposal.pendingToolCall?.call).toMatchObject({
      tool: 'MoveMoney',
      args: { accountId: '11235', from: 'savings', to: 'checking', amount: 500 },
    });
    expect((await decide(handle, { approve: true })).reply).toMatch(
      /^Done, confirmation TRF-0001\. Moved \$500\.00 from savings to your checking/,
    );
    expect(balances(bed.demo.store, '11235')).toEqual({ checking: 1375.4, savings: 2700.15 });
    await say(handle, 'bye');

    expect((await say(handle, "I'd like to apply for a loan")).reply).toMatch(/^You're with Easy loan/);
    expect(await goal()).toBe('goal_fin_loan_application');
    expect((await say(handle, 'grace@example.com')).reply).toMatch(/^Thanks Grace Hopper, account 81321 is valid/);
    await say(handle, 'borrow 5000 over 24 months on 81321');
    expect((await decide(handle, { approve: true })).reply).toMatch(
      /^Submitted! Your application id is LOAN-0001: \$5000 over 24 months/,
    );
    expect(loanApplications(bed.demo.store)).toMatchObject([
      { referenceId: 'LOAN-0001', accountId: '81321', amount: 5000, termMonths: 24 },
    ]);

    expect(
      (await steps(handle)).filter(([tool]) => !['ListAgents', 'ChangeGoal', 'CompleteGoal'].includes(tool!)),
    ).toEqual([
      ['FindAccount', 'ok'],
      ['AccountBalances', 'ok'],
      ['FindAccount', 'ok'],
      ['AccountBalances', 'ok'],
      ['MoveMoney', 'ok'],
      ['FindAccount', 'ok'],
      ['ApplyForLoan', 'ok'],
    ]);
    await handle.signal(endChatSignal);
  });
});

import { z } from 'zod';
import { defineTool, ToolError } from '../../define-tool';
import { bankCustomers, cents, transfers, usd } from '../../mock-data/finance';
import { accountId, customerById } from './accounts';

export default defineTool({
  name: 'MoveMoney',
  description:
    "Move money out of a customer's checking or savings account: to their other account (to = checking or " +
    "savings) or to another customer's account number (credited to that customer's checking). " +
    'Changes balances: only call it once the user has said how much, from where and to where.',
  category: 'finance',
  // No `approval`: follows SHOW_CONFIRM, so by default the user approves every transfer.
  input: z.object({
    accountId,
    from: z.enum(['checking', 'savings']).describe('Account type the money leaves'),
    to: z.string().describe('"checking", "savings", or another account number'),
    amount: z.number().positive().describe('Amount in USD'),
  }),
  run({ accountId, from, to, amount }, ctx) {
    const customer = customerById(ctx.store, accountId);
    const target = to.trim().toLowerCase().replace(/^#/, '');
    const value = cents(amount);
    if (value <= 0) throw new ToolError('The amount must be at least one cent.');
    if (target === from) throw new ToolError(`The money is already in ${from}.`);
    if (value > customer.balances[from]) {
      throw new ToolError(
        `Not enough money in ${from}: ${usd(value)} asked, ${usd(customer.balances[from])} available.`,
      );
    }
    let recipient: string;
    if (target === 'checking' || target === 'savings') {
      customer.balances[target] = cents(customer.balances[target] + value);
      recipient = `your ${target}`;
    } else {
      const other = bankCustomers(ctx.store).find((c) => c.accountId === target);
      if (!other) throw new ToolError(`No account number ${to} to send money to.`);
      if (other === customer)
        throw new ToolError('Use "checking" or "savings" to move money between your own accounts.');
      other.balances.checking = cents(other.balances.checking + value);
      recipient = `account ${other.accountId} (${other.name})`;
    }
    customer.balances[from] = cents(customer.balances[from] - value);
    const log = transfers(ctx.store);
    const confirmationId = `TRF-${String(log.length + 1).padStart(4, '0')}`;
    log.push({
      confirmationId,
      accountId: customer.accountId,
      from,
      to: target,
      amount: value,
      on: ctx.now().toISOString().slice(0, 10),
    });
    return {
      status: 'completed',
      confirmationId,
      amount: value,
      from,
      to: target,
      newBalances: { ...customer.balances },
      summary: `Moved ${usd(value)} from ${from} to ${recipient}. Checking is now ${usd(customer.balances.checking)}, savings ${usd(customer.balances.savings)}.`,
    };
  },
});

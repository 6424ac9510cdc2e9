import { z } from 'zod';
import { defineTool, ToolError } from '../../define-tool';
import { bankCustomers } from '../../mock-data/finance';
import { customerById } from './accounts';

export default defineTool({
  name: 'FindAccount',
  description:
    "Find and validate a customer's bank account by their email address or their account number. " +
    'Returns the account number the other banking tools need.',
  category: 'finance',
  approval: 'never',
  readOnly: true,
  input: z.object({
    email: z.string().optional().describe('Customer email address'),
    accountId: z.string().optional().describe('Bank account number, e.g. 11235'),
  }),
  run({ email, accountId }, ctx) {
    if (!email?.trim() && !accountId?.trim()) throw new ToolError('Give the email address or the account number.');
    const customer = accountId?.trim()
      ? customerById(ctx.store, accountId)
      : bankCustomers(ctx.store).find((c) => c.email === email!.trim().toLowerCase());
    if (!customer) throw new ToolError(`No account for ${email}.`);
    if (email?.trim() && customer.email !== email.trim().toLowerCase()) {
      throw new ToolError(`Account ${customer.accountId} does not belong to ${email}.`);
    }
    return {
      valid: true,
      accountId: customer.accountId,
      name: customer.name,
      email: customer.email,
      accounts: Object.keys(customer.balances),
    };
  },
});

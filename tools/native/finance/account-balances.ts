import { z } from 'zod';
import { defineTool } from '../../define-tool';
import { usd } from '../../mock-data/finance';
import { accountId, customerById } from './accounts';

export default defineTool({
  name: 'AccountBalances',
  description: "Get a customer's balances: checking, savings (in USD) and bitcoin, by account number.",
  category: 'finance',
  approval: 'never',
  readOnly: true,
  input: z.object({ accountId }),
  run({ accountId }, ctx) {
    const c = customerById(ctx.store, accountId);
    return {
      accountId: c.accountId,
      name: c.name,
      checking: c.balances.checking,
      savings: c.balances.savings,
      bitcoin: c.bitcoin,
      currency: 'USD',
      customerSince: c.customerSince,
      summary: `checking ${usd(c.balances.checking)}, savings ${usd(c.balances.savings)}, bitcoin ${c.bitcoin} BTC`,
    };
  },
});

import { z } from 'zod';
import { defineTool, ToolError } from '../../define-tool';
import { cents, loanApplications, usd } from '../../mock-data/finance';
import { accountId, customerById } from './accounts';

const APR_PERCENT = 7.9;
const MAX_AMOUNT = 50_000;

export default defineTool({
  name: 'ApplyForLoan',
  description:
    `Submit a personal loan application (up to ${usd(MAX_AMOUNT)}, 6 to 84 months) for a validated account. ` +
    'Returns the application reference id and the next step.',
  category: 'finance',
  input: z.object({
    accountId,
    amount: z.number().positive().describe('Loan amount in USD'),
    termMonths: z.number().int().min(6).max(84).optional().describe('Repayment period in months (default 36)'),
    purpose: z.string().optional().describe('What the loan is for, in a few words'),
  }),
  run({ accountId, amount, termMonths = 36, purpose = 'personal' }, ctx) {
    const customer = customerById(ctx.store, accountId);
    const value = cents(amount);
    if (value > MAX_AMOUNT)
      throw new ToolError(
        `Easy loans go up to ${usd(MAX_AMOUNT)}; ${usd(value)} needs an appointment with an advisor.`,
      );
    const monthlyRate = APR_PERCENT / 100 / 12;
    const estimatedMonthlyPayment = cents((value * monthlyRate) / (1 - (1 + monthlyRate) ** -termMonths));
    const applications = loanApplications(ctx.store);
    const referenceId = `LOAN-${String(applications.length + 1).padStart(4, '0')}`;
    const application = {
      referenceId,
      accountId: customer.accountId,
      amount: value,
      termMonths,
      purpose,
      aprPercent: APR_PERCENT,
      estimatedMonthlyPayment,
      status: 'submitted' as const,
      submittedOn: ctx.now().toISOString().slice(0, 10),
    };
    applications.push(application);
    return {
      ...application,
      name: customer.name,
      nextStep: 'Initial checks passed; you will hear about final approval within three business days.',
    };
  },
});

import { z } from 'zod';
import { defineTool } from '../../define-tool';
import { employeeByEmail } from './employees';
import { paycheckDeposits } from '../../mock-data/hr';
import { usd } from '../../mock-data/finance';

export default defineTool({
  name: 'PaycheckBankStatus',
  description:
    "Check the link between payroll and the employee's bank used for paycheck direct deposit: connected, " +
    'pending verification or disconnected, with the last deposit and the next payday.',
  category: 'hr',
  approval: 'never',
  readOnly: true,
  input: z.object({ email: z.string().describe('Employee email address') }),
  run({ email }, ctx) {
    const employee = employeeByEmail(ctx.store, email);
    const wanted = employee.email;
    const deposit = paycheckDeposits(ctx.store).find((d) => d.email === wanted);
    if (!deposit) {
      return {
        email: wanted,
        name: employee.name,
        status: 'not_set_up',
        connected: false,
        summary: 'No bank account is set up for direct deposit; paychecks are mailed.',
      };
    }
    const where = `${deposit.bank} (account ending ${deposit.accountLast4})`;
    const summary =
      deposit.status === 'connected'
        ? `Connected to ${where}.${deposit.lastDeposit ? ` Last deposit ${usd(deposit.lastDeposit.amount)} on ${deposit.lastDeposit.date}.` : ''} Next payday ${deposit.nextPayday}.`
        : deposit.status === 'pending_verification'
          ? `The link to ${where} is waiting for verification. ${deposit.note ?? ''}`.trim()
          : `The link to ${where} is disconnected: update your bank details in the payroll portal before ${deposit.nextPayday}.`;
    return { name: employee.name, ...deposit, connected: deposit.status === 'connected', summary };
  },
});

import { z } from 'zod';
import { defineTool, ToolError } from '../../define-tool';
import { dataset } from '../../mock-data';
import { isoDate } from '../../schemas';
import { businessDaysBetween } from './dates';

export default defineTool({
  name: 'FuturePTOCalc',
  description: 'Work out whether an employee will have enough PTO for a time off, counting what accrues until then.',
  category: 'hr',
  approval: 'never',
  readOnly: true,
  input: z.object({
    email: z.string().describe('Employee email address'),
    startDate: isoDate.describe('First day off, YYYY-MM-DD'),
    endDate: isoDate.describe('Last day off, YYYY-MM-DD'),
  }),
  run({ email, startDate, endDate }, ctx) {
    const employee = dataset(ctx.store, 'employees').find((e) => e.email === email.toLowerCase());
    if (!employee) throw new ToolError(`No employee with email ${email}.`);
    const hoursNeeded = businessDaysBetween(startDate, endDate) * 8;
    const months = Math.max(0, monthsUntil(ctx.now(), new Date(startDate)));
    const hoursAtStart = employee.ptoHoursLeft + months * employee.hoursAccruedPerMonth;
    return {
      hoursNeeded,
      hoursAvailableAtStart: Math.round(hoursAtStart * 10) / 10,
      enough: hoursAtStart >= hoursNeeded,
    };
  },
});

function monthsUntil(from: Date, to: Date): number {
  return (to.getUTCFullYear() - from.getUTCFullYear()) * 12 + (to.getUTCMonth() - from.getUTCMonth());
}

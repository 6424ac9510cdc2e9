import { z } from 'zod';
import { defineTool, ToolError } from '../../define-tool';
import { dataset } from '../../mock-data';
import { isoDate } from '../../schemas';
import { businessDaysBetween } from './dates';

export default defineTool({
  name: 'BookPTO',
  description: 'Book paid time off for an employee, deducting the hours from their balance.',
  category: 'hr',
  input: z.object({
    email: z.string().describe('Employee email address'),
    startDate: isoDate.describe('First day off, YYYY-MM-DD'),
    endDate: isoDate.describe('Last day off, YYYY-MM-DD'),
  }),
  run({ email, startDate, endDate }, ctx) {
    const employee = dataset(ctx.store, 'employees').find((e) => e.email === email.toLowerCase());
    if (!employee) throw new ToolError(`No employee with email ${email}.`);
    const hours = businessDaysBetween(startDate, endDate) * 8;
    if (hours > employee.ptoHoursLeft) {
      throw new ToolError(`Not enough PTO: ${hours} hours needed, ${employee.ptoHoursLeft} left.`);
    }
    employee.ptoHoursLeft -= hours;
    employee.bookings.push({ startDate, endDate, hours });
    return { booked: true, startDate, endDate, hoursDeducted: hours, hoursLeft: employee.ptoHoursLeft };
  },
});

import { defineTool, ToolError } from '../../define-tool';
import { businessDaysBetween } from './dates';
import { employeeByEmail, timeOffInput } from './employees';

export default defineTool({
  name: 'BookPTO',
  description: 'Book paid time off for an employee, deducting the hours from their balance.',
  category: 'hr',
  input: timeOffInput,
  run({ email, startDate, endDate }, ctx) {
    const employee = employeeByEmail(ctx.store, email);
    const hours = businessDaysBetween(startDate, endDate) * 8;
    if (hours > employee.ptoHoursLeft) {
      throw new ToolError(`Not enough PTO: ${hours} hours needed, ${employee.ptoHoursLeft} left.`);
    }
    employee.ptoHoursLeft -= hours;
    employee.bookings.push({ startDate, endDate, hours });
    return { booked: true, startDate, endDate, hoursDeducted: hours, hoursLeft: employee.ptoHoursLeft };
  },
});

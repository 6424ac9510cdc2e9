import { defineTool } from '../../define-tool';
import { businessDaysBetween } from './dates';
import { employeeByEmail, timeOffInput } from './employees';

export default defineTool({
  name: 'FuturePTOCalc',
  description: 'Work out whether an employee will have enough PTO for a time off, counting what accrues until then.',
  category: 'hr',
  approval: 'never',
  readOnly: true,
  input: timeOffInput,
  run({ email, startDate, endDate }, ctx) {
    const employee = employeeByEmail(ctx.store, email);
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

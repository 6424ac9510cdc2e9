import { z } from 'zod';
import { defineTool } from '../../define-tool';
import { employeeByEmail } from './employees';

export default defineTool({
  name: 'CurrentPTO',
  description: 'Look up how many hours of paid time off an employee has left today.',
  category: 'hr',
  approval: 'never',
  readOnly: true,
  input: z.object({ email: z.string().describe('Employee email address') }),
  run({ email }, ctx) {
    const employee = employeeByEmail(ctx.store, email);
    return {
      email: employee.email,
      name: employee.name,
      hoursLeft: employee.ptoHoursLeft,
      daysLeft: employee.ptoHoursLeft / 8,
    };
  },
});

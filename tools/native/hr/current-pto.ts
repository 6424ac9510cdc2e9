import { z } from 'zod';
import { defineTool, ToolError } from '../../define-tool';
import { dataset } from '../../mock-data';

export default defineTool({
  name: 'CurrentPTO',
  description: 'Look up how many hours of paid time off an employee has left today.',
  category: 'hr',
  approval: 'never',
  readOnly: true,
  input: z.object({ email: z.string().describe('Employee email address') }),
  run({ email }, ctx) {
    const employee = dataset(ctx.store, 'employees').find((e) => e.email === email.toLowerCase());
    if (!employee) throw new ToolError(`No employee with email ${email}.`);
    return {
      email: employee.email,
      name: employee.name,
      hoursLeft: employee.ptoHoursLeft,
      daysLeft: employee.ptoHoursLeft / 8,
    };
  },
});

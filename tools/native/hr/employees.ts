// What the HR tools share (not a tool: no default export): an employee found by email, and a time off as the PTO
// tools take it.
import { z } from 'zod';
import { ToolError, type MockStore } from '../../define-tool';
import { dataset, type Employee } from '../../mock-data';
import { isoDate } from '../../schemas';

/** The employee with this email (any case); a tool error the LLM can read when there is none. */
export function employeeByEmail(store: MockStore, email: string): Employee {
  const employee = dataset(store, 'employees').find((e) => e.email === email.trim().toLowerCase());
  if (!employee) throw new ToolError(`No employee with email ${email}.`);
  return employee;
}

export const timeOffInput = z.object({
  email: z.string().describe('Employee email address'),
  startDate: isoDate.describe('First day off, YYYY-MM-DD'),
  endDate: isoDate.describe('Last day off, YYYY-MM-DD'),
});

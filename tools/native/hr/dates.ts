// Date helpers shared by the PTO tools (not a tool: no default export).
import { ToolError } from '../../define-tool';

/** Weekdays from start to end, both included. */
export function businessDaysBetween(start: string, end: string): number {
  const from = new Date(`${start}T00:00:00Z`);
  const to = new Date(`${end}T00:00:00Z`);
  if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime()))
    throw new ToolError('Dates must be valid YYYY-MM-DD dates.');
  if (to < from) throw new ToolError('The end date is before the start date.');
  let days = 0;
  for (const d = new Date(from); d <= to; d.setUTCDate(d.getUTCDate() + 1)) {
    const weekday = d.getUTCDay();
    if (weekday !== 0 && weekday !== 6) days++;
  }
  return days;
}

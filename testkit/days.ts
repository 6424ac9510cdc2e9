// Dates for tests, counted from a today (the machine's, or a test's clock) so that no test depends on the calendar:
// `week(4)` is the Monday four weeks after this week's, `week(4, 3)` that week's Thursday.
import { addDays, isoDay, mondayOfWeek } from '../core/days';

export function week(weeks: number, weekday = 0, today: string = isoDay(new Date())): string {
  return addDays(mondayOfWeek(today, weeks), weekday);
}

// Day phrases are read relative to a given today, never the machine's calendar. The today given is a Wednesday
// counted from the clock, and every expectation is counted from it.
import { addDays, addMonths, isoDay, MONTHS, mondayOfWeek, resolveDay, resolveMonth, weekdayOf } from '../../core/days';

const thisMonday = mondayOfWeek(isoDay(new Date()));
const today = addDays(thisMonday, 2);
const year = Number(today.slice(0, 4));
const month = today.slice(0, 7);
/** "March 12" for a day: how people write it. */
const spoken = (day: string) => `${MONTHS[Number(day.slice(5, 7)) - 1]} ${Number(day.slice(8, 10))}`;

describe('resolveDay', () => {
  it('keeps an ISO date, refuses one the calendar lacks, reads today and tomorrow', () => {
    expect(resolveDay(addDays(today, 30), today)).toBe(addDays(today, 30));
    expect(resolveDay(`${year}-02-30`, today)).toBeUndefined();
    expect(resolveDay('Today', today)).toBe(today);
    expect(resolveDay('tomorrow', today)).toBe(addDays(today, 1));
  });

  it('reads "next Monday" as that day of the week after this one, a bare weekday as the next one', () => {
    expect(weekdayOf(today)).toBe(3);
    expect(resolveDay('next Monday', today)).toBe(addDays(thisMonday, 7));
    expect(resolveDay('next Sunday', today)).toBe(addDays(thisMonday, 13));
    expect(resolveDay('Thursday', today)).toBe(addDays(today, 1));
    expect(resolveDay('Wednesday', today)).toBe(addDays(today, 7));
    // On a Sunday, next Monday is tomorrow.
    expect(resolveDay('next Monday', addDays(thisMonday, 6))).toBe(addDays(thisMonday, 7));
  });

  it('reads the end of a range on or after its start', () => {
    const start = addDays(thisMonday, 7);
    expect(resolveDay('Thursday', today, start)).toBe(addDays(start, 3));
    expect(resolveDay('Monday', today, start)).toBe(start);
  });

  it('reads "in N days/weeks" and a month and day, the next time it comes round', () => {
    expect(resolveDay('in 3 days', today)).toBe(addDays(today, 3));
    expect(resolveDay('in 2 weeks', today)).toBe(addDays(today, 14));
    expect(resolveDay(spoken(today), today)).toBe(today);
    expect(resolveDay(spoken(addDays(today, 10)), today)).toBe(addDays(today, 10));
    // Ten days ago comes round next year (a 29 February has none next year: take the 28th instead).
    const past = addDays(today, -10).endsWith('-02-29') ? addDays(today, -11) : addDays(today, -10);
    expect(resolveDay(spoken(past), today)).toBe(`${Number(past.slice(0, 4)) + 1}${past.slice(4)}`);
    expect(resolveDay(`${spoken(today).slice(0, 3)} ${Number(today.slice(8))}`, today)).toBe(today);
    expect(resolveDay('someday', today)).toBeUndefined();
  });
});

describe('resolveMonth', () => {
  const name = (m: string) => MONTHS[Number(m.slice(5, 7)) - 1]!;

  it('reads months relative to today', () => {
    expect(resolveMonth('next month', today)).toBe(addMonths(month, 1));
    expect(resolveMonth('this month', today)).toBe(month);
    expect(resolveMonth('in 3 months', today)).toBe(addMonths(month, 3));
    expect(resolveMonth(name(month), today)).toBe(month);
    expect(resolveMonth(name(addMonths(month, -1)), today)).toBe(addMonths(month, 11));
    expect(resolveMonth(`${name(month)} ${year + 4}`, today)).toBe(`${year + 4}${month.slice(4)}`);
    expect(resolveMonth(`${year}-13`, today)).toBeUndefined();
  });

  it('reads a bare month number, a short ISO month and a comma before the year', () => {
    expect(resolveMonth(String(Number(month.slice(5))), today)).toBe(month);
    expect(resolveMonth(`${year}-${Number(addMonths(month, 1).slice(5))}`, today)).toBe(
      `${year}-${addMonths(month, 1).slice(5)}`,
    );
    expect(resolveMonth(`${name(month).slice(0, 3)}, ${year + 4}`, today)).toBe(`${year + 4}${month.slice(4)}`);
    expect(resolveMonth('13', today)).toBeUndefined();
  });

  it('moves months and weeks', () => {
    expect(addMonths(`${year}-01`, -1)).toBe(`${year - 1}-12`);
    expect(mondayOfWeek(addDays(thisMonday, 6), 1)).toBe(addDays(thisMonday, 7));
  });
});

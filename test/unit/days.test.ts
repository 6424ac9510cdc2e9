// Day phrases are read relative to a given today, never the machine's calendar.
import { addMonths, mondayOfWeek, resolveDay, resolveMonth } from '../../core/days';

describe('resolveDay', () => {
  // A Wednesday.
  const today = '2031-07-02';

  it('keeps an ISO date, reads today and tomorrow', () => {
    expect(resolveDay('2031-08-01', today)).toBe('2031-08-01');
    expect(resolveDay('2031-02-30', today)).toBeUndefined();
    expect(resolveDay('Today', today)).toBe(today);
    expect(resolveDay('tomorrow', today)).toBe('2031-07-03');
  });

  it('reads "next Monday" as that day of the week after this one, a bare weekday as the next one', () => {
    expect(resolveDay('next Monday', today)).toBe('2031-07-07');
    expect(resolveDay('next Sunday', today)).toBe('2031-07-13');
    expect(resolveDay('Thursday', today)).toBe('2031-07-03');
    expect(resolveDay('Wednesday', today)).toBe('2031-07-09');
    expect(resolveDay('next Monday', '2031-07-06')).toBe('2031-07-07');
  });

  it('reads the end of a range on or after its start', () => {
    expect(resolveDay('Thursday', today, '2031-07-07')).toBe('2031-07-10');
    expect(resolveDay('Monday', today, '2031-07-07')).toBe('2031-07-07');
  });

  it('reads "in N days/weeks" and a month and day, the next time it comes round', () => {
    expect(resolveDay('in 3 days', today)).toBe('2031-07-05');
    expect(resolveDay('in 2 weeks', today)).toBe('2031-07-16');
    expect(resolveDay('March 12', today)).toBe('2032-03-12');
    expect(resolveDay('jul 2', today)).toBe(today);
    expect(resolveDay('Dec 31', today)).toBe('2031-12-31');
    expect(resolveDay('someday', today)).toBeUndefined();
  });
});

describe('resolveMonth', () => {
  it('reads months relative to today', () => {
    expect(resolveMonth('next month', '2031-12-15')).toBe('2032-01');
    expect(resolveMonth('this month', '2031-12-15')).toBe('2031-12');
    expect(resolveMonth('in 3 months', '2031-11-15')).toBe('2032-02');
    expect(resolveMonth('March', '2031-07-02')).toBe('2032-03');
    expect(resolveMonth('July', '2031-07-02')).toBe('2031-07');
    expect(resolveMonth('March 2035', '2031-07-02')).toBe('2035-03');
    expect(resolveMonth('2031-13', '2031-07-02')).toBeUndefined();
    expect(resolveMonth('3', '2031-07-02')).toBe('2032-03');
    expect(resolveMonth('2031-9', '2031-07-02')).toBe('2031-09');
    expect(resolveMonth('mar, 2035', '2031-07-02')).toBe('2035-03');
    expect(resolveMonth('13', '2031-07-02')).toBeUndefined();
  });

  it('moves months and weeks', () => {
    expect(addMonths('2031-01', -1)).toBe('2030-12');
    expect(mondayOfWeek('2031-07-06', 1)).toBe('2031-07-07');
  });
});

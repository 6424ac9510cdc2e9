// Calendar days as the demo and the tools speak them: ISO dates (YYYY-MM-DD, UTC) and the relative phrases people
// type ("next Monday", "Thursday", "in 2 weeks", "March 12"). Every answer is relative to a day it is given, never
// to the machine's calendar, so the demo and its tests mean the same on any day.

export const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
export const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
] as const;

const DAY_MS = 86_400_000;
const WEEKDAY = `(?:mon|tues|wednes|thurs|fri|satur|sun)day`;
const MONTH_NAME = `(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*`;

/** A regex (no groups of its own) for every day phrase `resolveDay` reads; `{day}` in a script's rule stands for it. */
export const DAY_PHRASE = `(?:\\d{4}-\\d{2}-\\d{2}|today|tomorrow|(?:next |this )?${WEEKDAY}|in \\d+ (?:days?|weeks?)|${MONTH_NAME} \\d{1,2})`;
/** The same for months (`resolveMonth`); `{month}` in a script's rule. */
export const MONTH_PHRASE = `(?:\\d{4}-\\d{2}|this month|next month|in \\d+ months?|${MONTH_NAME}(?: \\d{4})?)`;

/** The UTC day of an instant, as YYYY-MM-DD. */
export function isoDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** `day` moved by `n` days (negative: back). */
export function addDays(day: string, n: number): string {
  return isoDay(new Date(toMs(day) + n * DAY_MS));
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((toMs(to) - toMs(from)) / DAY_MS);
}

/** 0 = Sunday … 6 = Saturday. */
export function weekdayOf(day: string): number {
  return new Date(toMs(day)).getUTCDay();
}

/** The first `weekday` (0 = Sunday) on or after `day`. */
export function onOrAfter(day: string, weekday: number): string {
  return addDays(day, (weekday - weekdayOf(day) + 7) % 7);
}

/** The Monday of the week `weeks` after the one holding `day` (weeks start on Monday). */
export function mondayOfWeek(day: string, weeks = 0): string {
  return addDays(day, -((weekdayOf(day) + 6) % 7) + 7 * weeks);
}

/** YYYY-MM of `day` moved by `n` months. */
export function addMonths(month: string, n: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const index = y * 12 + (m - 1) + n;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/**
 * The ISO day a phrase means, seen from `today`: an ISO date as it is; today, tomorrow; "next Monday" (that day in
 * the week after this one); "Monday" (the next one after `today`, or on or after `from` when given: the end of
 * "Monday to Thursday"); "in 3 days", "in 2 weeks"; "March 12" (the next time it comes round). Undefined when the
 * phrase is none of these.
 */
export function resolveDay(phrase: string, today: string, from?: string): string | undefined {
  const text = phrase.trim().toLowerCase();
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return isRealDay(text) ? text : undefined;
  if (text === 'today') return today;
  if (text === 'tomorrow') return addDays(today, 1);
  const weekday = /^(next |this )?(\w+day)$/.exec(text);
  const index = weekday ? WEEKDAYS.indexOf(weekday[2] as (typeof WEEKDAYS)[number]) : -1;
  if (weekday && index >= 0) {
    if (weekday[1] === 'next ') return addDays(mondayOfWeek(today, 1), (index + 6) % 7);
    return from ? onOrAfter(from, index) : onOrAfter(addDays(today, 1), index);
  }
  const ahead = /^in (\d+) (day|week)s?$/.exec(text);
  if (ahead) return addDays(today, Number(ahead[1]) * (ahead[2] === 'week' ? 7 : 1));
  const dated = /^([a-z]+) (\d{1,2})$/.exec(text);
  const month = dated ? monthIndex(dated[1]!) : -1;
  if (dated && month >= 0) {
    const year = Number(today.slice(0, 4));
    const day = Number(dated[2]);
    const candidate = isoOf(year, month, day);
    if (!candidate) return undefined;
    return candidate >= today ? candidate : isoOf(year + 1, month, day);
  }
  return undefined;
}

/** The YYYY-MM a phrase means, seen from `today`: "2027-03" (or "2027-3"), "this month", "next month", "in 2
 * months", "March" or "3" (the next time it comes round, this month included), "March 2027", "mar, 2027". */
export function resolveMonth(phrase: string, today: string): string | undefined {
  const text = phrase.trim().toLowerCase().replace(/,/g, '');
  const current = today.slice(0, 7);
  const iso = /^(\d{4})-(\d{1,2})$/.exec(text);
  if (iso) return Number(iso[2]) >= 1 && Number(iso[2]) <= 12 ? `${iso[1]}-${iso[2]!.padStart(2, '0')}` : undefined;
  if (text === 'this month') return current;
  if (text === 'next month') return addMonths(current, 1);
  const ahead = /^in (\d+) months?$/.exec(text);
  if (ahead) return addMonths(current, Number(ahead[1]));
  const named = /^([a-z]+|\d{1,2})(?:\s+(\d{4}))?$/.exec(text);
  const month = !named ? -1 : /^\d+$/.test(named[1]!) ? Number(named[1]) - 1 : monthIndex(named[1]!);
  if (month > 11) return undefined;
  if (!named || month < 0) return undefined;
  const wanted = String(month + 1).padStart(2, '0');
  if (named[2]) return `${named[2]}-${wanted}`;
  const year = Number(today.slice(0, 4));
  return `${wanted < current.slice(5) ? year + 1 : year}-${wanted}`;
}

function monthIndex(name: string): number {
  return name.length >= 3 ? MONTHS.findIndex((m) => m.startsWith(name)) : -1;
}

function isoOf(year: number, monthIndex0: number, day: number): string | undefined {
  const at = new Date(Date.UTC(year, monthIndex0, day));
  return at.getUTCMonth() === monthIndex0 ? isoDay(at) : undefined;
}

/** A day the calendar has (not 2031-02-30, which Date would roll over into March). */
function isRealDay(day: string): boolean {
  const ms = toMs(day);
  return !Number.isNaN(ms) && isoDay(new Date(ms)) === day;
}

function toMs(day: string): number {
  return Date.parse(`${day}T00:00:00Z`);
}

// The recall part's data: the held-out set is an honest test (each question asks for its fact without naming the
// answer), and the generated notes are the same on every run, all different, and dated by no calendar.
import { generatedNotes } from './recall-notes';
import { RECALL_SET } from './recall-set';

/** YYYY-MM-DD anywhere (test/unit/no-calendar-dates.test.ts guards docs and tests; the bench's data is kept so too). */
const CALENDAR_DATE = /(?:19|20)\d{2}-\d{2}-\d{2}/;

describe('the held-out set', () => {
  it('has 50 different facts, each asked for once, its answer in the fact and never in the question', () => {
    expect(RECALL_SET).toHaveLength(50);
    expect(new Set(RECALL_SET.map((f) => f.fact)).size).toBe(50);
    expect(new Set(RECALL_SET.map((f) => f.question)).size).toBe(50);
    const lower = (s: string) => s.toLowerCase();
    expect(RECALL_SET.filter((f) => !lower(f.fact).includes(lower(f.answer)))).toEqual([]);
    expect(RECALL_SET.filter((f) => lower(f.question).includes(lower(f.answer)))).toEqual([]);
  });

  it('writes no calendar dates', () => {
    expect(RECALL_SET.filter((f) => CALENDAR_DATE.test(f.fact + f.question))).toEqual([]);
  });
});

describe('generatedNotes', () => {
  it('makes the same notes every time, all different, none a held-out fact, no calendar dates', () => {
    const notes = generatedNotes(2000);
    expect(generatedNotes(2000)).toEqual(notes);
    expect(new Set(notes).size).toBe(2000);
    const facts = new Set(RECALL_SET.map((f) => f.fact));
    expect(notes.filter((n) => facts.has(n) || CALENDAR_DATE.test(n))).toEqual([]);
  });
});

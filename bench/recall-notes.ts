// Generated memories for the recall part: the notes an owner's agents kept over months (trips taken, orders made,
// meetings, meals), deterministic (a seeded generator), every one different, in the same words as the held-out facts'
// topics (hotel, flight, order, leave, manager…) so that they compete with them for a question, but none stating one
// of the standing facts the questions ask for. Times are relative ("last spring"): no calendar dates.
import { seeded } from './seeded';

const CITIES = ['Porto', 'Oslo', 'Madrid', 'Denver', 'Kyoto', 'Nairobi', 'Dublin', 'Seville', 'Austin', 'Prague'];
const PEOPLE = ['Ana', 'Ben', 'Chloe', 'Dev', 'Elif', 'Farid', 'Greta', 'Hugo', 'Ines', 'Jules', 'Kofi', 'Lena'];
const WHEN = [
  'last week',
  'last month',
  'two months ago',
  'last spring',
  'over the winter',
  'a while back',
  'on the last trip',
  'this quarter',
];
const ITEMS = ['kettle', 'backpack', 'desk lamp', 'rain jacket', 'phone case', 'yoga mat', 'blender', 'headphones'];
const ADJECTIVES = ['great', 'noisy', 'overpriced', 'friendly', 'slow', 'excellent', 'cramped', 'spotless'];
const DISHES = ['ramen', 'paella', 'tacos', 'curry', 'dumplings', 'grilled fish', 'risotto', 'falafel'];
const PROJECTS = ['billing revamp', 'search migration', 'onboarding flow', 'data warehouse', 'mobile release'];
const BOOKS = ['a history of Rome', 'a novel about sailors', 'a guide to sourdough', 'a biography of a chess player'];

type Pick = <T>(xs: readonly T[]) => T;

/** Each a sentence from a few picks: hundreds of thousands of different ones. */
const TEMPLATES: ((p: Pick) => string)[] = [
  (p) => `The hotel in ${p(CITIES)} was ${p(ADJECTIVES)} ${p(WHEN)}; the breakfast was ${p(ADJECTIVES)}.`,
  (p) => `Flew to ${p(CITIES)} ${p(WHEN)} with ${p(PEOPLE)}; the flight was ${p(ADJECTIVES)}.`,
  (p) => `Ordered a ${p(ITEMS)} ${p(WHEN)} as a present for ${p(PEOPLE)}; it arrived ${p(ADJECTIVES)}.`,
  (p) => `Returned the ${p(ITEMS)} bought ${p(WHEN)} because it was ${p(ADJECTIVES)}.`,
  (p) => `${p(PEOPLE)} is leading the ${p(PROJECTS)} project ${p(WHEN)} and asked for a review.`,
  (p) => `Had ${p(DISHES)} in ${p(CITIES)} ${p(WHEN)} with ${p(PEOPLE)}; the place was ${p(ADJECTIVES)}.`,
  (p) => `Took a day of leave ${p(WHEN)} to help ${p(PEOPLE)} move flat in ${p(CITIES)}.`,
  (p) => `Wants to read ${p(BOOKS)} after ${p(PEOPLE)} recommended it ${p(WHEN)}.`,
  (p) => `The train from ${p(CITIES)} to ${p(CITIES)} ${p(WHEN)} was ${p(ADJECTIVES)}.`,
  (p) => `Met ${p(PEOPLE)}'s manager about the ${p(PROJECTS)} ${p(WHEN)}; the meeting was ${p(ADJECTIVES)}.`,
  (p) => `The ${p(ITEMS)} from the order ${p(WHEN)} broke; ${p(PEOPLE)} suggested another shop.`,
  (p) => `Stayed with ${p(PEOPLE)} in ${p(CITIES)} ${p(WHEN)} instead of a hotel.`,
];

/** `n` different notes, the same ones on every run (the generator's seed fixed). */
export function generatedNotes(n: number, seed = 42): string[] {
  const random = seeded(seed);
  const pick: Pick = (xs) => xs[Math.floor(random() * xs.length)]!;
  const notes = new Set<string>();
  while (notes.size < n) notes.add(TEMPLATES[Math.floor(random() * TEMPLATES.length)]!(pick));
  return [...notes];
}

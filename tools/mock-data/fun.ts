// Offline data for the pirate treasure hunt: where the treasure lies, the hints on the map, and each crew's
// progress (hints given, guesses made, treasure found).
import type { MockStore } from '../define-tool';
import { seeded } from './index';

export const TREASURE = {
  address: '300 Lenora St',
  city: 'Seattle',
  state: 'Washington',
  stateAbbrev: 'WA',
  country: 'USA',
  loot: 'a chest of 1,000 gold doubloons and a parrot that never forgets a workflow',
};

/** In the order the map gives them away: from the vague to the giveaway. */
export const HINTS = [
  "Arr, the treasure be buried in the country o' the USA.",
  "It lies in the state o' Washington, where the rain never stops.",
  "Sail for the city o' Seattle, matey.",
  'X marks a company headquarters, not a sandy beach.',
  "That company's craft began as a project called Cadence.",
  "Its crew builds code that keeps sailin' no matter what storm crashes it.",
  "The spot be number three hundred on Lenora Street. Ye can't miss it now!",
];

export interface TreasureHunt {
  crew: string;
  hintsGiven: number;
  guesses: { address: string; city: string; state: string }[];
  found: boolean;
}

export const treasureHunts = (store: MockStore) => seeded<Record<string, TreasureHunt>>(store, 'treasureHunts', {});

/** The hunt of one crew (a player's name; every unnamed player sails with "crew"), started on first use. */
export function huntOf(store: MockStore, crew: string): TreasureHunt {
  const key = crew.trim().toLowerCase() || 'crew';
  const hunts = treasureHunts(store);
  hunts[key] ??= { crew: key, hintsGiven: 0, guesses: [], found: false };
  return hunts[key];
}

import { z } from 'zod';
import { defineTool } from '../../define-tool';
import { huntOf, TREASURE } from '../../mock-data/fun';

const normalise = (s: string) =>
  s
    .toLowerCase()
    .replace(/[.,#]/g, ' ')
    .replace(/\bstreet\b/g, 'st')
    .replace(/\s+/g, ' ')
    .trim();

export default defineTool({
  name: 'GuessTreasureLocation',
  description: 'Dig for the treasure at an address the player guesses: street address, city and state.',
  category: 'fun',
  approval: 'never',
  input: z.object({
    address: z.string().describe('Street address, e.g. 123 Main St'),
    city: z.string().describe('City'),
    state: z.string().describe('State, full name or two-letter code'),
    crew: z.string().optional().describe("The player's pirate name, if they gave one"),
  }),
  run({ address, city, state, crew }, ctx) {
    // Without a pirate name, each conversation is its own crew.
    const hunt = huntOf(ctx.store, crew ?? ctx.conversationId ?? 'crew');
    hunt.guesses.push({ address, city, state });
    const s = normalise(state);
    const found =
      normalise(address).includes(normalise(TREASURE.address).replace(/ st$/, '')) &&
      normalise(city) === normalise(TREASURE.city) &&
      (s === normalise(TREASURE.state) || s === normalise(TREASURE.stateAbbrev));
    if (found) hunt.found = true;
    const message = found
      ? `Shiver me timbers! Ye dug at ${address}, ${city} and found ${TREASURE.loot}!`
      : `Nothin' but sand at ${address}, ${city}, ${state}. Want another hint?`;
    return { treasureFound: found, guesses: hunt.guesses.length, hintsUsed: hunt.hintsGiven, message };
  },
});

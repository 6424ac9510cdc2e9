import { z } from 'zod';
import { defineTool } from '../../define-tool';
import { HINTS, huntOf } from '../../mock-data/fun';

export default defineTool({
  name: 'GiveHint',
  description:
    'Read the next hint off the treasure map: each call gives the following hint, from vague to obvious. ' +
    'Hints are counted per crew (per conversation when no name is given).',
  category: 'fun',
  approval: 'never',
  input: z.object({ crew: z.string().optional().describe("The player's pirate name, if they gave one") }),
  run({ crew }, ctx) {
    // Without a pirate name, each conversation is its own crew.
    const hunt = huntOf(ctx.store, crew ?? ctx.conversationId ?? 'crew');
    const index = Math.min(hunt.hintsGiven, HINTS.length - 1);
    if (hunt.hintsGiven < HINTS.length) hunt.hintsGiven++;
    return { hintNumber: index + 1, hint: HINTS[index], hintsLeft: HINTS.length - hunt.hintsGiven };
  },
});

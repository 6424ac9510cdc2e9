// The text-only turn on an unversioned worker (WORKER_VERSIONING=off): beside the versioned one, what pinning
// conversations to their build costs a turn.
import type { ChatTurnSpec } from '../scenario';
import { textTurn } from './text-turn';

export const unversionedTextTurn: ChatTurnSpec = {
  ...textTurn,
  name: 'text-only turn, unversioned',
  slug: 'text-unversioned',
  description: 'The text-only turn on a worker with WORKER_VERSIONING=off (the others are versioned, the default).',
  unversioned: true,
};

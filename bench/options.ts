// What `npm run bench` runs: which parts, and how many of everything. No knobs: each part has fixed counts for a full
// run (FULL) and for `--quick` (QUICK: every part with small counts, a smoke test for CI, too few to compare runs by),
// side by side below. The command line is `npm run bench -- [--quick] [part…]`; no part named runs them all.
// TEMPORAL_ADDRESS (with the TEMPORAL_* settings the worker reads) runs the bench on an existing server.

/** In the order a whole run takes them. */
export const PARTS = [
  'turns',
  'peer',
  'one-model-wait',
  'mcp',
  'a2a',
  'unattended',
  'recall',
  'durability',
  'api',
  'memory',
  'scale',
] as const;
export type PartName = (typeof PARTS)[number];

// Each part's counts, as types: part-options.ts.
export type * from './part-options';
import type { Counts } from './part-options';

/** `npm run bench`: every part with its full counts. */
export const FULL: Counts = {
  turns: { iterations: 200, warmup: 20, turnsPerConversation: 50 },
  oneModelWait: { latenciesMs: [100, 300], runs: 3, iterations: 20 },
  mcp: {
    calls: 100,
    warmup: 20,
    turnsPerConversation: 50,
    coldRuns: 5,
    endpointCounts: [1, 10, 20],
    warmHitsPerPool: 200,
    warmRelistsPerPool: 20,
  },
  a2a: { turns: 100, warmup: 10, turnsPerConversation: 25 },
  unattended: { runs: 20, warmup: 2 },
  recall: { sizes: [10, 10_000], recalls: 200, warmup: 20, turns: 200, turnWarmup: 20, turnsPerConversation: 25 },
  durability: { historyTurns: 300, recoveryRuns: 3 },
  api: {
    firstTokenTurns: 30,
    warmup: 3,
    ttftMs: 200,
    chunkMs: 20,
  },
  memory: {
    sizes: [200, 1000],
    runs: 3,
    turns: 2,
    concurrency: 20,
    settleMs: 5000,
  },
  scale: {
    active: 100,
    turns: 10,
    starts: 1000,
    startConcurrency: 100,
    thinkMs: [5000, 2500],
    pacedSeconds: 45,
  },
  peer: { textTurns: 400, toolTurns: 80, slowTurns: 40, latencyMs: 300, blocks: 4, warmup: 10 },
};

/**
 * `npm run bench -- --quick`: every part once through with small counts, to keep the bench from rotting. The model
 * latencies are shorter too (their waits would dominate); no worker kills (each costs a heartbeat timeout, ~12 s).
 */
export const QUICK: Counts = {
  turns: { iterations: 10, warmup: 2, turnsPerConversation: 50 },
  oneModelWait: { latenciesMs: [100], runs: 1, iterations: 3 },
  mcp: {
    calls: 5,
    warmup: 2,
    turnsPerConversation: 50,
    coldRuns: 1,
    endpointCounts: [1, 2],
    warmHitsPerPool: 200,
    warmRelistsPerPool: 5,
  },
  a2a: { turns: 3, warmup: 1, turnsPerConversation: 25 },
  unattended: { runs: 3, warmup: 1 },
  recall: { sizes: [10, 1000], recalls: 50, warmup: 5, turns: 10, turnWarmup: 2, turnsPerConversation: 25 },
  durability: { historyTurns: 5, recoveryRuns: 0 },
  api: {
    firstTokenTurns: 3,
    warmup: 1,
    ttftMs: 50,
    chunkMs: 5,
  },
  memory: { sizes: [20], runs: 1, turns: 1, concurrency: 10, settleMs: 500 },
  scale: {
    active: 10,
    turns: 2,
    starts: 20,
    startConcurrency: 10,
    thinkMs: [1000],
    pacedSeconds: 3,
  },
  peer: { textTurns: 4, toolTurns: 2, slowTurns: 2, latencyMs: 100, blocks: 1, warmup: 1 },
};

export interface Plan {
  quick: boolean;
  /** In PARTS order, whatever the order on the command line. */
  parts: PartName[];
  counts: Counts;
}

export const USAGE = `npm run bench -- [--quick] [part…]; parts: ${PARTS.join(', ')} (none named: all)`;

/** Finished investigations, parts no more: their figures are recorded in bench/README.md, their code in git (the last
 * commit that had each). */
export const RETIRED_PARTS: Readonly<Record<string, string>> = {
  'round-trips': '425520e',
  delegation: '425520e',
  sandbox: '425520e',
  'made-tools': '425520e',
  'run-view': '425520e',
  'tool-step': 'ae21cd1',
  'http-apis': 'ae21cd1',
  files: 'ae21cd1',
  worker: 'ae21cd1',
  'tool-search': 'ae21cd1',
};

/** The command line: `--quick` and part names. Throws, with the usage, on anything else. */
export function readPlan(argv: string[] = process.argv.slice(2)): Plan {
  const retired = argv.find((a) => Object.hasOwn(RETIRED_PARTS, a));
  if (retired) {
    throw new Error(
      `${retired}: no longer a part; the figures it measured are in bench/README.md, and \`git checkout ${RETIRED_PARTS[retired]} -- bench\` brings its code back to run it`,
    );
  }
  const unknown = argv.filter((a) => a !== '--quick' && !(PARTS as readonly string[]).includes(a));
  if (unknown.length) throw new Error(`unknown argument ${unknown.join(' ')}. Usage: ${USAGE}`);
  const named = PARTS.filter((p) => argv.includes(p));
  const quick = argv.includes('--quick');
  return { quick, parts: named.length ? named : [...PARTS], counts: quick ? QUICK : FULL };
}

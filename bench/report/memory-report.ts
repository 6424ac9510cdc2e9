// Memory per cached conversation (issue 29): MB per conversation at each N, greeted and after the turns, min /
// median / max over the runs, the median against the target.
import type { MemoryOptions } from '../options';
import { summarize, table } from '../stats';
import { judge } from '../verdict';

/** Issue 29, item 3: worker memory per cached idle conversation. */
export const MB_PER_CONVERSATION_TARGET = 0.5;

/** RSS of the worker process, bytes: `settleMs` after a step, and after a full garbage collection (which took
 * `collectMs`). */
export interface MemoryReading {
  busy: number;
  collected: number;
  collectMs: number;
}

export interface MemoryRun {
  conversations: number;
  /** Warmed up (one conversation through the same turns); holding N greeted conversations; after each took the
   * turns (null: no turns). */
  idle: MemoryReading;
  greeted: MemoryReading;
  turned: MemoryReading | null;
}

const MB = 2 ** 20;
/** MB per conversation over the idle worker, collected. */
const perConversation = (run: MemoryRun, rss: number) => (rss - run.idle.collected) / run.conversations / MB;
const fixed = (xs: number[]) => {
  const s = summarize(xs);
  return { text: `${s.min.toFixed(3)} / ${s.p50.toFixed(3)} / ${s.max.toFixed(3)}`, ...s };
};

export function renderMemoryBench(r: { runs: MemoryRun[]; opts: MemoryOptions; turns: number }): {
  text: string;
  figures: Record<string, unknown>;
} {
  const states = [
    ['greeted', (run: MemoryRun) => run.greeted],
    ...(r.turns ? ([[`after ${r.turns} turn(s)`, (run: MemoryRun) => run.turned!]] as const) : []),
  ] as const;
  const rows: string[][] = [
    [
      'conversations',
      'state',
      'MB per conversation, collected (min / median / max)',
      'target',
      'verdict',
      'soon after, with its garbage',
    ],
  ];
  const figures: Record<string, unknown>[] = [];
  for (const size of r.opts.sizes) {
    const runs = r.runs.filter((run) => run.conversations === size);
    for (const [state, of] of states) {
      const collected = fixed(runs.map((run) => perConversation(run, of(run).collected)));
      const busy = fixed(runs.map((run) => perConversation(run, of(run).busy)));
      const what = `memory per cached conversation, ${size} ${state}`;
      const word = judge(what, collected.p50, MB_PER_CONVERSATION_TARGET, { unit: 'MB' });
      const bar = `≤ ${MB_PER_CONVERSATION_TARGET}`;
      rows.push([size.toLocaleString('en-US'), state, collected.text, bar, word, busy.text]);
      figures.push({ conversations: size, state, collected, soonAfter: busy, met: word === 'met' });
    }
  }
  const text = [
    '',
    `Memory per cached conversation (issue 29): the compiled worker, its cache holding them all, ${r.opts.runs} run(s) per size,`,
    `each in a worker process of its own; RSS over the idle worker's (warmed up by one conversation), per conversation, after`,
    `a full garbage collection of both threads (where an idle worker gets by itself within a minute) and ${r.opts.settleMs / 1000} s after the`,
    `last start or turn. Turns: the PTO balance question (a tool turn) and a text turn, in turn.`,
    table(rows),
  ].join('\n');
  return {
    text,
    figures: { target: MB_PER_CONVERSATION_TARGET, figures, runs: r.runs, opts: r.opts },
  };
}

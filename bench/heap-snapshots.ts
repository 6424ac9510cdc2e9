// Where a cached conversation's memory goes (issue 29), by hand: `cd bench && npx tsx heap-snapshots.ts [N] [R]
// [--toolbox] [--no-build]`. The compiled worker (built first, unless --no-build), its cache holding them all, is
// snapshotted by bench/heap-hook.cjs after one conversation warmed it up, holding N greeted conversations, and after
// R rounds (1 by default) of the memory part's turns on each: its workflow thread (where the conversations live) and
// its main thread (activities, the SDK's worker). Prints, per conversation, what grew by constructor (count, own MB,
// retained MB: bench/heap-summary.ts) and each thread's heap before and after the snapshot's garbage collection.
// --toolbox: the conversations are goal_general's over the toolbox MCP server (504 tools, testkit/toolbox-server.ts)
// and take text turns only. Not a bench part: the snapshots are big (tens of MB each); they go to a temp folder,
// deleted at the end unless KEEP_SNAPSHOTS is set.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AgentClient } from '../client/agent-client';
import { startProcess } from '../testkit/process';
import { growth, readSnapshot } from './heap-summary';
import { TURNS } from './memory-bench';
import { writeToolboxRegistry } from '../testkit/toolbox-setup';
import { PTO_GOAL, TEXT_PROMPT, turnScript } from './scripted-answers';
import { startDevServer } from './server';
import { inParallel } from './interrupts';
import { table } from './stats';
import { workerEnv } from './worker-bench';
import { buildCompiledWorker } from './worker-process';

const MB = 2 ** 20;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const TOOLBOX_GOAL = 'goal_general';

/** What the hook reads beside each snapshot: before it and after (the snapshot collects garbage first). */
interface Figures {
  before: Memory;
  after: Memory;
}
interface Memory {
  rss: number;
  mainThread: { heapUsed: number; heapTotal: number };
  workflowThread: { usedSize: number; totalSize: number };
}

async function main(n: number, rounds: number, toolbox: boolean, build: boolean): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'heap-snapshots-'));
  const server = await startDevServer();
  try {
    if (build) {
      process.stderr.write('compiling…\n');
      await buildCompiledWorker();
    }
    const script = path.join(dir, 'script.json');
    writeFileSync(script, JSON.stringify(turnScript));
    const queue = `heap-${Date.now()}`;
    const prefix = path.join(dir, 'worker');
    const worker = await startProcess(process.execPath, ['dist/worker/main.js'], {
      cwd: path.join(__dirname, '..'),
      env: {
        ...workerEnv({ namespace: server.namespace }, server.info.address, dir, script),
        TASK_QUEUE: queue,
        ...(toolbox ? { AGENT_GOAL: TOOLBOX_GOAL, MCP_ENDPOINTS_FILE: writeToolboxRegistry(60_000) } : {}),
        WORKER_MAX_CACHED_WORKFLOWS: String(n + 10),
        NODE_OPTIONS: `--require=${path.join(__dirname, 'heap-hook.cjs')}`,
        HEAP_HOOK_PREFIX: prefix,
      },
      ready: /worker on /,
      what: 'the compiled worker',
      timeoutMs: 120_000,
    });
    let taken = 0;
    const snapshot = async (what: string) => {
      const file = `${prefix}-${++taken}`;
      process.kill(worker.pid, 'SIGWINCH');
      while (!existsSync(`${file}.heapsnapshot`)) await sleep(200);
      process.stderr.write(`${what}: ${file}.heapsnapshot and -main.heapsnapshot\n`);
      return { file, figures: JSON.parse(readFileSync(`${file}.json`, 'utf8')) as Figures };
    };
    try {
      const agents = new AgentClient(server.client, queue);
      const goal = toolbox ? TOOLBOX_GOAL : PTO_GOAL;
      const turnsOfRound = toolbox ? [TEXT_PROMPT] : TURNS;
      const warm = `${queue}-warm`;
      await agents.start(goal, warm);
      for (const prompt of turnsOfRound) await agents.say(warm, prompt);
      const idle = await snapshot('idle (one conversation went through the turns)');
      const ids = Array.from({ length: n }, (_, i) => `${queue}-${i}`);
      await inParallel(ids, 10, (id) => agents.start(goal, id));
      const greeted = await snapshot(`${n} greeted`);
      await inParallel(ids, 10, async (id) => {
        for (let round = 0; round < rounds; round++) for (const prompt of turnsOfRound) await agents.say(id, prompt);
      });
      const turns = rounds * turnsOfRound.length;
      const turned = await snapshot(`${n} after ${turns} turns each`);
      for (const [label, after] of [
        ['greeted', greeted],
        [`after ${turns} turns`, turned],
      ] as const) {
        const per = (f: (m: Memory) => number) =>
          `${((f(after.figures.before) - f(idle.figures.before)) / n / MB).toFixed(3)} → ${((f(after.figures.after) - f(idle.figures.after)) / n / MB).toFixed(3)}`;
        console.log(
          `\n${n} conversations, ${label}; per conversation, MB, before the snapshot's garbage collection → after ` +
            `(RSS here counts the snapshots' own memory: the memory part reads it):\n` +
            `  RSS ${per((m) => m.rss)}; workflow thread heap used ${per((m) => m.workflowThread.usedSize)}, ` +
            `total ${per((m) => m.workflowThread.totalSize)}; main thread heap used ${per((m) => m.mainThread.heapUsed)}, ` +
            `total ${per((m) => m.mainThread.heapTotal)}`,
        );
        const summary = (file: string) => readSnapshot(file);
        console.log(
          `\nthe workflow thread:\n${table(growth(summary(`${idle.file}.heapsnapshot`), summary(`${after.file}.heapsnapshot`), n, 25))}`,
        );
        console.log(
          `\nthe main thread:\n${table(growth(summary(`${idle.file}-main.heapsnapshot`), summary(`${after.file}-main.heapsnapshot`), n, 12))}`,
        );
      }
    } catch (err) {
      process.stderr.write(`the worker's output:\n${worker.output()}\n`);
      throw err;
    } finally {
      await worker.end('SIGTERM', 15_000);
    }
  } finally {
    await server.teardown();
    if (!process.env.KEEP_SNAPSHOTS) rmSync(dir, { recursive: true, force: true });
    else process.stderr.write(`snapshots kept in ${dir}\n`);
  }
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const [n = 200, rounds = 1] = args.filter((a) => /^\d+$/.test(a)).map(Number);
  main(n, rounds, args.includes('--toolbox'), !args.includes('--no-build')).catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}

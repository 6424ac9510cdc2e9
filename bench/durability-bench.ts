// The durability benchmarks, after the others on the same server: history bytes per text turn early and late in a
// long conversation (flat is the goal), and recovery time when a worker dies mid model call.
import type { BenchContext, BenchPart } from './context';
import type { DurabilityOptions } from './options';
import { historyGrowth } from './scenarios/history-growth';
import { recoveryAfterKill } from './scenarios/recovery-after-kill';
import { summarize, table } from './stats';

export async function runDurabilityBench(
  ctx: BenchContext,
  address: string,
  opts: DurabilityOptions,
): Promise<BenchPart> {
  process.stderr.write(`bench (durability): ${opts.historyTurns} text turns in one conversation\n`);
  const checkpoints = [1, 50, 100, 300].filter((t) => t <= opts.historyTurns);
  if (!checkpoints.includes(opts.historyTurns)) checkpoints.push(opts.historyTurns);
  const growth = await historyGrowth(ctx, opts.historyTurns, checkpoints);
  if (opts.recoveryRuns > 0)
    process.stderr.write(`bench (durability): ${opts.recoveryRuns} worker kills during a model call\n`);
  const recovery = opts.recoveryRuns > 0 ? await recoveryAfterKill(ctx, address, opts.recoveryRuns) : [];

  const first = growth.addedAt[1]!;
  const growthTable = table([
    ['text turn', 'history bytes added', 'vs turn 1'],
    ...checkpoints.map((t) => [String(t), String(growth.addedAt[t]), `${(growth.addedAt[t]! / first).toFixed(2)}×`]),
  ]);
  const kill = summarize(recovery.map((r) => r.killToRetryMs));
  const reply = summarize(recovery.map((r) => r.killToReplyMs));
  const recoveryTable = table([
    ['worker killed mid model call', 'runs', 'p50 ms', 'max ms'],
    ['kill → model call retried', String(recovery.length), kill.p50.toFixed(0), kill.max.toFixed(0)],
    ['kill → reply ready', String(recovery.length), reply.p50.toFixed(0), reply.max.toFixed(0)],
  ]);
  const text = [
    '',
    `History growth: one conversation, ${opts.historyTurns} text turns (scripted model), bytes from the server's historySizeBytes.`,
    growthTable,
    `After ${opts.historyTurns} turns: ${growth.totalBytes} bytes, ${growth.events} events.`,
    '',
    ...(recovery.length
      ? [
          'Recovery: worker/main.ts processes, the model a local Chat Completions server answering in 2 s; a new worker starts at once.',
          recoveryTable,
        ]
      : ['Recovery: skipped (--quick: no worker kills).']),
  ].join('\n');
  return {
    text,
    figures: { historyGrowth: growth, recovery: { samples: recovery, killToRetry: kill, killToReply: reply } },
  };
}

// Issue 44: a turn of ours against the same turn of the agent a user writes with Temporal's own @temporalio/ai-sdk
// (bench/peer/), side by side on one server and one model: a local Chat Completions server both reach over HTTP,
// answering at once (or after L ms). Each worker is a process of its own (ours compiled, as production runs it), so
// its CPU time is its own. Interleaved, the side going first alternating: text turns, tool turns (CurrentPTO, then the
// answer), text turns at L; per side the client's latency, the worker's CPU per turn (its process tree, /proc), each
// workflow task's time on the worker and the history bytes a text turn adds (the server's historySizeBytes). Ours runs
// as shipped: prompt validation, approvals' bookkeeping, the streaming bus and telemetry on, hooks wired but none.
import { performance } from 'node:perf_hooks';
import { completion, startFakeChatCompletions, type ChatRequestBody } from '../testkit/fake-chat-completions';
import type { BenchContext, BenchPart } from './context';
import type { PeerOptions } from './options';
import { ourSide, peerSide, type Conversation, type Side, type SideName } from './peer/sides';
import { treeCpuMs } from './proc';
import { TEXT_PROMPT, TEXT_REPLY, TOOL_PROMPT, TOOL_REPLY } from './scripted-answers';
import { formatMs, p50Of, ratio, round, summarize } from './stats';
import { judge } from './verdict';

const SIDES: SideName[] = ['ours', 'peer'];
const KINDS = ['text', 'tool', 'slow'] as const;
type Kind = (typeof KINDS)[number];

/** Issue 44's bars. */
const TURN_RATIO = 0.95;
const CPU_RATIO = 0.9;
const OVERHEAD_MS = 50;
const TASK_MS = 7;
const HISTORY_BYTES = 5 * 1024;

interface Samples {
  ms: Record<Kind, number[]>;
  /** Worker CPU per turn of each round (its process tree over the round, over its turns). */
  cpuMs: Record<Kind, number[]>;
  /** Bytes each text turn added, by its number in its conversation (0-based). */
  bytes: number[][];
  /** Workflow tasks of the text conversations, each its time on the worker. */
  tasks: number[];
}

export async function runPeerBench(ctx: BenchContext, address: string, opts: PeerOptions): Promise<BenchPart> {
  const latency = { ms: 0 };
  const model = await startFakeChatCompletions(async (body) => {
    if (latency.ms) await new Promise((r) => setTimeout(r, latency.ms));
    return answer(body);
  });
  const empty = (): Samples => ({
    ms: { text: [], tool: [], slow: [] },
    cpuMs: { text: [], tool: [], slow: [] },
    bytes: [],
    tasks: [],
  });
  const samples: Record<SideName, Samples> = { ours: empty(), peer: empty() };
  const sides: Side[] = [];
  const opened: Conversation[] = [];
  let seq = 0;
  const openBoth = async () => {
    const both = await Promise.all(sides.map((s) => s.open(++seq)));
    opened.push(...both);
    return both;
  };
  try {
    const started = await Promise.allSettled([
      ourSide(ctx, address, model.baseUrl),
      peerSide(ctx, address, model.baseUrl),
    ]);
    for (const s of started) if (s.status === 'fulfilled') sides.push(s.value);
    for (const s of started) if (s.status === 'rejected') throw s.reason;
    // Untimed: both workers' first turns of each kind (code loaded, caches and connections warm).
    const warm = await openBoth();
    for (let i = 0; i < opts.warmup; i++)
      for (const c of warm) for (const prompt of [TEXT_PROMPT, TOOL_PROMPT]) await c.turn(prompt);
    await Promise.all(warm.map((c) => c.end()));
    const rounds: [Kind, number][] = [
      ['text', opts.textTurns],
      ['tool', opts.toolTurns],
      ['slow', opts.slowTurns],
    ];
    for (let block = 0; block < opts.blocks; block++) {
      for (const [kind, total] of rounds) {
        latency.ms = kind === 'slow' ? opts.latencyMs : 0;
        const turns = Math.ceil(total / opts.blocks);
        const open = await openBoth();
        // CPU over the whole round, not around each turn: what a worker does after a turn's answer (its garbage,
        // its telemetry) is that turn's cost too, and would fall in the other side's window.
        const cpuBefore = sides.map((s) => treeCpuMs(s.pid));
        for (let i = 0; i < turns; i++) {
          ctx.interrupts.check();
          const order = (block + i) % 2 ? [1, 0] : [0, 1];
          for (const at of order) {
            const side = sides[at]!;
            const s = samples[side.name];
            const bytesBefore = kind === 'text' ? await open[at]!.historyBytes() : 0;
            const began = performance.now();
            const reply = await open[at]!.turn(kind === 'tool' ? TOOL_PROMPT : TEXT_PROMPT);
            s.ms[kind].push(performance.now() - began);
            const expected = kind === 'tool' ? TOOL_REPLY : TEXT_REPLY;
            if (reply !== expected) throw new Error(`peer bench (${side.name}, ${kind}): unexpected reply ${reply}`);
            if (kind === 'text') (s.bytes[i] ??= []).push((await open[at]!.historyBytes()) - bytesBefore);
          }
        }
        sides.forEach((s, at) => samples[s.name].cpuMs[kind].push((treeCpuMs(s.pid) - cpuBefore[at]!) / turns));
        const tasks = await Promise.all(open.map((c) => c.end()));
        if (kind === 'text') SIDES.forEach((name, at) => samples[name].tasks.push(...tasks[at]!));
      }
    }
  } finally {
    await Promise.allSettled(opened.map((c) => c.abort()));
    await Promise.allSettled(sides.map((s) => s.stop()));
    await model.close();
  }
  return report(opts, samples);
}

/** What the model says, for either agent: a prompt check passes; the balance question calls CurrentPTO, and its
 * result is answered; anything else gets the text reply. */
function answer(body: ChatRequestBody) {
  if (!body.tools) return completion({ text: '{"valid": true}' });
  const last = body.messages.at(-1)!;
  // The balance only when the tool really answered with it: a failed call must not pass for a tool turn.
  if (last.role === 'tool')
    return completion({ text: last.content.includes('104') ? TOOL_REPLY : `CurrentPTO failed: ${last.content}` });
  const said = typeof last.content === 'string' ? last.content : (last.content ?? []).map((p) => p.text ?? '').join('');
  const email = /balance for (\S+@\S+\w)/.exec(said)?.[1];
  return email
    ? completion({ toolCalls: [{ name: 'CurrentPTO', args: { email } }] })
    : completion({ text: TEXT_REPLY });
}

function report(opts: PeerOptions, samples: Record<SideName, Samples>): BenchPart {
  const p50 = p50Of;
  // An empty sample's summary is NaN throughout (printed "—").
  const p95 = (xs: number[]) => summarize(xs).p95;
  const mean = (xs: number[]) => summarize(xs).mean;
  const [ours, peer] = [samples.ours, samples.peer];
  const firstBytes = (s: Samples) => p50(s.bytes[0]);
  const lastBytes = (s: Samples) => p50(s.bytes.at(-1));
  const v = {
    text: judge('peer: text turn p50, ours / ai-sdk', p50(ours.ms.text) / p50(peer.ms.text), TURN_RATIO),
    tool: judge('peer: tool turn p50, ours / ai-sdk', p50(ours.ms.tool) / p50(peer.ms.tool), TURN_RATIO),
    slow: judge(`peer: text turn at L = ${opts.latencyMs}, ours`, p50(ours.ms.slow), opts.latencyMs + OVERHEAD_MS, {
      unit: 'ms',
    }),
    cpuText: judge(
      'peer: worker CPU per text turn, ours / ai-sdk',
      mean(ours.cpuMs.text) / mean(peer.cpuMs.text),
      CPU_RATIO,
    ),
    cpuTool: judge(
      'peer: worker CPU per tool turn, ours / ai-sdk',
      mean(ours.cpuMs.tool) / mean(peer.cpuMs.tool),
      CPU_RATIO,
    ),
    task: judge('peer: workflow task on the worker p50, ours', p50(ours.tasks), TASK_MS, { unit: 'ms' }),
    bytes: judge(
      'peer: history bytes per text turn, ours (largest of first and last)',
      Math.max(firstBytes(ours), lastBytes(ours)),
      HISTORY_BYTES,
      { unit: 'B' },
    ),
  };
  const row = (what: string, o: number, p: number, bar: string, verdict: string) =>
    `| ${what} | ${formatMs(o)} | ${formatMs(p)} | ${ratio(o, p)} | ${bar} | ${verdict} |`;
  const lines = [
    '',
    `Ours against a bare @temporalio/ai-sdk agent: ${opts.textTurns} text, ${opts.toolTurns} tool and ${opts.slowTurns} text turns at L = ${opts.latencyMs} ms per side, in ${opts.blocks} interleaved block(s); one model over HTTP`,
    '',
    '| measure | ours | ai-sdk agent | ours / ai-sdk | target | verdict |',
    '|---|---|---|---|---|---|',
    row('text turn, client p50 (ms)', p50(ours.ms.text), p50(peer.ms.text), `≤ ${TURN_RATIO}×`, v.text),
    row('text turn, client p95 (ms)', p95(ours.ms.text), p95(peer.ms.text), '', ''),
    row('tool turn, client p50 (ms)', p50(ours.ms.tool), p50(peer.ms.tool), `≤ ${TURN_RATIO}×`, v.tool),
    row('tool turn, client p95 (ms)', p95(ours.ms.tool), p95(peer.ms.tool), '', ''),
    row(
      `text turn at L = ${opts.latencyMs}, p50 (ms)`,
      p50(ours.ms.slow),
      p50(peer.ms.slow),
      `ours ≤ L + ${OVERHEAD_MS}`,
      v.slow,
    ),
    row(
      'worker CPU per text turn, mean (ms)',
      mean(ours.cpuMs.text),
      mean(peer.cpuMs.text),
      `≤ ${CPU_RATIO}×`,
      v.cpuText,
    ),
    row(
      'worker CPU per tool turn, mean (ms)',
      mean(ours.cpuMs.tool),
      mean(peer.cpuMs.tool),
      `≤ ${CPU_RATIO}×`,
      v.cpuTool,
    ),
    row('workflow task on the worker, each, p50 (ms)', p50(ours.tasks), p50(peer.tasks), `ours ≤ ${TASK_MS}`, v.task),
    row(
      'history bytes, first text turn',
      firstBytes(ours),
      firstBytes(peer),
      `ours, largest of first and last ≤ ${HISTORY_BYTES}`,
      v.bytes,
    ),
    row(
      `history bytes, text turn ${ours.bytes.length}`,
      lastBytes(ours),
      lastBytes(peer),
      `ours ≤ ${HISTORY_BYTES}`,
      '',
    ),
  ];
  const figures = Object.fromEntries(
    SIDES.map((name) => {
      const s = samples[name];
      return [
        name,
        {
          ms: Object.fromEntries(KINDS.map((k) => [k, s.ms[k].map((x) => round(x))])),
          cpuMs: Object.fromEntries(KINDS.map((k) => [k, s.cpuMs[k].map((x) => round(x))])),
          historyBytesByTurn: s.bytes.map(p50),
          taskMsP50: p50(s.tasks),
        },
      ];
    }),
  );
  return { text: lines.join('\n'), figures: { latencyMs: opts.latencyMs, ...figures } };
}

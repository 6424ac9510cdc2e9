// What `npm run bench` prints and writes: the machine and server it ran on, the chat-turn tables, the MCP, durability
// and API tables, and everything (samples included) in bench/results/latest.json, so runs can be compared later.
// BENCH_ONLY=<part> (api, worker, delegation, toolsearch, scale) prints the machine and that part's tables, and writes
// bench/results/latest-<part>.json instead.
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ApiBenchResult } from '../api-bench';
import type { DurabilityBenchResult } from '../durability-bench';
import type { McpBenchResult } from '../mcp-bench';
import type { TurnOptions } from '../options';
import { PTO_GOAL } from '../scripted-answers';
import { sdkVersion, type BenchServer } from '../server';
import { round } from '../stats';
import type { WorkerBenchResult } from '../worker-bench';
import { breakdownTable, latencyTable, type ChatTurnResult } from './chat-turns-report';

export const RESULTS_FILE = path.join(__dirname, '..', 'results', 'latest.json');
/** BENCH_ONLY=<part>: that part's results, beside the full run's (latest-<part>.json). */
export const onlyResultsFile = (part: string) => path.join(__dirname, '..', 'results', `latest-${part}.json`);
/** `--quick` runs too few turns to compare by: their results go beside the full run's, not over them. */
export const QUICK_RESULTS_FILE = path.join(__dirname, '..', 'results', 'latest-quick.json');

/** A part of the run printed as text and saved under its key in the JSON. */
export interface BenchPart {
  text: string;
  json: Record<string, unknown>;
}

export interface RunFacts {
  opts: TurnOptions;
  server: BenchServer;
  setupMs: number;
  measureMs: number;
  loadBefore: number[];
  loadAfter: number[];
  /** `npm run bench -- --quick`. */
  quick?: boolean;
}

export function printAndSave(
  facts: RunFacts,
  results: ChatTurnResult[],
  mcp: McpBenchResult,
  durability: DurabilityBenchResult,
  api: ApiBenchResult,
  worker?: WorkerBenchResult,
  more: {
    roundTrips?: BenchPart;
    oneModelWait?: BenchPart;
    delegation?: BenchPart;
    toolSearch?: BenchPart;
    scale?: BenchPart;
  } = {},
): void {
  const file = facts.quick ? QUICK_RESULTS_FILE : RESULTS_FILE;
  console.log(chatTurnText(facts, results, file));
  if (more.roundTrips) console.log(more.roundTrips.text);
  if (more.oneModelWait) console.log(more.oneModelWait.text);
  if (more.delegation) console.log(more.delegation.text);
  if (more.toolSearch) console.log(more.toolSearch.text);
  console.log(mcp.text);
  console.log(durability.text);
  console.log(api.text);
  if (worker) console.log(worker.text);
  if (more.scale) console.log(more.scale.text);
  const json = {
    ...resultsJson(facts, results, mcp),
    ...(more.roundTrips ? { roundTrips: more.roundTrips.json } : {}),
    ...(more.oneModelWait ? { oneModelWait: more.oneModelWait.json } : {}),
    ...(more.delegation ? { delegation: more.delegation.json } : {}),
    ...(more.toolSearch ? { toolSearch: more.toolSearch.json } : {}),
    durability: durability.json,
    api: api.json,
    ...(worker ? { worker: worker.json } : {}),
    ...(more.scale ? { scale: more.scale.json } : {}),
  };
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(json, null, 2)}\n`);
}

/** BENCH_ONLY=<part>: the machine, the server and that part's tables; JSON beside the full run's, not over it. */
export function printAndSaveOnly(
  facts: Pick<RunFacts, 'server' | 'loadBefore' | 'loadAfter'>,
  name: string,
  part: { text: string; json: unknown },
  file: string,
): void {
  const { server } = facts;
  console.log(
    [
      '',
      machineLine(),
      serverLine(server),
      `Load average ${facts.loadBefore[0]!.toFixed(2)} before, ${facts.loadAfter[0]!.toFixed(2)} after.`,
    ].join('\n'),
  );
  console.log(part.text);
  console.log(`Results: ${path.relative(process.cwd(), file)}`);
  const cpus = os.cpus();
  const json = {
    timestamp: new Date().toISOString(),
    node: process.version,
    platform: `${os.platform()} ${os.arch()}`,
    cpus: { count: cpus.length, model: cpus[0]?.model.trim() },
    loadAverage: { before: facts.loadBefore.map((x) => round(x, 2)), after: facts.loadAfter.map((x) => round(x, 2)) },
    temporal: { ...server.info, namespace: server.namespace, sdk: sdkVersion() },
    [name]: part.json,
  };
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(json, null, 2)}\n`);
}

function machineLine(): string {
  const cpus = os.cpus();
  return `Node ${process.version}, ${os.platform()} ${os.arch()}, ${cpus.length} × ${cpus[0]?.model.trim() ?? 'cpu'}`;
}

function serverLine(server: BenchServer): string {
  const temporal =
    server.info.mode === 'dev-server' ? `dev server (${server.info.cliVersion ?? server.info.cli})` : 'external';
  return `Temporal: ${temporal} at ${server.info.address}; SDK ${sdkVersion()}`;
}

const conversationPolicy = (opts: TurnOptions) =>
  `a new conversation (floor: a new workflow) every ${opts.turnsPerConversation} turns, started and ended outside the timed window; ` +
  `default history budget (4000 events)`;

function chatTurnText(facts: RunFacts, results: ChatTurnResult[], file: string): string {
  const { opts, server } = facts;
  const continued = results.reduce((a, r) => a + r.conversationsThatContinuedAsNew, 0);
  return [
    '',
    machineLine(),
    serverLine(server),
    `Model: ScriptedModel (no latency). Goal ${PTO_GOAL}. Scenarios interleaved round-robin; ${opts.warmup} warm-up turns each, discarded.`,
    `Conversations: ${conversationPolicy(opts)}.`,
    '',
    latencyTable(results),
    '',
    "Where the time goes: p50 over timed turns of per-turn sums (ms), from the server's history event timestamps.",
    '"on server": update\'s first workflow task scheduled → update completed; "other": on server minus the four sums.',
    breakdownTable(results),
    '',
    `History: max ${results.map((r) => `${r.maxHistoryLength}`).join(' / ')} events per workflow (in row order); ` +
      `continue-as-new: ${continued} conversations.`,
    `Setup ${(facts.setupMs / 1000).toFixed(1)} s, measuring ${(facts.measureMs / 1000).toFixed(1)} s; ` +
      `load average ${facts.loadBefore[0]!.toFixed(2)} before, ${facts.loadAfter[0]!.toFixed(2)} after. ` +
      `Results: ${path.relative(process.cwd(), file)}${facts.quick ? ' (--quick: too few turns to compare runs by)' : ''}`,
  ].join('\n');
}

function resultsJson(facts: RunFacts, results: ChatTurnResult[], mcp: McpBenchResult) {
  const { opts, server } = facts;
  const cpus = os.cpus();
  return {
    benchmark: 'chat-turn latency vs floor',
    quick: !!facts.quick,
    timestamp: new Date().toISOString(),
    node: process.version,
    platform: `${os.platform()} ${os.arch()}`,
    cpus: { count: cpus.length, model: cpus[0]?.model.trim() },
    loadAverage: { before: facts.loadBefore.map((x) => round(x, 2)), after: facts.loadAfter.map((x) => round(x, 2)) },
    temporal: { ...server.info, namespace: server.namespace, sdk: sdkVersion() },
    iterations: opts.iterations,
    warmup: opts.warmup,
    turnsPerConversation: opts.turnsPerConversation,
    conversationPolicy: conversationPolicy(opts),
    order: 'interleaved round-robin, starting scenario rotated each iteration',
    percentileMethod: 'nearest rank',
    model: 'ScriptedModel, zero latency',
    goal: PTO_GOAL,
    setupMs: round(facts.setupMs, 1),
    measureMs: round(facts.measureMs, 1),
    results,
    mcp: mcp.json,
  };
}

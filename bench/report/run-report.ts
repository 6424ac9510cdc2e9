// What `npm run bench` prints and writes: the machine and server it ran on, then each part's tables in the order they
// ran, and everything (samples included) in one JSON file under bench/results/, so runs can be compared later: a
// whole run's in latest.json, `--quick`'s in latest-quick.json, some parts' in latest-<part>+<part>.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BenchPart } from '../context';
import { PARTS, type PartName } from '../options';
import { sdkVersion, type BenchServer } from '../server';
import { round, seconds } from '../stats';
import { verdicts, verdictTable, type Verdict } from '../verdict';

const ROOT = path.join(__dirname, '..', '..');
const RESULTS_DIR = path.join(__dirname, '..', 'results');

export interface RunFacts {
  quick: boolean;
  parts: PartName[];
  server: BenchServer;
  /** Starting the server and bundling the workflow code. */
  setupMs: number;
  wallMs: number;
  loadBefore: number[];
  loadAfter: number[];
}

export interface PartResult {
  name: PartName;
  part: BenchPart;
  /** The targets it judged while it ran. */
  verdicts: readonly Verdict[];
  ms: number;
}

/** Where a run's JSON goes: a whole run's, a quick one's (too few samples to compare by) and a few parts' apart. */
export function resultsFile(quick: boolean, parts: PartName[]): string {
  const some = parts.length === PARTS.length ? [] : [parts.join('+')];
  return path.join(RESULTS_DIR, `${['latest', ...(quick ? ['quick'] : []), ...some].join('-')}.json`);
}

export function printAndSave(facts: RunFacts, results: PartResult[]): void {
  const file = resultsFile(facts.quick, facts.parts);
  console.log(header(facts));
  for (const r of results) console.log(r.part.text);
  console.log(`\n${verdictTable(facts.quick)}`);
  const took = results.map((r) => `${r.name} ${seconds(r.ms)}`).join(', ');
  console.log(
    `\nWall ${seconds(facts.wallMs)} s (setup ${seconds(facts.setupMs)}, ${took}); ` +
      `load average ${facts.loadBefore[0]!.toFixed(2)} before, ${facts.loadAfter[0]!.toFixed(2)} after. ` +
      `Results: ${path.relative(ROOT, file)}${facts.quick ? ' (--quick: too few samples to compare runs by)' : ''}`,
  );
  const cpus = os.cpus();
  const json = {
    quick: facts.quick,
    parts: facts.parts,
    timestamp: new Date().toISOString(),
    node: process.version,
    platform: `${os.platform()} ${os.arch()}`,
    cpus: { count: cpus.length, model: cpus[0]?.model.trim() },
    loadAverage: { before: facts.loadBefore.map((x) => round(x, 2)), after: facts.loadAfter.map((x) => round(x, 2)) },
    temporal: { ...facts.server.info, namespace: facts.server.namespace, sdk: sdkVersion() },
    setupMs: round(facts.setupMs, 1),
    wallMs: round(facts.wallMs, 1),
    partMs: Object.fromEntries(results.map((r) => [r.name, round(r.ms, 1)])),
    verdicts: verdicts(),
    ...Object.fromEntries(results.map((r) => [jsonKey(r.name), { ...r.part.figures, verdicts: r.verdicts }])),
  };
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(json, null, 2)}\n`);
}

/** one-model-wait → oneModelWait, as the results file has always named them. */
const jsonKey = (name: PartName) => name.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());

function header({ server, quick, parts }: RunFacts): string {
  const cpus = os.cpus();
  const temporal =
    server.info.mode === 'dev-server' ? `dev server (${server.info.cliVersion ?? server.info.cli})` : 'external';
  return [
    '',
    `Node ${process.version}, ${os.platform()} ${os.arch()}, ${cpus.length} × ${cpus[0]?.model.trim() ?? 'cpu'}`,
    `Temporal: ${temporal} at ${server.info.address}; SDK ${sdkVersion()}`,
    `Parts: ${parts.join(', ')}${quick ? ' (--quick)' : ''}`,
  ].join('\n');
}

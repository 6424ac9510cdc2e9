// What an eval found, per scenario and model: success rate against its threshold, tool-choice and argument accuracy,
// turns and model calls, latency, tokens and cost; as a table (one row per scenario and model, the models of a side by
// side next to each other), the failed runs with their reasons, a line per model, and the same as JSON.
import type { CaseResult, RunResult } from './runner';

export interface CaseSummary {
  scenario: string;
  file: string;
  agent: string;
  model: string;
  runs: number;
  passed: number;
  successRate: number;
  /** The success rate it needs: the scenario's for a real model, 1 for the scripted one (it cannot vary). */
  threshold: number;
  ok: boolean;
  toolChoice: number | null;
  argAccuracy: number | null;
  /** Means per run. */
  turns: number;
  steps: number;
  tokens: { input: number; output: number; total: number };
  /** Mean per run; null when no model call had a price. */
  costUsd: number | null;
  /** Per answer the user waited for (each turn and approval). */
  latencyMs: { mean: number; p50: number; max: number };
  failures: { run: number; failures: string[] }[];
}

export function summarize(c: CaseResult): CaseSummary {
  const runs = c.runs;
  const seen = runs.flatMap((r) => (r.observation ? [r.observation] : []));
  const passed = runs.filter((r) => r.passed).length;
  const threshold = c.model.script ? 1 : c.scenario.threshold;
  const latencies = seen.flatMap((o) => o.latenciesMs).sort((a, b) => a - b);
  const costs = seen.flatMap((o) => (o.usage.costUsd === undefined ? [] : [o.usage.costUsd]));
  return {
    scenario: c.scenario.name,
    file: c.scenario.file,
    agent: c.scenario.agent,
    model: c.model.label,
    runs: runs.length,
    passed,
    successRate: runs.length ? passed / runs.length : 0,
    threshold,
    ok: runs.length > 0 && passed / runs.length >= threshold,
    toolChoice: meanOf(runs.map((r) => r.toolChoice)),
    argAccuracy: meanOf(runs.map((r) => r.argAccuracy)),
    turns: meanOf(seen.map((o) => o.said.length)) ?? 0,
    steps: meanOf(seen.map((o) => o.steps)) ?? 0,
    tokens: {
      input: meanOf(seen.map((o) => o.usage.inputTokens)) ?? 0,
      output: meanOf(seen.map((o) => o.usage.outputTokens)) ?? 0,
      total: meanOf(seen.map((o) => o.usage.totalTokens)) ?? 0,
    },
    costUsd: costs.length ? costs.reduce((a, b) => a + b, 0) / seen.length : null,
    latencyMs: {
      mean: meanOf(latencies) ?? 0,
      p50: latencies[Math.ceil(latencies.length / 2) - 1] ?? 0,
      max: latencies.at(-1) ?? 0,
    },
    failures: runs.filter((r) => !r.passed).map((r) => ({ run: r.run, failures: r.failures })),
  };
}

export interface ModelSummary {
  model: string;
  scenarios: number;
  scenariosOk: number;
  runs: number;
  passed: number;
  toolChoice: number | null;
  argAccuracy: number | null;
  latencyMsMean: number;
  tokens: number;
  costUsd: number | null;
}

export function byModel(cases: CaseSummary[]): ModelSummary[] {
  const models = [...new Set(cases.map((c) => c.model))];
  return models.map((model) => {
    const mine = cases.filter((c) => c.model === model);
    const costs = mine.flatMap((c) => (c.costUsd === null ? [] : [c.costUsd * c.runs]));
    return {
      model,
      scenarios: mine.length,
      scenariosOk: mine.filter((c) => c.ok).length,
      runs: mine.reduce((a, c) => a + c.runs, 0),
      passed: mine.reduce((a, c) => a + c.passed, 0),
      toolChoice: meanOf(mine.map((c) => c.toolChoice)),
      argAccuracy: meanOf(mine.map((c) => c.argAccuracy)),
      latencyMsMean: meanOf(mine.map((c) => c.latencyMs.mean)) ?? 0,
      tokens: mine.reduce((a, c) => a + c.tokens.total * c.runs, 0),
      costUsd: costs.length ? costs.reduce((a, b) => a + b, 0) : null,
    };
  });
}

export function renderTable(cases: CaseSummary[]): string {
  const header = [
    'scenario',
    'model',
    'passed',
    'rate',
    'need',
    'tools',
    'args',
    'turns',
    'steps',
    'ms/answer',
    'max ms',
    'tokens',
    'cost $',
  ];
  const rows = cases.map((c) => [
    c.scenario,
    c.model,
    `${c.passed}/${c.runs}${c.ok ? '' : ' ✗'}`,
    pct(c.successRate),
    pct(c.threshold),
    c.toolChoice === null ? '-' : pct(c.toolChoice),
    c.argAccuracy === null ? '-' : pct(c.argAccuracy),
    num(c.turns),
    num(c.steps),
    Math.round(c.latencyMs.mean).toString(),
    Math.round(c.latencyMs.max).toString(),
    Math.round(c.tokens.total).toString(),
    c.costUsd === null ? '-' : c.costUsd.toFixed(4),
  ]);
  return table([header, ...rows]);
}

export function renderFailures(cases: CaseSummary[]): string {
  const lines = cases.flatMap((c) =>
    c.failures.map(
      (f) => `${c.scenario} · ${c.model} · run ${f.run}:\n${f.failures.map((line) => `  - ${line}`).join('\n')}`,
    ),
  );
  return lines.length ? `Failed runs:\n${lines.join('\n')}` : '';
}

export function renderModels(models: ModelSummary[]): string {
  return models
    .map(
      (m) =>
        `${m.model}: ${m.scenariosOk}/${m.scenarios} scenarios at their threshold, ${m.passed}/${m.runs} runs passed; ` +
        `tool choice ${m.toolChoice === null ? '-' : pct(m.toolChoice)}, args ${m.argAccuracy === null ? '-' : pct(m.argAccuracy)}, ` +
        `${Math.round(m.latencyMsMean)} ms per answer, ${m.tokens} tokens` +
        (m.costUsd === null ? '' : `, $${m.costUsd.toFixed(4)}`),
    )
    .join('\n');
}

/** The results file (--json): the eval, each scenario and model with its runs, and a line per model. */
export interface EvalResults {
  startedAt: string;
  wallMs: number;
  quick: boolean;
  runsPerScenario: number;
  server: string;
  models: string[];
  /** Every scenario at its threshold for every model: the exit code is 0. */
  ok: boolean;
  byModel: ModelSummary[];
  scenarios: (CaseSummary & { runDetails: ReturnType<typeof runJson>[] })[];
}

/** A run as the JSON keeps it: the verdict, then what was seen (the demo data after it included). */
export function runJson(r: RunResult) {
  const { run, passed, failures, toolChoice, argAccuracy, observation } = r;
  return { run, passed, failures, toolChoice, argAccuracy, ...(observation ? { observation } : {}) };
}

function meanOf(values: (number | null)[]): number | null {
  const known = values.filter((v): v is number => v !== null);
  return known.length ? known.reduce((a, b) => a + b, 0) / known.length : null;
}

const pct = (v: number) => `${Math.round(v * 100)}%`;
const num = (v: number) => (Number.isInteger(v) ? `${v}` : v.toFixed(1));

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  const line = (r: string[]) =>
    r.map((cell, c) => (c < 2 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ');
  return [line(rows[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n');
}

// The command line of `npm run eval`. Scenario names on it pick the scenarios whose names contain them.
import path from 'node:path';
import { SCENARIOS_DIR } from './scenario';

export const USAGE = `npm run eval -- [--quick] [--runs N] [--model provider:model]... [--json file] [--timeout s]
                     [--scenarios dir] [scenario…]

  --quick          one run of each scenario (CI's check, against the scripted model)
  --runs N         runs of each scenario per model (default 3)
  --model M        the model under test, as LLM_MODEL names it (provider:model, or scripted); twice for a side by side.
                   Default: LLM_MODEL, else the offline scripted model
  --json file      where the results go (default evals/results/eval-<time>.json)
  --timeout s      one run's limit in seconds (default 300)
  --scenarios dir  the scenario files (default evals/scenarios)
  scenario…        only the scenarios whose names contain one of these words

A played user (a scenario's user:) is played by EVAL_USER_MODEL (EVAL_USER_KEY, EVAL_USER_BASE_URL), else by the model
under test. How to write a scenario and read the report: docs/evals.md`;

export interface EvalOptions {
  runs: number;
  quick: boolean;
  models: string[];
  jsonFile: string;
  timeoutMs: number;
  scenariosDir: string;
  only: string[];
}

export const RESULTS_DIR = path.join(__dirname, 'results');

export function readOptions(argv: string[], now = new Date()): EvalOptions {
  const opts: EvalOptions = {
    runs: 3,
    quick: false,
    models: [],
    jsonFile: path.join(RESULTS_DIR, `eval-${now.toISOString().replace(/[:.]/g, '-')}.json`),
    timeoutMs: 300_000,
    scenariosDir: SCENARIOS_DIR,
    only: [],
  };
  let runs: number | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined || v.startsWith('--')) throw new Error(`${arg} needs a value`);
      return v;
    };
    if (arg === '--quick') opts.quick = true;
    else if (arg === '--runs') runs = positive(arg, value());
    else if (arg === '--model') opts.models.push(value());
    else if (arg === '--json') opts.jsonFile = path.resolve(value());
    else if (arg === '--timeout') opts.timeoutMs = positive(arg, value()) * 1000;
    else if (arg === '--scenarios') opts.scenariosDir = path.resolve(value());
    else if (arg.startsWith('--')) throw new Error(`unknown option ${arg}`);
    else opts.only.push(arg);
  }
  opts.runs = runs ?? (opts.quick ? 1 : 3);
  if (new Set(opts.models).size !== opts.models.length) throw new Error('--model names the same model twice');
  return opts;
}

function positive(flag: string, v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${flag} takes a whole number of 1 or more, not ${v}`);
  return n;
}

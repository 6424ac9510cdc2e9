// `npm run eval`: the scenarios of evals/scenarios run against the model(s) under test on the real product (a Temporal
// server, the agent worker as production builds it, the client the CLI uses), several runs each; a table on stdout, the
// whole results as JSON, and exit code 1 when a scenario's success rate is under its threshold (2: a usage error).
// The options: options.ts; how to write a scenario and read the report: docs/evals.md.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { modelsUnderTest } from './models';
import { readOptions, USAGE, type EvalOptions } from './options';
import { byModel, renderFailures, renderModels, renderTable, runJson, summarize, type EvalResults } from './report';
import { runEvals } from './runner';
import { loadScenarios, type Scenario } from './scenario';
import { startEvalServer } from './server';

export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(USAGE);
    return 0;
  }
  let opts: EvalOptions;
  let scenarios: Scenario[];
  let models: ReturnType<typeof modelsUnderTest>;
  try {
    opts = readOptions(argv);
    scenarios = loadScenarios(opts.scenariosDir, opts.only);
    models = modelsUnderTest(opts.models, env);
  } catch (err) {
    console.error(`npm run eval: ${(err as Error).message}`);
    return 2;
  }
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const labels = models.map((m) => m.label).join(' vs ');
  process.stderr.write(
    `eval: ${scenarios.length} scenario(s) × ${labels}, ${opts.runs} run(s) each; starting Temporal and the workers…\n`,
  );
  const server = await startEvalServer(env);
  let results;
  try {
    results = await runEvals({
      server,
      scenarios,
      models,
      runs: opts.runs,
      timeoutMs: opts.timeoutMs,
      runId: `${process.pid}-${Date.now().toString(36)}`,
      env,
      progress: (line) => process.stderr.write(`${line}\n`),
    });
  } finally {
    await server.teardown();
  }
  const cases = results.map(summarize);
  const perModel = byModel(cases);
  const ok = cases.every((c) => c.ok);
  const wallMs = performance.now() - started;
  const verdict = ok
    ? 'All scenarios at their threshold.'
    : `Under threshold: ${cases
        .filter((c) => !c.ok)
        .map((c) => `${c.scenario} (${c.model})`)
        .join(', ')}.`;
  const sections = [
    `Evals: ${scenarios.length} scenario(s), ${opts.runs} run(s) each, on ${server.description}; ${(wallMs / 1000).toFixed(1)} s.`,
    renderTable(cases),
    renderModels(perModel),
    renderFailures(cases),
    verdict,
  ];
  console.log(`\n${sections.filter(Boolean).join('\n\n')}`);
  const json: EvalResults = {
    startedAt,
    wallMs: Math.round(wallMs),
    quick: opts.quick,
    runsPerScenario: opts.runs,
    server: server.description,
    models: models.map((m) => m.label),
    ok,
    byModel: perModel,
    scenarios: cases.map((c, i) => ({ ...c, runDetails: results[i]!.runs.map(runJson) })),
  };
  mkdirSync(path.dirname(opts.jsonFile), { recursive: true });
  writeFileSync(opts.jsonFile, `${JSON.stringify(json, null, 2)}\n`);
  const shown = path.relative(process.cwd(), opts.jsonFile);
  console.log(`Results: ${shown.startsWith('..') ? opts.jsonFile : shown}`);
  return ok ? 0 : 1;
}

if (require.main === module) {
  // Only the SDK's warnings and errors: the report is what stdout is for.
  Runtime.install({ logger: new DefaultLogger('WARN') });
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      console.error(`eval failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      process.exitCode = 1;
    },
  );
}

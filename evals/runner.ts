// Runs every scenario against every model, `runs` times each, one after the other (so latencies are not each other's
// queueing): a worker per scenario and model, fresh demo data per run. A run that cannot start or breaks down is a
// failed run with the reason, never an aborted eval.
import { performance } from 'node:perf_hooks';
import { startEvalWorker, type EvalWorker } from './eval-worker';
import { judge, type Verdict } from './judge';
import { userModelFor, type ModelUnderTest } from './models';
import type { RunObservation } from './observation';
import { play } from './play';
import type { Scenario } from './scenario';
import type { EvalServer } from './server';
import { SimulatedUser } from './simulated-user';
import { ScriptedTurns, type EvalUser } from './users';

export interface RunResult extends Verdict {
  run: number;
  observation?: RunObservation;
}

export interface CaseResult {
  scenario: Scenario;
  model: ModelUnderTest;
  runs: RunResult[];
}

export interface EvalPlan {
  server: EvalServer;
  scenarios: Scenario[];
  models: ModelUnderTest[];
  runs: number;
  timeoutMs: number;
  /** Makes task queues and conversation ids unique to this eval. */
  runId: string;
  env?: NodeJS.ProcessEnv;
  /** A line per run as it ends. */
  progress?: (line: string) => void;
}

export async function runEvals(plan: EvalPlan): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for (const scenario of plan.scenarios)
    for (const model of plan.models) results.push(await runCase(plan, scenario, model));
  return results;
}

async function runCase(plan: EvalPlan, scenario: Scenario, model: ModelUnderTest): Promise<CaseResult> {
  const env = plan.env ?? process.env;
  const result: CaseResult = { scenario, model, runs: [] };
  let worker: EvalWorker;
  try {
    worker = await startEvalWorker(plan.server, scenario, model, plan.runId, env);
  } catch (err) {
    const failure = `the worker did not start: ${(err as Error).message}`;
    for (let run = 1; run <= plan.runs; run++)
      result.runs.push({ run, passed: false, failures: [failure], toolChoice: null, argAccuracy: null });
    plan.progress?.(`✗ ${scenario.name} · ${model.label}: ${failure}`);
    return result;
  }
  try {
    for (let run = 1; run <= plan.runs; run++) {
      worker.store.clear();
      const started = performance.now();
      let user: EvalUser;
      try {
        user = userOf(scenario, model, env);
      } catch (err) {
        const failure = `no model to play the user: ${(err as Error).message}`;
        result.runs.push({ run, passed: false, failures: [failure], toolChoice: null, argAccuracy: null });
        plan.progress?.(`✗ ${scenario.name} · ${model.label} · run ${run}/${plan.runs}: ${failure}`);
        continue;
      }
      const observation = await play({
        agents: worker.agents,
        scenario,
        user,
        store: worker.store,
        conversationId: `eval-${scenario.name}-${plan.runId}-${slug(model.label)}-${run}`,
        timeoutMs: plan.timeoutMs,
      });
      const verdict = judge(scenario, observation);
      result.runs.push({ run, ...verdict, observation });
      const secs = ((performance.now() - started) / 1000).toFixed(1);
      const failed = verdict.failures.length;
      plan.progress?.(
        `${verdict.passed ? '✓' : '✗'} ${scenario.name} · ${model.label} · run ${run}/${plan.runs} (${secs} s)` +
          (failed ? `: ${failed} expectation(s) not met, listed below the table` : ''),
      );
    }
  } finally {
    await worker.stop();
  }
  return result;
}

function userOf(scenario: Scenario, model: ModelUnderTest, env: NodeJS.ProcessEnv): EvalUser {
  if (scenario.turns) return new ScriptedTurns(scenario.turns);
  return new SimulatedUser(userModelFor(model, scenario, env), scenario.user!);
}

const slug = (label: string) => label.replace(/[^A-Za-z0-9.-]+/g, '-').slice(0, 40);

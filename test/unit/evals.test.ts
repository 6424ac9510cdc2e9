// The eval harness's judgement without a server: how a run's observation is held against its scenario (each unmet
// expectation one line saying what was expected and what happened), the accuracies, argument matching, and scenario
// files refused with the file and field named.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isoDay } from '../../core/days';
import { judge } from '../../evals/judge';
import { mismatch } from '../../evals/match';
import { modelsUnderTest } from '../../evals/models';
import type { RunObservation } from '../../evals/observation';
import { readOptions } from '../../evals/options';
import { loadScenario, loadScenarios, SCENARIOS_DIR, scenarioSchema, type Scenario } from '../../evals/scenario';

const scenario = (fields: Record<string, unknown>): Scenario => ({
  ...scenarioSchema.parse({ agent: 'goal_fin_move_money', turns: ['hi'], ...fields }),
  name: 'test',
  file: 'test.yaml',
});

const observed = (fields: Partial<RunObservation> = {}): RunObservation => ({
  conversationId: 'c',
  said: ['hi'],
  replies: ['Hello', 'Done.'],
  approvals: [],
  toolCalls: [],
  steps: 2,
  latenciesMs: [10],
  usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
  durationMs: 20,
  ended: false,
  state: {},
  ...fields,
});

const move = { accountId: '11235', from: 'savings', to: 'checking', amount: 500 };

describe('mismatch', () => {
  it('takes the expected keys at least when partial, and says where a value differs', () => {
    expect(mismatch({ a: 1, b: { c: 'x' } }, { a: 1, b: { c: 'x', d: 2 }, e: 3 })).toBeNull();
    expect(mismatch({ b: { c: 'x' } }, { b: { c: 'y' } })).toBe('b.c: expected "x", got "y"');
    expect(mismatch({ a: 1 }, {})).toBe('a: missing (expected 1)');
    expect(mismatch([{ id: 1 }], [{ id: 1 }, { id: 2 }])).toMatch(/expected 1 item\(s\), got 2/);
  });

  it('wants nothing more when exact, and reads /…/ as a regular expression only when partial', () => {
    expect(mismatch({ a: 1 }, { a: 1, b: 2 }, 'exact')).toMatch(/unexpected b/);
    // A day, and a pattern for the ten days its last digit could be.
    const day = isoDay(new Date());
    const pattern = `/^${day.slice(0, -1)}\\d$/`;
    expect(mismatch({ date: pattern }, { date: day })).toBeNull();
    expect(mismatch({ date: pattern }, { date: day }, 'exact')).toMatch(/expected/);
    expect(mismatch(500, '500')).toBe('expected 500, got "500"');
  });
});

describe('judge', () => {
  it('passes a run that did all the scenario expects, with full accuracies', () => {
    const s = scenario({
      expect: {
        tools: [{ tool: 'MoveMoney', args: move, match: 'exact', outcome: 'ok' }],
        approvals: [{ tool: 'MoveMoney', decision: 'approved' }],
        state: [{ dataset: 'transfers', count: 1 }],
        reply: { contains: ['done'] },
      },
    });
    const verdict = judge(
      s,
      observed({
        toolCalls: [{ tool: 'MoveMoney', args: move, outcome: 'ok', agent: 'goal_fin_move_money' }],
        approvals: [{ tool: 'MoveMoney', args: move, decision: 'approved' }],
        state: { transfers: [{ amount: 500 }] },
      }),
    );
    expect(verdict).toEqual({ passed: true, failures: [], toolChoice: 1, argAccuracy: 1 });
  });

  it('fails a run with one line per unmet expectation, saying what happened', () => {
    const s = scenario({
      expect: {
        tools: [
          { tool: 'FindAccount', args: { accountId: '11235' } },
          { tool: 'MoveMoney', args: move, outcome: 'rejected' },
          { tool: 'AccountBalances' },
        ],
        notCalled: ['MoveMoney'],
        approvals: [{ tool: 'MoveMoney', decision: 'rejected' }],
        state: [
          { dataset: 'bankCustomers', find: { accountId: '11235' }, match: { balances: { savings: 3200.15 } } },
          { dataset: 'loanApplications', match: [] },
        ],
        reply: { contains: ['did not move'], notContains: ['done'] },
        ended: true,
        maxSteps: 1,
      },
    });
    const verdict = judge(
      s,
      observed({
        toolCalls: [
          { tool: 'FindAccount', args: { accountId: '11235' }, outcome: 'ok', agent: 'a' },
          { tool: 'MoveMoney', args: { ...move, amount: 50 }, outcome: 'ok', agent: 'a' },
        ],
        approvals: [{ tool: 'MoveMoney', args: move, decision: 'approved' }],
        state: { bankCustomers: [{ accountId: '11235', balances: { checking: 925.4, savings: 3150.15 } }] },
      }),
    );
    expect(verdict.passed).toBe(false);
    expect(verdict.failures).toEqual([
      'MoveMoney arguments (partial): amount: expected 500, got 50',
      'MoveMoney ended ok, expected rejected (args {"accountId":"11235","from":"savings","to":"checking","amount":50})',
      'AccountBalances was not called (calls made: FindAccount, MoveMoney)',
      'MoveMoney ran (ok, args {"accountId":"11235","from":"savings","to":"checking","amount":50}) but must not',
      'approvals: expected [MoveMoney rejected], got [MoveMoney approved]',
      'state of bankCustomers: the item like {"accountId":"11235"}: balances.savings: expected 3200.15, got 3150.15',
      'state of loanApplications: no tool used it (datasets used: bankCustomers)',
      'the last reply does not contain "did not move": "Done."',
      'the last reply contains "done": "Done."',
      'the conversation did not end (no CompleteGoal)',
      '2 model calls, more than maxSteps 1',
    ]);
    // FindAccount and MoveMoney made of three: 2/3; of those with arguments named, FindAccount's right: 1/2.
    expect(verdict.toolChoice).toBeCloseTo(2 / 3);
    expect(verdict.argAccuracy).toBe(0.5);
  });

  it('puts why the run stopped first, and matches each expected call to a call of its own', () => {
    const s = scenario({
      expect: {
        tools: [
          { tool: 'AskAgent', args: { goalId: 'b' } },
          { tool: 'AskAgent', args: { goalId: 'a' } },
        ],
      },
    });
    const asks = ['a', 'b'].map((goalId) => ({
      tool: 'AskAgent',
      args: { goalId, task: 't' },
      outcome: 'ok' as const,
      agent: 'boss',
    }));
    expect(judge(s, observed({ toolCalls: asks })).passed).toBe(true);
    const stopped = judge(s, observed({ toolCalls: asks.slice(0, 1), error: 'the run did not finish within 5 s' }));
    expect(stopped.failures).toEqual([
      'the run did not finish within 5 s',
      'another AskAgent call was expected ({"goalId":"b"}); it was called 1 time(s)',
    ]);
  });
});

describe('scenario files', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'eval-scenarios-'));
  const write = (name: string, text: string) => {
    writeFileSync(path.join(dir, name), text);
    return path.join(dir, name);
  };

  it('are refused naming the file and the field', () => {
    const file = write(
      'bad.yaml',
      'agent: goal_hr_pto\nturns: [hi]\nexpect:\n  tools:\n    - { tool: X, match: fuzzy }\n',
    );
    expect(() => loadScenario(file)).toThrow(`Scenario ${file}: expect.tools.0.match: Invalid option`);
    const both = write(
      'both.json',
      JSON.stringify({ agent: 'a', turns: ['hi'], user: { persona: 'p', goal: 'g' }, expect: {} }),
    );
    expect(() => loadScenario(both)).toThrow('give either turns (scripted) or user (played by a model)');
  });

  it('take their name from the file, and the shipped ones all load', () => {
    const file = write('my-case.json', JSON.stringify({ agent: 'goal_hr_pto', turns: ['hi'], expect: {} }));
    expect(loadScenario(file).name).toBe('my-case');
    const shipped = loadScenarios(SCENARIOS_DIR);
    expect(shipped.length).toBeGreaterThanOrEqual(5);
    expect(new Set(shipped.map((s) => s.agent)).size).toBeGreaterThanOrEqual(4);
    expect(loadScenarios(SCENARIOS_DIR, ['move-']).map((s) => s.name)).toEqual([
      'move-money-gathered',
      'move-money-refused',
    ]);
  });
});

describe('eval options', () => {
  it('run 3 times by default, once with --quick, and take several models', () => {
    expect(readOptions([]).runs).toBe(3);
    const quick = readOptions(['--quick', '--model', 'scripted', '--model', 'openai:gpt-4o-mini', 'pto']);
    expect(quick).toMatchObject({ runs: 1, quick: true, models: ['scripted', 'openai:gpt-4o-mini'], only: ['pto'] });
    expect(readOptions(['--quick', '--runs', '2']).runs).toBe(2);
    expect(() => readOptions(['--runs', '0'])).toThrow('--runs takes a whole number of 1 or more, not 0');
    expect(() => readOptions(['--model'])).toThrow('--model needs a value');
  });
});

describe('models under test', () => {
  const keysOf = (names: string[], env: NodeJS.ProcessEnv) =>
    modelsUnderTest(names, env).map((m) => [m.label, m.keys, !!m.script]);

  it('are LLM_MODEL, else the scripted model, unless --model names them', () => {
    expect(keysOf([], {})).toEqual([['scripted', {}, true]]);
    expect(keysOf([], { LLM_MODEL: 'openai:gpt-4o-mini', LLM_KEY: 'sk-o' })).toEqual([
      ['openai:gpt-4o-mini', { LLM_KEY: 'sk-o', LLM_BASE_URL: undefined }, false],
    ]);
    expect(() => modelsUnderTest(['gpt-4o'], {})).toThrow('--model gpt-4o: name a model as provider:model');
  });

  it("get LLM_KEY only when it is their provider's, as the worker reads it; others their provider's own variable", () => {
    const env = { LLM_MODEL: 'openai:gpt-4o-mini', LLM_KEY: 'sk-o' };
    expect(keysOf(['openai-chat:gpt-4o', 'anthropic:claude-haiku-4-5'], env)).toEqual([
      ['openai-chat:gpt-4o', { LLM_KEY: 'sk-o', LLM_BASE_URL: undefined }, false],
      ['anthropic:claude-haiku-4-5', {}, false],
    ]);
    // LLM_MODEL unset: the first real model's.
    const local = { LLM_BASE_URL: 'http://127.0.0.1:11434/v1' };
    expect(keysOf(['scripted', 'openai-compatible:llama3.1', 'google:gemini-2.5-flash'], local)).toEqual([
      ['scripted', {}, true],
      ['openai-compatible:llama3.1', { LLM_KEY: undefined, LLM_BASE_URL: 'http://127.0.0.1:11434/v1' }, false],
      ['google:gemini-2.5-flash', {}, false],
    ]);
  });
});

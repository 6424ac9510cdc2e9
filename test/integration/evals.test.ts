// The eval harness end to end, as `npm run eval` runs it (its main, on a dev server of its own, with real workers):
// a side by side of the scripted model and a model reached over HTTP (a local Chat Completions server standing in for
// a provider), two runs each. A scenario meant to fail is reported failed with its reasons and fails the exit code; a
// real model that gets one run of two wrong passes a scenario whose threshold is 0.5, while the scripted model must
// pass every run; a played user is played offline by its script and otherwise by the model under test; the JSON file
// has the shape docs/evals.md describes.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import type { EvalResults } from '../../evals/report';
import { main } from '../../evals/run';
import { SCENARIOS_DIR } from '../../evals/scenario';
import {
  completion,
  isAfterTool,
  lastUserText,
  startFakeChatCompletions,
  systemPrompt,
  toolResults,
  type ChatRequestBody,
  type FakeChatCompletions,
  type ScriptResult,
} from '../../testkit/fake-chat-completions';

const FAKE = 'openai-compatible:fake-model';

/** A PTO assistant over HTTP that looks up the right email on odd lookups and Grace's on even ones. */
function ptoModel(): (body: ChatRequestBody) => ScriptResult {
  let lookups = 0;
  return (body) => {
    // Playing the user of a scenario with a played user (the model under test plays it when EVAL_USER_MODEL is unset).
    if (systemPrompt(body)?.startsWith('You play a user'))
      return completion({
        text: /email/i.test(lastUserText(body)) ? 'I am ada@example.com, how much PTO do I have?' : 'DONE',
      });
    if (!body.tools) return completion({ text: '{"valid": true}', usage: { prompt: 40, completion: 4 } });
    if (isAfterTool(body)) {
      const { result } = JSON.parse(toolResults(body).at(-1)!.content) as { result: { hoursLeft: number } };
      return completion({ text: `You have ${result.hoursLeft} hours left.`, usage: { prompt: 300, completion: 10 } });
    }
    const user = lastUserText(body);
    if (user.startsWith('Greet the user')) return completion({ text: 'Hi! Your work email?' });
    const email = ++lookups % 2 ? /[\w.]+@example\.com/.exec(user)![0] : 'grace@example.com';
    return completion({ toolCalls: [{ name: 'CurrentPTO', args: { email } }], usage: { prompt: 250, completion: 12 } });
  };
}

describe('npm run eval', () => {
  let fake: FakeChatCompletions;
  let out: string;
  let code: number;
  let results: EvalResults;

  beforeAll(async () => {
    Runtime.install({ logger: new DefaultLogger('WARN') });
    fake = await startFakeChatCompletions(ptoModel());
    const dir = mkdtempSync(path.join(tmpdir(), 'eval-test-'));
    const scenarios = path.join(dir, 'scenarios');
    mkdirSync(scenarios);
    // The shipped scenario, with a threshold for real models of one run in two.
    const shipped = readFileSync(path.join(SCENARIOS_DIR, 'pto-balance.yaml'), 'utf8');
    writeFileSync(path.join(scenarios, 'pto-balance.yaml'), `${shipped}threshold: 0.5\n`);
    copyFileSync(path.join(SCENARIOS_DIR, 'pto-balance.yaml'), path.join(scenarios, 'pto-exact.yaml'));
    writeFileSync(
      path.join(scenarios, 'meant-to-fail.yaml'),
      [
        'agent: goal_hr_pto',
        'turns: [How much PTO do I have? I am ada@example.com]',
        'expect:',
        '  tools: [{ tool: BookPTO }]',
        "  reply: { contains: ['999 hours'] }",
      ].join('\n'),
    );
    writeFileSync(
      path.join(scenarios, 'played.yaml'),
      [
        'agent: goal_hr_pto',
        'user:',
        '  persona: Ada Lovelace, ada@example.com',
        '  goal: Learn how much PTO you have left.',
        '  maxTurns: 3',
        "  script: [{ when: email, say: 'I am ada@example.com, how much PTO do I have?' }]",
        'expect:',
        '  tools: [{ tool: CurrentPTO }]',
        "  reply: { contains: ['hours'] }",
      ].join('\n'),
    );
    const jsonFile = path.join(dir, 'results.json');
    const lines: string[] = [];
    const log = jest.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      code = await main(
        ['--runs', '2', '--model', 'scripted', '--model', FAKE, '--scenarios', scenarios, '--json', jsonFile],
        { LLM_BASE_URL: fake.baseUrl, PATH: process.env.PATH },
      );
    } finally {
      log.mockRestore();
      stderr.mockRestore();
    }
    out = lines.join('\n');
    results = JSON.parse(readFileSync(jsonFile, 'utf8')) as EvalResults;
  }, 120_000);
  afterAll(async () => {
    await fake?.close();
  });

  const row = (scenario: string, model: string) =>
    results.scenarios.find((s) => s.scenario === scenario && s.model === model)!;

  it('reports a scenario meant to fail as failed, with what was expected and what happened, and exits 1', () => {
    expect(code).toBe(1);
    for (const model of ['scripted', FAKE]) {
      const failed = row('meant-to-fail', model);
      expect(failed).toMatchObject({ runs: 2, passed: 0, successRate: 0, ok: false });
      expect(failed.failures[0]!.failures).toEqual([
        'BookPTO was not called (calls made: CurrentPTO)',
        expect.stringMatching(/^the last reply does not contain "999 hours": "/),
      ]);
    }
    expect(out).toMatch(/meant-to-fail · scripted · run 1:\n {2}- BookPTO was not called \(calls made: CurrentPTO\)/);
    expect(out).toContain(
      'Under threshold: meant-to-fail (scripted), meant-to-fail (openai-compatible:fake-model), pto-exact (openai-compatible:fake-model).',
    );
  });

  it('holds a real model to the scenario threshold and the scripted model to every run', () => {
    expect(row('pto-balance', 'scripted')).toMatchObject({
      passed: 2,
      threshold: 1,
      ok: true,
      toolChoice: 1,
      argAccuracy: 1,
    });
    const fakeRow = row('pto-balance', FAKE);
    expect(fakeRow).toMatchObject({
      passed: 1,
      successRate: 0.5,
      threshold: 0.5,
      ok: true,
      toolChoice: 1,
      argAccuracy: 0.5,
    });
    expect(fakeRow.failures).toEqual([
      {
        run: 2,
        failures: [
          'CurrentPTO arguments (exact): email: expected "ada@example.com", got "grace@example.com"',
          'the last reply does not contain "104": "You have 36 hours left."',
        ],
      },
    ]);
    // The same scenario without the threshold: one run in two is not enough.
    expect(row('pto-exact', FAKE)).toMatchObject({ passed: 1, threshold: 1, ok: false });
  });

  it('counts turns, model calls, tokens and latency from the real conversations', () => {
    const fakeRow = row('pto-balance', FAKE);
    // Model calls as the run view counts them: the greeting, the turn's (its validation and plan in one activity) and
    // the answer after the tool; tokens as the provider reported them, the validation's included.
    expect(fakeRow).toMatchObject({ turns: 1, steps: 3, costUsd: null });
    expect(fakeRow.tokens).toEqual({ input: 40 + 10 + 250 + 300, output: 4 + 5 + 12 + 10, total: 631 });
    expect(fakeRow.latencyMs.mean).toBeGreaterThan(0);
    const run = fakeRow.runDetails[0]!;
    expect(run.observation).toMatchObject({
      said: ['How much PTO do I have? I am ada@example.com'],
      replies: ['Hi! Your work email?', 'You have 104 hours left.'],
      toolCalls: [{ tool: 'CurrentPTO', args: { email: 'ada@example.com' }, outcome: 'ok', agent: 'goal_hr_pto' }],
      approvals: [],
      ended: false,
    });
    expect(row('pto-balance', 'scripted').costUsd).toBe(0);
  });

  it("lets a model play the user: offline from the scenario's script, else the model under test", () => {
    for (const model of ['scripted', FAKE])
      expect(row('played', model)).toMatchObject({ passed: 2, turns: 1, ok: true });
    const said = (model: string) => row('played', model).runDetails[0]!.observation!.said;
    expect(said('scripted')).toEqual(['I am ada@example.com, how much PTO do I have?']);
    expect(said(FAKE)).toEqual(['I am ada@example.com, how much PTO do I have?']);
    // The fake saw the player's requests: its persona and goal in the system prompt, the agent's words as the user's.
    const played = fake.requests.filter((r) => systemPrompt(r.body)?.startsWith('You play a user'));
    expect(played).toHaveLength(4);
    expect(systemPrompt(played[0]!.body)).toContain('Who you are: Ada Lovelace, ada@example.com');
    expect(lastUserText(played[0]!.body)).toBe('Hi! Your work email?');
  });

  it('writes the JSON with the run, a line per model, and every scenario and model', () => {
    expect(results).toMatchObject({ quick: false, runsPerScenario: 2, models: ['scripted', FAKE], ok: false });
    expect(results.scenarios.map((s) => `${s.scenario} ${s.model}`)).toEqual([
      'meant-to-fail scripted',
      `meant-to-fail ${FAKE}`,
      'played scripted',
      `played ${FAKE}`,
      'pto-balance scripted',
      `pto-balance ${FAKE}`,
      'pto-exact scripted',
      `pto-exact ${FAKE}`,
    ]);
    expect(results.byModel).toEqual([
      expect.objectContaining({ model: 'scripted', scenarios: 4, scenariosOk: 3, runs: 8, passed: 6 }),
      expect.objectContaining({ model: FAKE, scenarios: 4, scenariosOk: 2, runs: 8, passed: 4 }),
    ]);
    expect(out).toMatch(
      /^scenario +model +passed +rate +need +tools +args +turns +steps +ms\/answer +max ms +tokens +cost \$$/m,
    );
    expect(out).toMatch(/^pto-balance +openai-compatible:fake-model +1\/2 +50% +50% +100% +50% /m);
  });
});

// Tools that ask, in the CLI: `agent say` and `agent status` show the question (a form field by field, a link, a
// sampling prompt) with how to answer it, `agent answer` answers it, and the interactive chat asks it — field by
// field with defaults, y/n for a link or a sampling request — and prints a running tool's progress lines. Real
// servers: our asking fixture and server-everything, a real dev server and worker.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { main } from '../../client/cli';
import { runCli } from '../helpers/cli';
import { ASKING, EVERYTHING, QUESTION_GOALS, questionsScript } from '../fixtures/tool-questions';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';

describe('agent CLI: tools that ask', () => {
  let env: TestWorkflowEnvironment;
  let worker: Awaited<ReturnType<typeof startWorker>>;
  let cliEnv: NodeJS.ProcessEnv;
  const dir = mkdtempSync(path.join(tmpdir(), 'cli-questions-'));

  beforeAll(async () => {
    env = await startTemporal();
    const registry = path.join(dir, 'mcp.json');
    writeFileSync(
      registry,
      JSON.stringify({ mcpServers: { asking: ASKING(path.join(dir, 'asking.log')), everything: EVERYTHING } }),
    );
    const goals = path.join(dir, 'goals');
    mkdirSync(goals);
    for (const goal of QUESTION_GOALS) writeFileSync(path.join(goals, `${goal.id}.json`), JSON.stringify(goal));
    const settings = testSettings({
      GOALS_DIR: goals,
      AGENT_GOAL: 'goal_general',
      VALIDATE_PROMPTS: 'false',
      TOOL_SEARCH_THRESHOLD: '0',
      MCP_ENDPOINTS_FILE: registry,
    });
    worker = await startWorker(env, { script: questionsScript, settings });
    cliEnv = {
      TEMPORAL_ADDRESS: env.address,
      TASK_QUEUE: settings.taskQueue,
      AGENT_GOAL: 'goal_general',
      PATH: process.env.PATH,
    };
  });
  afterAll(async () => {
    await worker?.stop();
    await env?.teardown();
    rmSync(dir, { recursive: true, force: true });
  });

  const agent = (args: string[], input = '') => runCli(args, cliEnv, input);

  it('shows a form with its fields, answers it with agent answer, and shows an open question in agent status', async () => {
    expect((await agent(['start', '--id', 'cli-ask'])).code).toBe(0);
    const asked = await agent(['say', 'cli-ask', 'greet', 'me']);
    expect(asked.out).toContain('agent> asking__greet asks: What is your name?');
    expect(asked.out).toContain('  name* (Name) [string, 1 to … characters]');
    expect(asked.out).toContain('  title [string, one of Dr | Ms | Mr, default Dr]');
    expect(asked.out).toContain(
      '  answer: agent answer cli-ask --accept name=… --accept title=… · --decline · --cancel',
    );

    const status = await agent(['status', 'cli-ask']);
    expect(status.out).toMatch(/^cli-ask: waiting for user;/);
    expect(status.out).toContain('asking__greet asks: What is your name?');
    expect(status.out).toContain('  title [string, one of Dr | Ms | Mr, default Dr]');
    expect(JSON.parse((await agent(['status', 'cli-ask', '--json'])).out).lastReply.question).toMatchObject({
      kind: 'form',
    });

    expect(await agent(['answer', 'cli-ask', '--accept', 'title=Prof'])).toMatchObject({
      code: 1,
      err: 'error: title: "Prof" is not among Dr, Ms, Mr\n',
    });
    // The workflow checks the form too: a required field left out is refused, with its words.
    expect((await agent(['answer', 'cli-ask', '--accept', 'title=Ms'])).err).toMatch(/^error: .*does not fit: .*name/);
    expect((await agent(['answer', 'cli-ask', '--accept', 'name=Ada', '--decline'])).err).toMatch(/one of --accept/);
    const done = await agent(['answer', 'cli-ask', '--accept', 'name=Ada', '--accept', 'title=Ms']);
    expect(done).toMatchObject({ code: 0, out: 'agent> Hello, Ms Ada!\n' });
    expect((await agent(['answer', 'cli-ask', '--decline'])).err).toBe(
      'error: No tool is asking anything in conversation cli-ask.\n',
    );

    const visit = await agent(['say', 'cli-ask', 'visit']);
    expect(visit.out).toContain('  open: https://example.com/sign');
    expect((await agent(['answer', 'cli-ask', '--accept'])).out).toBe('agent> visit: accept\n');
    const poem = await agent(['say', 'cli-ask', 'poem about rain']);
    expect(poem.out).toContain('  asking wants our model to answer (at most 60 tokens):');
    expect(poem.out).toMatch(/ {4}user: A poem about rain/);
    expect((await agent(['answer', 'cli-ask', '--decline', '--json'])).out).toMatch(/declined the sampling request/);
    await agent(['end', 'cli-ask']);
  });

  it("shows a delegate's tool question as asked by that agent, and sends the answer down to it", async () => {
    expect((await agent(['start', '--id', 'cli-ask-boss', '--goal', 'goal_question_boss'])).code).toBe(0);
    const asked = await agent(['say', 'cli-ask-boss', 'have me greeted']);
    expect(asked.out).toContain('agent> Greeter: asking__greet asks: What is your name?');
    expect(asked.out).toMatch(/\n {2}asked by Greeter \(delegate cli-ask-boss\/[^)]+\)\n/);
    const done = await agent(['answer', 'cli-ask-boss', '--accept', 'name=Ada']);
    expect(done.out).toBe('agent> The greeter says: Hello, Dr Ada!\n');
    await agent(['end', 'cli-ask-boss']);
  });

  it('asks the form field by field in the chat (Enter keeps the default), and a link and a sampling request by y/n', async () => {
    const input = [
      'greet me',
      '', // name is required: asked again
      'Ada',
      '', // title: its default, Dr
      'visit',
      'y',
      'poem about rain',
      'n',
      'greet me',
      'decline',
      '/end',
      '',
    ].join('\n');
    const { code, out } = await agent(['chat', 'cli-ask-chat'], input);
    expect(code).toBe(0);
    expect(out).toContain('title [string, one of Dr | Ms | Mr, default Dr]: ');
    expect(out).toContain('Name is required.');
    expect(out).toContain('agent> Hello, Dr Ada!');
    expect(out).toContain('did you open the link and do what it asks? [y]es / [n]o (decline) / [c]ancel: ');
    expect(out).toContain('agent> visit: accept');
    expect(out).toContain('let our model answer it? [y]es / [n]o (decline) / [c]ancel: ');
    expect(out).toMatch(/agent> .*declined the sampling request/);
    expect(out).toContain('agent> No name given (decline).');
    expect(out).toContain('(conversation ended)');
  });

  it("prints a running tool's progress lines where the chat follows the stream bus", async () => {
    const input = new PassThrough();
    input.end(['long op', '/end', ''].join('\n'));
    let out = '';
    const output = new PassThrough().on('data', (d) => (out += d));
    const error = new PassThrough();
    const code = await main(['chat', 'cli-ask-progress'], {
      input,
      output,
      error,
      env: cliEnv,
      stream: worker.streamBus,
    });
    expect(code).toBe(0);
    // (After "you> ": the test's input is not echoed, as a terminal's would be.)
    const lines = out.split('\n').filter((l) => l.includes('  … everything__trigger-long-running-operation: '));
    // The server's last notification may come with its result, after the call is over: not every one is shown.
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) expect(line).toMatch(/: [1-4]\/4 \((25|50|75|100)%\)$/);
    expect(out.indexOf(lines[0]!)).toBeLessThan(out.indexOf('Long running operation completed'));
  });
});

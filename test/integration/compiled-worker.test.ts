// The production path: `npm run build` (its server part, build:server: the web chat is built once a run by
// testkit/web-build.ts), then the worker with plain node (`node dist/worker/main.js`: no tsx, no npm).
// With nothing configured it finds what it reads at run time from dist/ as from source (the shipped script, the
// goals folder, the MCP registry and its demo servers), runs the workflow code the build pre-bundled, and serves a
// conversation end to end on a real dev server; with an OTLP endpoint it runs the bundle with the tracing interceptors
// built in; a bundle that does not match the compiled code is refused.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { AgentClient } from '../../client/agent-client';
import { PICKER_GOAL_ID } from '../../goals/goal-registry';
import { readWorkerSettings } from '../../worker/worker-settings';
import { TRACING_SETTING_NAMES } from '../../runtime/tracing';
import { startReceiver } from '../helpers/otlp-receiver';
import { startTemporal } from '../../testkit/temporal';
import { buildOncePerRun } from '../../testkit/build-lock';
import { week } from '../../testkit/days';

const run = promisify(execFile);
const ROOT = path.join(__dirname, '..', '..');
const MAIN = path.join('dist', 'worker', 'main.js');

/** The compiled worker's process: plain node, a minimal environment, and its output. */
function startCompiled(
  cwd: string,
  env: Record<string, string>,
): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [MAIN], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ENV_FILE: '/dev/null', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function until(check: () => boolean, what: () => string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(what());
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the compiled worker (node dist/worker/main.js)', () => {
  let env: TestWorkflowEnvironment;
  let worker: ReturnType<typeof startCompiled>;
  let agents: AgentClient;
  let dataDir: string;
  const taskQueue = `compiled-${process.pid}`;

  beforeAll(async () => {
    await buildOncePerRun(() => run('npm', ['run', '-s', 'build:server'], { cwd: ROOT }));
    env = await startTemporal();
    dataDir = mkdtempSync(path.join(tmpdir(), 'compiled-worker-'));
    // Nothing else configured: the model, goals and MCP registry are the shipped defaults, found from dist/.
    worker = startCompiled(ROOT, {
      TEMPORAL_ADDRESS: env.address,
      TASK_QUEUE: taskQueue,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'WARN',
    });
    await until(
      () => worker.output().includes('worker on ') || worker.child.exitCode !== null,
      () => `the compiled worker did not start:\n${worker.output()}`,
    );
    agents = await AgentClient.connect(taskQueue, { TEMPORAL_ADDRESS: env.address });
  }, 240_000);

  afterAll(async () => {
    await agents?.close();
    if (worker && worker.child.exitCode === null) {
      worker.child.kill('SIGTERM');
      await worker.exited;
    }
    await env?.teardown();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts from dist/ with the pre-built workflow bundle and the shipped offline model', () => {
    expect(worker.output()).toMatch(
      /worker on .*offline scripted model.*workflow code pre-bundled \(.*dist\/workflow-bundle\.js\)/,
    );
  });

  it('serves a conversation end to end: agent switch, a native tool, an approval, an MCP tool', async () => {
    const { id, greeting } = await agents.start(PICKER_GOAL_ID, `compiled-${process.pid}-1`);
    expect(greeting?.reply).toBeTruthy();
    expect((await agents.say(id, 'I want to check my PTO')).reply).toMatch(/^You're with the PTO assistant now/);
    expect((await agents.say(id, 'ada@example.com')).reply).toMatch(/^Ada Lovelace, you have 104 hours/);
    const mon = week(4);
    const tue = week(4, 1);
    const proposal = await agents.say(id, `book ${mon} to ${tue} for ada@example.com`);
    expect(proposal.pendingToolCall?.tool).toBe('BookPTO');
    expect((await agents.confirm(id, { approve: true })).reply).toMatch(new RegExp(`^Booked ${mon} to ${tue}`));
    // The fx demo server, from config/mcp_endpoints.json, started in the project folder.
    expect((await agents.say(id, 'convert 100 USD to EUR')).reply).toBe('100 USD is 92 EUR.');
    await agents.end(id);
    expect(await agents.isRunning(id)).toBe(false);
    expect(worker.child.exitCode).toBeNull();
  }, 120_000);

  it('with an OTLP endpoint, runs the traced bundle and exports its workflow, turn and activity spans', async () => {
    const receiver = await startReceiver();
    const tracedQueue = `${taskQueue}-traced`;
    // As the compose files pass them: every other tracing setting blank (the role keeps its service name).
    const compose = Object.fromEntries(TRACING_SETTING_NAMES.map((name) => [name, '']));
    const traced = startCompiled(ROOT, {
      TEMPORAL_ADDRESS: env.address,
      TASK_QUEUE: tracedQueue,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'WARN',
      ...compose,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
    try {
      await until(
        () => traced.output().includes('worker on ') || traced.child.exitCode !== null,
        () => `the traced worker did not start:\n${traced.output()}`,
      );
      expect(traced.output()).toMatch(/dist\/workflow-bundle-traced\.js\); traces to OTLP/);
      const tracedAgents = await AgentClient.connect(tracedQueue, { TEMPORAL_ADDRESS: env.address });
      const { id } = await tracedAgents.start(PICKER_GOAL_ID, `compiled-${process.pid}-traced`);
      await tracedAgents.end(id);
      await tracedAgents.close();
      const names = () => new Set(receiver.spans.filter((s) => s.service === 'agent-worker').map((s) => s.name));
      await until(
        () =>
          ['RunWorkflow:AgentGoalWorkflow', 'agent.turn', 'RunActivity:planTurn', 'llm.call'].every((n) =>
            names().has(n),
          ),
        () => `spans received: ${[...names()].join(', ')}\n${traced.output()}`,
        30_000,
      );
    } finally {
      traced.child.kill('SIGTERM');
      await traced.exited;
      await receiver.close();
    }
  }, 120_000);

  it('a rebuild of unchanged workflow code keeps both bundles instead of bundling again', async () => {
    // Writes nothing when right (and whole files when not): the other tests' workers may be reading them.
    const bundled = statSync(path.join(ROOT, 'dist', 'workflow-bundle-traced.js')).mtimeMs;
    const { stdout } = await run(process.execPath, [path.join('dist', 'worker', 'workflow-bundle.js')], { cwd: ROOT });
    expect(stdout).toMatch(/^workflow code unchanged: dist\/workflow-bundle\.js kept/);
    expect(statSync(path.join(ROOT, 'dist', 'workflow-bundle-traced.js')).mtimeMs).toBe(bundled);
  });

  describe('refuses a bundle that is not the compiled code beside it', () => {
    // A copy of dist/ in a project of its own, so the build the other tests use stays as it is.
    let project: string;
    beforeAll(() => {
      project = mkdtempSync(path.join(tmpdir(), 'compiled-copy-'));
      cpSync(path.join(ROOT, 'dist'), path.join(project, 'dist'), {
        recursive: true,
        filter: (src) => src !== path.join(ROOT, 'dist', 'web'),
      });
      for (const entry of ['package.json', 'node_modules', 'config'])
        symlinkSync(path.join(ROOT, entry), path.join(project, entry));
    });
    afterAll(() => rmSync(project, { recursive: true, force: true }));

    it('missing: stops before connecting, saying to build', async () => {
      rmSync(path.join(project, 'dist', 'workflow-bundle.js'));
      const copy = startCompiled(project, { TEMPORAL_ADDRESS: '127.0.0.1:1', DATA_DIR: dataDir });
      expect(await copy.exited).toBe(1);
      expect(copy.output()).toMatch(/workflow-bundle\.js is missing: run npm run build/);
    });

    it('bundled from other workflow code: stops, saying to build', async () => {
      writeFileSync(path.join(project, 'dist', 'workflow-bundle.js'), '');
      writeFileSync(path.join(project, 'dist', 'workflow-bundle.json'), JSON.stringify({ workflows: 'older' }));
      const copy = startCompiled(project, { TEMPORAL_ADDRESS: '127.0.0.1:1', DATA_DIR: dataDir });
      expect(await copy.exited).toBe(1);
      expect(copy.output()).toMatch(/was bundled from other workflow code than .*: run npm run build/);
    });
  });
});

describe('WORKER_MAX_CACHED_WORKFLOWS and WORKER_STICKY_SCHEDULE_TO_START', () => {
  it('default to a cache of 250 and 5 s, and take other values', () => {
    expect(readWorkerSettings({}).workflowCache).toEqual({ maxCachedWorkflows: 250, stickyScheduleToStartSeconds: 5 });
    expect(
      readWorkerSettings({ WORKER_MAX_CACHED_WORKFLOWS: '0', WORKER_STICKY_SCHEDULE_TO_START: '2m' }).workflowCache,
    ).toEqual({ maxCachedWorkflows: 0, stickyScheduleToStartSeconds: 120 });
  });

  it('refuse what the SDK would not take, naming the variable', () => {
    expect(() => readWorkerSettings({ WORKER_MAX_CACHED_WORKFLOWS: '1' })).toThrow(
      /WORKER_MAX_CACHED_WORKFLOWS must be 0 \(no cache\) or at least 2/,
    );
    expect(() => readWorkerSettings({ WORKER_MAX_CACHED_WORKFLOWS: 'many' })).toThrow(
      /WORKER_MAX_CACHED_WORKFLOWS must be a whole number/,
    );
    expect(() => readWorkerSettings({ WORKER_STICKY_SCHEDULE_TO_START: '0s' })).toThrow(
      /WORKER_STICKY_SCHEDULE_TO_START must be a duration of at least 1 s/,
    );
  });
});

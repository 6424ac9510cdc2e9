// The client library as a user's project sees it: `npm run build` (its server part, build:server) compiles it to
// dist/, and a project outside this repository imports `temporal-agent-orchestrator/client` through package.json
// "exports" (plain Node, no tsx), both from JavaScript (against a real server and worker) and from TypeScript (its
// declarations type-check).
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { ptoScript } from '../fixtures/scripts';
import { startTemporal, startWorker } from '../../testkit/temporal';
import { buildOncePerRun } from '../../testkit/build-lock';
import { week } from '../../testkit/days';

const run = promisify(execFile);
const ROOT = path.join(__dirname, '..', '..');
const { name: PACKAGE } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { name: string };

describe('the client package (exports "./client")', () => {
  const mon = week(4);
  const tue = week(4, 1);
  let env: TestWorkflowEnvironment;
  let worker: Awaited<ReturnType<typeof startWorker>>;
  let project: string;

  beforeAll(async () => {
    await buildOncePerRun(() => run('npm', ['run', '-s', 'build:server'], { cwd: ROOT }));
    // A user's project with the package installed (a symlink, as `npm link` or a workspace makes).
    project = mkdtempSync(path.join(tmpdir(), 'client-package-'));
    mkdirSync(path.join(project, 'node_modules'));
    symlinkSync(ROOT, path.join(project, 'node_modules', PACKAGE), 'dir');
    env = await startTemporal();
    worker = await startWorker(env, { script: ptoScript });
  }, 120_000);
  afterAll(async () => {
    await worker?.stop();
    await env?.teardown();
  });

  it('runs from plain Node: start, say, confirm, history, end', async () => {
    writeFileSync(
      path.join(project, 'use.js'),
      `const { AgentClient } = require('${PACKAGE}/client');
(async () => {
  const agents = await AgentClient.connect(process.env.TASK_QUEUE);
  const { id } = await agents.start('goal_hr_pto', 'package-1');
  const proposal = await agents.say(id, 'book ${mon} to ${tue} for ada@example.com');
  const done = await agents.confirm(id, { approve: true });
  const history = await agents.history(id);
  await agents.end(id);
  await agents.close();
  console.log(JSON.stringify({ tool: proposal.pendingToolCall.tool, reply: done.reply, messages: history.length }));
})().catch((err) => { console.error(err); process.exit(1); });
`,
    );
    const { stdout } = await run(process.execPath, ['use.js'], {
      cwd: project,
      env: {
        PATH: process.env.PATH,
        HOME: '/nonexistent',
        TEMPORAL_ADDRESS: env.address,
        TASK_QUEUE: worker.worker.options.taskQueue,
      },
    });
    const result = JSON.parse(stdout);
    expect(result).toMatchObject({ tool: 'BookPTO', reply: expect.stringMatching(new RegExp(`Booked ${mon}`)) });
    expect(result.messages).toBeGreaterThan(3);
  });

  it('type-checks a TypeScript consumer against the declarations', async () => {
    writeFileSync(
      path.join(project, 'use.ts'),
      `import { AgentClient, type AgentReply } from '${PACKAGE}/client';
export async function ask(queue: string): Promise<AgentReply> {
  const agents: AgentClient = await AgentClient.connect(queue);
  const { id } = await agents.start('goal_hr_pto');
  return agents.say(id, 'hello');
}
// A misuse the declarations must catch: say() takes a string.
// @ts-expect-error
export const wrong = (a: AgentClient) => a.say('id', 42);
`,
    );
    writeFileSync(
      path.join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          module: 'node16',
          moduleResolution: 'node16',
          target: 'es2022',
          types: [],
          skipLibCheck: true,
        },
        files: ['use.ts'],
      }),
    );
    await expect(
      run(process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project], {
        cwd: project,
      }),
    ).resolves.toBeDefined();
  });
});

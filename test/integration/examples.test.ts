// The examples run as a user runs them: a child process started with only TEMPORAL_ADDRESS and TASK_QUEUE, against a
// real dev server and a worker on the shipped offline demo script (config/scripted-model.json), as `npm start` runs.
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { DEFAULT_SCRIPT } from '../../activities/llm/model';
import { loadScript } from '../../activities/llm/scripted-model';
import { startTemporal, startWorker } from '../../testkit/temporal';
import { week } from '../../testkit/days';

const ROOT = path.join(__dirname, '..', '..');

function runExample(
  file: string,
  env: Record<string, string>,
): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, ['--require', 'tsx/cjs', file], {
    cwd: ROOT,
    // Nothing from the developer's shell (a TEMPORAL_* variable, a profile) may point the example elsewhere.
    env: { PATH: process.env.PATH ?? '', HOME: '/nonexistent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, out, err })));
}

describe('examples/book-pto.ts', () => {
  let env: TestWorkflowEnvironment;
  let worker: Awaited<ReturnType<typeof startWorker>>;

  beforeAll(async () => {
    env = await startTemporal();
    worker = await startWorker(env, { script: loadScript(DEFAULT_SCRIPT) });
  });
  afterAll(async () => {
    await worker?.stop();
    await env?.teardown();
  });

  it('books PTO on approval, prints the reply and the history, and ends the conversation', async () => {
    const { code, out, err } = await runExample('examples/book-pto.ts', {
      TEMPORAL_ADDRESS: env.address,
      TASK_QUEUE: worker.worker.options.taskQueue,
    });
    expect({ code, err }).toEqual({ code: 0, err: '' });
    // "next Monday to Tuesday", read by the worker's clock (the machine's): next week's Monday and Tuesday.
    const [mon, tue] = [week(1), week(1, 1)];
    expect(out).toContain(`approving BookPTO {"email":"ada@example.com","startDate":"${mon}","endDate":"${tue}"}`);
    // The demo script's wording may change; the booking and the balance it reports may not.
    expect(out).toMatch(new RegExp(`^agent> Booked ${mon} to ${tue}\\b.* \\d+ (hours )?left\\b`, 'm'));
    expect(out).toMatch(/^history:\n( {2}.*\n)* {2}user: book next Monday to Tuesday for ada@example.com\n/m);
    expect(out).toMatch(/^ {2}tool BookPTO: \{"status":"ok","result":\{"booked":true,.*"hoursLeft":\d+/m);

    const id = /^conversation (\S+)$/m.exec(out)?.[1];
    expect(out).toContain(`conversation ${id} ended`);
    expect((await env.client.workflow.getHandle(id!).describe()).status.name).toBe('COMPLETED');
  });

  it('exits 1 with the reason when no worker serves its task queue', async () => {
    const { code, err } = await runExample('examples/book-pto.ts', {
      TEMPORAL_ADDRESS: env.address,
      TASK_QUEUE: 'no-such-queue',
    });
    expect(code).toBe(1);
    expect(err).toMatch(/^error: No worker is serving task queue "no-such-queue"/);
  });
});

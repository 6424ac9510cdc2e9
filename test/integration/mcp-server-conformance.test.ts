// The MCP conformance suite's server scenarios (every one, `--suite all`, in one run) against our /mcp on a real dev
// server and worker, with test/fixtures/mcp-conformance-baseline.yml as the baseline: a scenario that newly fails, or
// a listed one that starts passing, fails this test. The API runs without keys (the suite sends none), on loopback,
// which is also where its DNS rebinding scenario applies.
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { startApi, type RunningApi } from '../../api/server';
import { AgentClient } from '../../client/agent-client';
import { createStreamBus } from '../../stream';
import type { StreamBus } from '../../stream/bus';
import { ptoScript } from '../fixtures/scripts';
import { startTemporal, startWorker, testSettings } from '../../testkit/temporal';

const ROOT = path.join(__dirname, '..', '..');
const BASELINE = path.join(ROOT, 'test', 'fixtures', 'mcp-conformance-baseline.yml');
const SUITE = path.join(ROOT, 'node_modules', '.bin', 'conformance');

/** The scenarios a product server can pass, and must: the protocol itself, not the reference server's fixtures. */
const MUST_PASS = [
  'server-initialize',
  'ping',
  'logging-set-level',
  'tools-list',
  'tools-call-error',
  'server-sse-multiple-streams',
  'dns-rebinding-protection',
];

describe('the MCP server at /mcp against the MCP conformance suite', () => {
  let env: TestWorkflowEnvironment;
  let worker: Awaited<ReturnType<typeof startWorker>>;
  let bus: StreamBus;
  let api: RunningApi;

  beforeAll(async () => {
    env = await startTemporal();
    bus = createStreamBus();
    const settings = testSettings({ VALIDATE_PROMPTS: 'false' });
    worker = await startWorker(env, { script: ptoScript, settings, streamBus: bus });
    api = await startApi({
      agents: new AgentClient(env.client, settings.taskQueue),
      bus,
      defaultGoal: 'goal_hr_pto',
      settings: { port: 0, host: '127.0.0.1', keys: null, bodyLimitBytes: 64 * 1024, corsOrigins: [] },
    });
  });
  afterAll(async () => {
    await api?.close();
    await worker?.stop();
    await bus?.close();
    await env?.teardown();
  });

  it('passes every scenario outside the baseline, and fails every one in it', async () => {
    const out = mkdtempSync(path.join(tmpdir(), 'mcp-conformance-'));
    const args = ['server', '--url', `${api.url}/mcp`, '--suite', 'all', '--expected-failures', BASELINE, '-o', out];
    const run = await new Promise<{ code: number; output: string }>((resolve) =>
      execFile(SUITE, args, { timeout: 50_000, env: { ...process.env, NO_COLOR: '1' } }, (err, stdout, stderr) =>
        resolve({ code: err ? Number(err.code ?? 1) : 0, output: stdout + stderr }),
      ),
    );
    const summary = [...run.output.matchAll(/([✓✗]) (\S+): (\d+) passed, (\d+) failed/g)].map((m) => ({
      scenario: m[2]!,
      passed: m[1] === '✓',
    }));
    // The counts, for the docs and for anyone reading the run.
    console.log(run.output.slice(run.output.indexOf('=== SUMMARY ===')));
    expect(summary.length).toBeGreaterThanOrEqual(32);
    expect(summary.filter((s) => s.passed).map((s) => s.scenario)).toEqual(expect.arrayContaining(MUST_PASS));
    expect({ code: run.code, output: run.code ? run.output.slice(-3000) : '' }).toEqual({ code: 0, output: '' });
  });
});

// The MCP conformance suite's client scenarios other than auth (those are in mcp-oauth-conformance.test.ts) against
// our client: registry entry, discovery, pool and callMcpTool (testkit/conformance-client.ts). All four pass:
// initialize, tools_call, the defaults of an accepted form (SEP-1034) and reconnecting after the server closes a
// call's SSE stream, at the retry time it asked for (SEP-1699).
import { execFile } from 'node:child_process';
import path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');
const SUITE = path.join(ROOT, 'node_modules', '.bin', 'conformance');
const CLIENT = `${process.execPath} --require tsx/cjs testkit/conformance-client.ts`;
const SCENARIOS = ['initialize', 'tools_call', 'elicitation-sep1034-client-defaults', 'sse-retry'];

function scenario(name: string): Promise<{ name: string; code: number; output: string }> {
  const args = ['client', '--command', CLIENT, '--scenario', name, '--timeout', '20000'];
  return new Promise((resolve) =>
    execFile(SUITE, args, { cwd: ROOT, timeout: 40_000, env: { ...process.env, NO_COLOR: '1' } }, (err, out, errs) =>
      resolve({ name, code: err ? Number(err.code ?? 1) : 0, output: out + errs }),
    ),
  );
}

describe('our MCP client against the conformance suite', () => {
  it('passes every client scenario outside auth', async () => {
    const runs = await Promise.all(SCENARIOS.map(scenario));
    for (const run of runs) {
      const passed = /Passed: (\d+)\/(\d+), 0 failed/.exec(run.output);
      expect({ name: run.name, code: run.code, passed: !!passed && passed[1] === passed[2] }).toEqual({
        name: run.name,
        code: 0,
        passed: true,
      });
    }
  });
});

// The MCP conformance suite's client auth scenarios against our OAuth client: the registry entry, the connect flow,
// the encrypted token store and the worker's pool (testkit/conformance-auth-client.ts), each scenario's server and
// authorization server the suite's own. `--suite auth` in one run, plus the auth scenarios the suite leaves out of it
// (the 2025-03-26 back-compat ones, client credentials), all with test/fixtures/mcp-oauth-conformance-baseline.yml:
// a scenario that newly fails, or a listed one that starts passing, fails this test.
import { execFile } from 'node:child_process';
import path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');
const BASELINE = path.join(ROOT, 'test', 'fixtures', 'mcp-oauth-conformance-baseline.yml');
const SUITE = path.join(ROOT, 'node_modules', '.bin', 'conformance');
const CLIENT = `${process.execPath} --require tsx/cjs testkit/conformance-auth-client.ts`;

/** Outside `--suite auth` in 0.1.13. */
const MORE = [
  'auth/2025-03-26-oauth-metadata-backcompat',
  'auth/2025-03-26-oauth-endpoint-fallback',
  'auth/client-credentials-jwt',
  'auth/client-credentials-basic',
];

/** What our client is for, and must keep passing: discovery, registration, PKCE, scopes, token endpoint auth. */
const MUST_PASS = [
  'auth/metadata-default',
  'auth/metadata-var1',
  'auth/metadata-var2',
  'auth/metadata-var3',
  'auth/scope-from-www-authenticate',
  'auth/scope-from-scopes-supported',
  'auth/token-endpoint-auth-basic',
  'auth/token-endpoint-auth-none',
  'auth/resource-mismatch',
  'auth/pre-registration',
  'auth/2025-03-26-oauth-metadata-backcompat',
];

function conformance(args: string[]): Promise<{ code: number; output: string }> {
  const all = ['client', '--command', CLIENT, '--expected-failures', BASELINE, ...args];
  return new Promise((resolve) =>
    execFile(SUITE, all, { cwd: ROOT, timeout: 50_000, env: { ...process.env, NO_COLOR: '1' } }, (err, out, errs) =>
      resolve({ code: err ? Number(err.code ?? 1) : 0, output: out + errs }),
    ),
  );
}

describe('our OAuth client against the MCP conformance suite', () => {
  it('passes every auth scenario outside the baseline, and fails every one in it', async () => {
    // The extra scenarios one after another beside the suite (which runs its own in parallel): two cores are enough.
    const extras = async () => {
      const done: Awaited<ReturnType<typeof conformance>>[] = [];
      for (const scenario of MORE) done.push(await conformance(['--scenario', scenario]));
      return done;
    };
    const [first, rest] = await Promise.all([conformance(['--suite', 'auth']), extras()]);
    const runs = [first, ...rest];
    const [suite, ...more] = runs;
    const passed = [...suite!.output.matchAll(/([✓✗]) (\S+): (\d+) passed, (\d+) failed/g)]
      .filter((m) => m[1] === '✓')
      .map((m) => m[2]!);
    more.forEach((run, i) => {
      if (/OVERALL: PASSED/.test(run.output)) passed.push(MORE[i]!);
    });
    // The counts, for the docs and for anyone reading the run.
    console.log(`${suite!.output.slice(suite!.output.indexOf('=== SUITE SUMMARY ==='))}\nalso passed: ${passed}`);
    const tail = (scenario: string) => (runs[MORE.indexOf(scenario) + 1] ?? suite!).output.slice(-1500);
    const missing = MUST_PASS.filter((scenario) => !passed.includes(scenario));
    expect(missing.map((scenario) => ({ scenario, output: tail(scenario) }))).toEqual([]);
    for (const run of runs)
      expect({ code: run.code, output: run.code ? run.output.slice(-3000) : '' }).toEqual({ code: 0, output: '' });
  });
});

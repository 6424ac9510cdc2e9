// testkit/closed-connection-guard.ts: a retry the SDK scheduled before a test's teardown closed its connection
// throws "Channel has been shut down" where nothing can catch it (and Jest fails the next file in that worker: seen in
// two clean-clone runs); with the guard, the call ends CANCELLED and nothing is thrown. Each case runs in a process
// of its own (test/fixtures/closed-connection-probe.ts), since the uncaught exception is the thing observed.
import { execFileSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');
const probe = (mode: 'guard' | 'noguard') =>
  JSON.parse(
    execFileSync(process.execPath, ['--require', 'tsx/cjs', 'test/fixtures/closed-connection-probe.ts', mode], {
      cwd: ROOT,
      encoding: 'utf8',
    }),
  ) as { outcome: string; uncaught: string[] };

describe('a retry pending when the connection closes', () => {
  it('throws where nothing can catch it without the guard', () => {
    expect(probe('noguard')).toEqual({ outcome: 'still waiting', uncaught: ['Channel has been shut down'] });
  });

  it('ends the call CANCELLED with it, and nothing is thrown', () => {
    expect(probe('guard')).toEqual({
      outcome: 'failed: 1 CANCELLED: the test environment was torn down',
      uncaught: [],
    });
  });
});

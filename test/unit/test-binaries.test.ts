// testkit/test-binaries.ts: the A2A Python SDK's copy is installed without its requirements (--no-deps), beside a list
// of them made by hand; this says loudly when that list misses a module the foreign client (testkit/a2a_client.py)
// imports, before the A2A interop tests fail on it less plainly.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { findA2aPython, MISSING_A2A_PYTHON } from '../../testkit/test-binaries';

const CLIENT = path.join(__dirname, '..', '..', 'testkit', 'a2a_client.py');

// The script's own top-level imports, read from it (so they never drift from it) and run without running the script.
const IMPORT_ONLY = `
import ast, sys
tree = ast.parse(open(sys.argv[1]).read())
imports = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
assert any(isinstance(n, ast.ImportFrom) and n.module == "a2a.client" for n in imports), "no a2a.client import found"
exec(compile(ast.Module(body=imports, type_ignores=[]), sys.argv[1], "exec"), {})
`;

describe('the A2A Python SDK copy for the tests', () => {
  it('imports everything testkit/a2a_client.py imports', () => {
    const sdk = findA2aPython();
    if (!sdk) throw new Error(MISSING_A2A_PYTHON);
    try {
      execFileSync('python3', ['-c', IMPORT_ONLY, CLIENT], {
        env: {
          ...process.env,
          ...(sdk.pythonPath ? { PYTHONPATH: sdk.pythonPath } : {}),
          PYTHONDONTWRITEBYTECODE: '1',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 60_000,
      });
    } catch (err) {
      const stderr = String((err as { stderr?: Buffer }).stderr ?? '').trim();
      const last = stderr.split('\n').pop() || (err as Error).message;
      throw new Error(
        `The A2A Python SDK${sdk.pythonPath ? ` in ${sdk.pythonPath}` : ''} cannot import what testkit/a2a_client.py ` +
          `imports: ${last}\nIts copy is installed with --no-deps: add the package that provides the module to ` +
          `A2A_PYTHON's \`with\` in testkit/test-binaries.ts, delete the copy and run npm install again.\n\n${stderr}`,
      );
    }
  });
});

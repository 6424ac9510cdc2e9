// The builtins as the docs list them, checked against the table the workflow runs on (workflows/decider/builtins/index.ts)
// and the specs the model reads (core/builtin-specs.ts): a builtin added to the code and left out of a list fails here.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BUILTIN_TOOLS } from '../../core/builtin-specs';
import type { BuiltinContext } from '../../workflows/decider/builtins/builtin';
import { createBuiltins } from '../../workflows/decider/builtins';

const ROOT = path.join(__dirname, '..', '..');
const names = Object.keys(createBuiltins({} as BuiltinContext).table).sort();

/** The part of `file` from `from` to the first `to` after it: where the file lists the builtins. */
function section(file: string, from: string, to: string): string {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  const start = text.indexOf(from);
  if (start < 0) throw new Error(`${file} no longer has "${from}"`);
  const end = text.indexOf(to, start + from.length);
  return text.slice(start, end < 0 ? undefined : end);
}

describe('the builtins', () => {
  it('each has a spec, and every spec a builtin', () => {
    expect(names.length).toBeGreaterThan(5);
    expect(Object.keys(BUILTIN_TOOLS).sort()).toEqual(names);
  });

  it.each([
    ['README.md', '**Builtin**: handled by the workflow itself', 'See'],
    ['docs/tools.md', '- **builtin**: handled by the workflow itself', 'Their'],
    ['docs/architecture.md', '| `core/builtin-specs.ts` |', '\n'],
  ])('are all named where %s lists them', (file, from, to) => {
    const listed = section(file, from, to);
    expect(names.filter((name) => !listed.includes(name))).toEqual([]);
  });
});

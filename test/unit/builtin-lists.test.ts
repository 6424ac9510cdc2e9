// The builtins as the docs list them, checked against the table the workflow runs on (workflows/decider/builtins/index.ts)
// and the specs the model reads (core/builtin-specs.ts): a builtin added to the code and left out of a list fails here.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ACTIVITY_STEPS } from '../../core/activity-steps';
import { BUILTIN_TOOLS } from '../../core/builtin-specs';
import { BUILTIN_RUNS, type BuiltinRun } from '../../core/builtin-runs';
import { PATCHES } from '../../workflows/versions';
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

// A builtin that runs activities of its own is one file in core/ and one line in core/builtin-runs.ts: the spec the
// model reads, the decider's table, the activity steps, the patch ids and the workflow's run all follow.
describe('the builtins that run activities of their own', () => {
  const builtins = createBuiltins({} as BuiltinContext).table;

  it.each(BUILTIN_RUNS.map((run) => [run.spec.name, run] as const))(
    '%s is offered, decided, run and shown',
    (name, run: BuiltinRun) => {
      expect(BUILTIN_TOOLS[name]).toBe(run.spec);
      // Checked, then put to the user, when it has a check; else decided at once.
      if (run.check) expect(builtins[name]?.beforeApproval).toBeDefined();
      else expect(builtins[name]?.decide).toBeDefined();
      const step = (activity: string) => ACTIVITY_STEPS[activity as keyof typeof ACTIVITY_STEPS];
      expect(step(run.activity)).toEqual(
        run.label ? { kind: 'draft', label: `${name}: ${run.label}` } : { kind: 'builtin', tool: name },
      );
      if (run.check) expect(step(run.check.activity)).toEqual({ kind: 'draft', label: `${name}: ${run.check.label}` });
      expect(Object.values(PATCHES)).toContain(run.patch);
    },
  );

  it('keeps the patch ids and activity names recorded conversations replay by, and the run view its labels', () => {
    expect(Object.fromEntries(BUILTIN_RUNS.map((run) => [run.spec.name, run.patch]))).toEqual({
      SearchTools: 'search-tools',
      RunCode: 'run-code',
      ReadFile: 'files',
      CreateAgent: 'create-agent',
      CreateTool: 'create-tool',
      Remember: 'memory',
      Forget: 'memory',
    });
    expect(
      Object.fromEntries(
        Object.entries(ACTIVITY_STEPS).filter(([, step]) => step.kind === 'draft' || step.kind === 'builtin'),
      ),
    ).toEqual({
      listAgents: { kind: 'builtin', tool: 'ListAgents' },
      searchTools: { kind: 'builtin', tool: 'SearchTools' },
      runCode: { kind: 'builtin', tool: 'RunCode' },
      readFile: { kind: 'builtin', tool: 'ReadFile' },
      checkGoalDraft: { kind: 'draft', label: 'CreateAgent: check the draft' },
      createGoal: { kind: 'draft', label: 'CreateAgent: write the agent' },
      checkToolDraft: { kind: 'draft', label: 'CreateTool: check the draft' },
      createTool: { kind: 'draft', label: 'CreateTool: write the tool' },
      checkFact: { kind: 'draft', label: 'Remember: check the fact' },
      rememberFact: { kind: 'builtin', tool: 'Remember' },
      checkForget: { kind: 'draft', label: 'Forget: find the memory' },
      forgetFact: { kind: 'builtin', tool: 'Forget' },
    });
  });
});

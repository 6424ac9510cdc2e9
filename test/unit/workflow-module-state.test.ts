// The workflow code's modules are loaded once per worker and shared by all its conversations (worker/workflow-code.ts):
// none may keep state at module level. The SDK freezes what they export, so a shared constant mutated fails loudly,
// but a `let`, or a Map or Set (which freezing does not reach), would be one conversation's state seen by the others;
// the one exception is the table of what conversations hold alike (workflows/interned.ts), by content and frozen.
// This walks every module the workflow bundle's entry reaches (value imports: `import type` brings no code) and
// checks each one's top level.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { WORKFLOWS_PATH } from '../../worker/workflow-code';

const MUTABLE_CONTAINERS = new Set(['Map', 'Set', 'WeakMap', 'WeakSet']);

/** The project's modules the entry reaches through value imports. */
function reachable(entry: string): string[] {
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
    for (const statement of source.statements) {
      const specifier =
        (ts.isImportDeclaration(statement) && !statement.importClause?.isTypeOnly) ||
        (ts.isExportDeclaration(statement) && !statement.isTypeOnly)
          ? statement.moduleSpecifier
          : undefined;
      if (!specifier || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.')) continue;
      const base = path.resolve(path.dirname(file), specifier.text);
      const target = [`${base}.ts`, path.join(base, 'index.ts')].find(existsSync);
      if (target) queue.push(target);
    }
  }
  return [...seen];
}

/** What at the top level of `file` would be state shared by every workflow of a worker. */
function moduleState(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  const where = (node: ts.Node) =>
    `${path.relative(process.cwd(), file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  /** A Map or Set made when the module loads (not inside a function, which runs per call). */
  const containers = (node: ts.Node): void => {
    if (ts.isFunctionLike(node)) return;
    if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && MUTABLE_CONTAINERS.has(node.expression.text))
      found.push(`${where(node)}: a ${node.expression.text} made at module level`);
    ts.forEachChild(node, containers);
  };
  for (const statement of source.statements) {
    if (ts.isVariableStatement(statement)) {
      if (!(statement.declarationList.flags & ts.NodeFlags.Const))
        found.push(`${where(statement)}: a module-level let or var`);
      containers(statement);
    }
    if (ts.isClassDeclaration(statement)) {
      for (const member of statement.members) {
        if (!ts.isPropertyDeclaration(member)) continue;
        const modifiers = ts.getModifiers(member) ?? [];
        if (!modifiers.some((m) => m.kind === ts.SyntaxKind.StaticKeyword)) continue;
        if (!modifiers.some((m) => m.kind === ts.SyntaxKind.ReadonlyKeyword))
          found.push(`${where(member)}: a static field that is not readonly`);
        containers(member);
      }
    }
  }
  return found;
}

describe('workflow code: no state at module level (its modules are shared by every conversation of a worker)', () => {
  const modules = reachable(WORKFLOWS_PATH);

  it('reaches the workflow code from the bundle entry', () => {
    const names = modules.map((f) => path.relative(path.dirname(WORKFLOWS_PATH), f));
    expect(names).toEqual(expect.arrayContaining(['agent-goal-workflow.ts', 'decider/conversation.ts']));
    expect(modules.some((f) => f.includes(`${path.sep}core${path.sep}`))).toBe(true);
  });

  it('keeps no let, var, Map, Set or writable static field at module level, but the interned contents', () => {
    // workflows/interned.ts holds what conversations share, by content and frozen (test/unit/interned.test.ts).
    expect(modules.flatMap(moduleState)).toEqual([expect.stringMatching(/^workflows\/interned\.ts:\d+: a Map made/)]);
  });

  it('finds such state where there is some', () => {
    const file = path.join(__dirname, '..', '..', 'core', 'usage-stats.ts');
    expect(moduleState(file)).toEqual([expect.stringMatching(/usage-stats\.ts:\d+: a Set made at module level/)]);
  });
});

// The settings the product's code reads, found by reading the code (not a hand-kept list), with what the code does
// when each is unset, as far as the code says so where it reads it. Used by the docs tests: the settings table in
// docs/deploying.md and the troubleshooting page's links to it.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export const ROOT = path.join(__dirname, '..', '..');

/** Folders of code that runs in no shipped process: tests, their kit, benchmarks, evals, examples, the browser app. */
const NOT_PRODUCT = new Set(['test', 'testkit', 'bench', 'evals', 'examples', 'web', 'node_modules', 'dist', 'data']);
/** The environment a process inherits, not a setting of ours. */
const NOT_SETTINGS = new Set(['PATH', 'HOME']);
const NAME = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$|^[A-Z]{4,}$/;

/** Every .ts file of the product (every top-level folder but NOT_PRODUCT), tests excluded. */
export function productFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) return e.name === 'node_modules' ? [] : walk(full);
      return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') && !e.name.endsWith('.test.ts') ? [full] : [];
    });
  return readdirSync(ROOT, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith('.') && !NOT_PRODUCT.has(e.name))
    .flatMap((e) => walk(path.join(ROOT, e.name)));
}

const parsed = new Map<string, ts.SourceFile>();
export function sourceOf(file: string): ts.SourceFile {
  let source = parsed.get(file);
  if (!source) {
    source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true);
    parsed.set(file, source);
  }
  return source;
}

function visit(node: ts.Node, fn: (node: ts.Node) => void): void {
  fn(node);
  ts.forEachChild(node, (child) => visit(child, fn));
}

/** `env`, `process.env`, `io.env`, `this.env`: an expression that is the environment. */
function isEnv(node: ts.Expression): boolean {
  const text = node.getText();
  return /(^|\.)env$/.test(text);
}

/** The setting an expression reads: `env.NAME`, `env['NAME']`, `e.NAME` (a schema's parsed values), ignoring `?.trim()`,
 * `!`, parentheses. */
function accessedName(node: ts.Expression): string | undefined {
  let n: ts.Expression = node;
  for (;;) {
    if (ts.isParenthesizedExpression(n) || ts.isNonNullExpression(n)) n = n.expression;
    else if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && n.arguments.length === 0)
      n = n.expression.expression; // env.NAME?.trim()
    else break;
  }
  if (ts.isPropertyAccessExpression(n) && NAME.test(n.name.text)) return n.name.text;
  if (ts.isElementAccessExpression(n) && ts.isStringLiteral(n.argumentExpression) && isEnv(n.expression))
    return n.argumentExpression.text;
  return undefined;
}

/** An object literal handed to `z.object(...)`: its upper-case keys are settings (the worker's schema). */
function isSchemaObject(node: ts.Node): node is ts.ObjectLiteralExpression {
  const call = node.parent;
  return (
    ts.isObjectLiteralExpression(node) &&
    !!call &&
    ts.isCallExpression(call) &&
    call.expression.getText() === 'z.object'
  );
}

export interface SettingsInCode {
  /** Each setting and the files that read it (relative to the project). */
  readIn: Map<string, Set<string>>;
  /** What the code falls back to where it reads each setting: the expressions found (see settingsInCode). */
  defaults: Map<string, Fallback[]>;
}

/** What a piece of code does when a setting is unset: `value` (an expression, as written), or a comparison. */
export type Fallback =
  { kind: 'value'; text: string; file: string } | { kind: 'compare'; op: '===' | '!=='; value: string; file: string };

let cached: SettingsInCode | undefined;

/** Every setting the product reads, from the code: env.NAME / env['NAME'] reads, the keys of settings schemas
 * (z.object with upper-case keys), the lists of names a module reads through env[name] (*_SETTING_NAMES,
 * *_VARIABLES), a binary's `envVar`, and the `${env:NAME}` references of the shipped registry files in config/. */
export function settingsInCode(): SettingsInCode {
  if (cached) return cached;
  const readIn = new Map<string, Set<string>>();
  const defaults = new Map<string, Fallback[]>();
  const add = (name: string, file: string) => {
    if (NOT_SETTINGS.has(name)) return;
    const set = readIn.get(name) ?? new Set<string>();
    set.add(path.relative(ROOT, file));
    readIn.set(name, set);
  };
  const fallback = (name: string, f: Fallback) => defaults.set(name, [...(defaults.get(name) ?? []), f]);
  for (const file of productFiles()) {
    const source = sourceOf(file);
    const rel = path.relative(ROOT, file);
    visit(source, (node) => {
      if (ts.isPropertyAccessExpression(node) && NAME.test(node.name.text) && isEnv(node.expression))
        add(node.name.text, file);
      if (ts.isElementAccessExpression(node) && ts.isStringLiteral(node.argumentExpression) && isEnv(node.expression))
        add(node.argumentExpression.text, file);
      if (isSchemaObject(node)) {
        for (const p of node.properties) {
          if (!ts.isPropertyAssignment(p) || !NAME.test(p.name.getText())) continue;
          const name = p.name.getText();
          add(name, file);
          const found = schemaFallback(p.initializer, name);
          if (found !== undefined) fallback(name, { kind: 'value', text: found, file: rel });
        }
      }
      if (
        ts.isVariableDeclaration(node) &&
        /(SETTING_NAMES|_VARIABLES)$/.test(node.name.getText()) &&
        node.initializer
      ) {
        visit(node.initializer, (n) => {
          if (ts.isStringLiteral(n) && NAME.test(n.text)) add(n.text, file);
        });
      }
      if (ts.isPropertyAssignment(node) && node.name.getText() === 'envVar' && ts.isStringLiteral(node.initializer))
        add(node.initializer.text, file);
      // What an unset setting falls back to where it is read.
      if (ts.isBinaryExpression(node)) {
        const name = accessedName(node.left);
        const op = node.operatorToken.kind;
        if (name && (op === ts.SyntaxKind.QuestionQuestionToken || op === ts.SyntaxKind.BarBarToken))
          fallback(name, { kind: 'value', text: node.right.getText(), file: rel });
        if (
          name &&
          (op === ts.SyntaxKind.EqualsEqualsEqualsToken || op === ts.SyntaxKind.ExclamationEqualsEqualsToken) &&
          ts.isStringLiteral(node.right)
        )
          fallback(name, {
            kind: 'compare',
            op: op === ts.SyntaxKind.EqualsEqualsEqualsToken ? '===' : '!==',
            value: node.right.text,
            file: rel,
          });
      }
      // `env.NAME ? use(env.NAME) : fallback`: only when the true branch uses the setting (a flag's branches are not
      // its default).
      if (ts.isConditionalExpression(node)) {
        const name = accessedName(node.condition);
        if (name && new RegExp(`\\b${name}\\b`).test(node.whenTrue.getText()))
          fallback(name, { kind: 'value', text: node.whenFalse.getText(), file: rel });
      }
      // whole('API_PORT', env.API_PORT, DEFAULT_API_PORT, …), positive('READER_MAX_BYTES', DEFAULT…), …: a helper
      // given the setting's name and its fallback.
      if (
        ts.isCallExpression(node) &&
        ts.isIdentifier(node.expression) &&
        node.arguments.length >= 2 &&
        ts.isStringLiteral(node.arguments[0]!) &&
        NAME.test(node.arguments[0].text)
      ) {
        const name = node.arguments[0].text;
        const rest = node.arguments.slice(1).filter((a) => accessedName(a) !== name);
        if (rest.length) fallback(name, { kind: 'value', text: rest[0]!.getText(), file: rel });
      }
    });
  }
  for (const config of ['mcp_endpoints.json', 'triggers.json']) {
    const text = readFileSync(path.join(ROOT, 'config', config), 'utf8');
    for (const m of text.matchAll(/\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g)) add(m[1]!, path.join(ROOT, 'config', config));
  }
  cached = { readIn, defaults };
  return cached;
}

/** A schema field's fallback: count('NAME', 8, 1) → 8, flag('NAME', true) → true, z.string().default('x') → 'x';
 * undefined when the field has none (optional, or dollars('NAME')). */
function schemaFallback(init: ts.Expression, name: string): string | undefined {
  let found: string | undefined;
  visit(init, (n) => {
    if (found !== undefined || !ts.isCallExpression(n)) return;
    const callee = n.expression;
    if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'default' && n.arguments[0])
      found = n.arguments[0].getText();
    else if (
      ts.isIdentifier(callee) &&
      n.arguments[0] &&
      ts.isStringLiteral(n.arguments[0]) &&
      n.arguments[0].text === name &&
      n.arguments[1]
    )
      found = n.arguments[1].getText();
  });
  return found;
}

/** A fallback's value when the code spells it out: a literal, a constant of the product set to one (or an object's
 * property), arithmetic on those, a template of those, `env.OTHER || value`; undefined when it is computed at run time. */
export function evaluate(text: string, file: string): string | undefined {
  const expr = ts.createSourceFile('x.ts', `(${text});`, ts.ScriptTarget.ES2022, true).statements[0];
  if (!expr || !ts.isExpressionStatement(expr)) return undefined;
  const value = valueOf(expr.expression, path.join(ROOT, file), 0);
  return value === undefined || typeof value === 'object' ? undefined : String(value);
}

type Value = string | number | boolean | { [key: string]: ts.Expression } | undefined;

function valueOf(node: ts.Expression, file: string, depth: number): Value {
  if (depth > 8) return undefined;
  const next = (n: ts.Expression) => valueOf(n, file, depth + 1);
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node))
    return next(node.expression);
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isNumericLiteral(node)) return Number(node.text.replaceAll('_', ''));
  if (node.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (node.kind === ts.SyntaxKind.FalseKeyword) return false;
  if (ts.isTemplateExpression(node)) {
    let out = node.head.text;
    for (const span of node.templateSpans) {
      const v = next(span.expression);
      if (v === undefined || typeof v === 'object') return undefined;
      out += String(v) + span.literal.text;
    }
    return out;
  }
  if (ts.isObjectLiteralExpression(node)) {
    const props: Record<string, ts.Expression> = {};
    for (const p of node.properties) if (ts.isPropertyAssignment(p)) props[p.name.getText()] = p.initializer;
    return props;
  }
  // Constants by their names (DEFAULT_API_PORT): a lower-case name is a variable, known only at run time.
  if (ts.isIdentifier(node)) return /^[A-Z][A-Z0-9_]*$/.test(node.text) ? constant(node.text, file, depth) : undefined;
  if (ts.isPropertyAccessExpression(node)) {
    const target = next(node.expression);
    const prop = target && typeof target === 'object' ? target[node.name.text] : undefined;
    return prop ? valueOf(prop, declaringFile.get(target as object) ?? file, depth + 1) : undefined;
  }
  if (ts.isBinaryExpression(node)) {
    const op = node.operatorToken.kind;
    if (op === ts.SyntaxKind.BarBarToken || op === ts.SyntaxKind.QuestionQuestionToken)
      return accessedName(node.left) ? next(node.right) : undefined;
    const [a, b] = [next(node.left), next(node.right)];
    if (typeof a !== 'number' || typeof b !== 'number') return undefined;
    if (op === ts.SyntaxKind.AsteriskToken) return a * b;
    if (op === ts.SyntaxKind.SlashToken) return a / b;
    if (op === ts.SyntaxKind.PlusToken) return a + b;
    if (op === ts.SyntaxKind.MinusToken) return a - b;
  }
  return undefined;
}

/** Which file an object literal's properties are to be read in (constants they name are looked up there first). */
const declaringFile = new WeakMap<object, string>();

/** A `const NAME = …` of `file`, else of any product file. */
function constant(name: string, file: string, depth: number): Value {
  for (const f of [file, ...productFiles()]) {
    let init: ts.Expression | undefined;
    visit(sourceOf(f), (n) => {
      if (!init && ts.isVariableDeclaration(n) && n.name.getText() === name && n.initializer) init = n.initializer;
    });
    if (init) {
      const value = valueOf(init, f, depth + 1);
      if (value && typeof value === 'object') declaringFile.set(value, f);
      return value;
    }
  }
  return undefined;
}

/** Fallbacks that mean "nothing": an empty string, list or object, undefined, null. */
export function isBlank(text: string): boolean {
  return ["''", '""', '``', 'undefined', 'null', '{}', '[]'].includes(text.trim());
}

/** A fallback that is another setting (`env.S3_REGION || env.AWS_REGION`): no value of its own. */
export function isSettingRead(text: string): boolean {
  const expr = ts.createSourceFile('x.ts', `(${text});`, ts.ScriptTarget.ES2022, true).statements[0];
  return !!expr && ts.isExpressionStatement(expr) && accessedName(expr.expression) !== undefined;
}

/** One row of the table: `| <a id="slug"></a>`NAME` | default | what |`. */
export interface SettingRow {
  name: string;
  anchor: string | undefined;
  default: string;
}

/** The rows of every table in the "Settings" section. */
export function settingsRows(markdown = readFileSync(path.join(ROOT, 'docs', 'deploying.md'), 'utf8')): SettingRow[] {
  const start = markdown.indexOf('\n## Settings\n');
  const section = markdown.slice(start, markdown.indexOf('\n## ', start + 1));
  return section
    .split('\n')
    .filter((line) => /^\|\s*(<a id="[^"]*"><\/a>)?\s*`[A-Z]/.test(line))
    .map((line) => {
      const cells = line.split(/(?<!\\)\|/).slice(1, -1);
      return {
        name: /`([A-Z][A-Z0-9_]*\*?)`/.exec(cells[0]!)![1]!,
        anchor: /<a id="([^"]+)"><\/a>/.exec(cells[0]!)?.[1],
        default: (cells[1] ?? '').trim(),
      };
    });
}

/** The anchor of a setting's row: `MODEL_TIMEOUT` → `model-timeout` (docs/deploying.md#model-timeout). */
export const anchorOf = (name: string) => name.replace(/_?\*$/, '').toLowerCase().replaceAll('_', '-');

// docs/deploying.md's settings table, said to list every setting with its default, checked against the code: the
// settings are found by reading the code (test/helpers/settings-in-code.ts), not from a list kept by hand, and each
// default the table states is checked two ways: against the fallback the code writes where it reads the setting, and
// by the processes' own settings readers, which must read the stated default exactly as they read nothing. And the
// README's quick start: each provider's block is a configuration the worker accepts.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readApiSettings } from '../../api/api-settings';
import { createModel, PROVIDERS } from '../../activities/llm/model';
import { loadPrices } from '../../activities/llm/prices';
import { temporalTarget } from '../../runtime/connection';
import { tracingEnabled } from '../../runtime/tracing';
import { readWorkerSettings } from '../../worker/worker-settings';
import {
  evaluate,
  isBlank,
  isSettingRead,
  productFiles,
  ROOT,
  settingsInCode,
  settingsRows,
  anchorOf,
  type Fallback,
  type SettingRow as Row,
} from '../helpers/settings-in-code';

const rows = settingsRows();
const inCode = settingsInCode();
/** `HOOK_*`: a family of settings, each hook's own, read by prefix. */
const families = rows.filter((r) => r.name.endsWith('*')).map((r) => r.name.slice(0, -1));
const inFamily = (name: string) => families.some((prefix) => name.startsWith(prefix));

describe("docs/deploying.md's settings table", () => {
  it('has a row for every setting the code reads', () => {
    expect(rows.length).toBeGreaterThan(100);
    const listed = new Set(rows.map((r) => r.name));
    const missing = [...inCode.readIn.keys()].filter((name) => !listed.has(name) && !inFamily(name)).sort();
    expect({ missing }).toEqual({ missing: [] });
  });

  it('has no row for a setting the code does not read', () => {
    const code = productFiles().map((f) => readFileSync(f, 'utf8'));
    const read = (row: Row) =>
      row.name.endsWith('*')
        ? code.some((text) => text.includes(`'${row.name.slice(0, -1)}'`))
        : inCode.readIn.has(row.name) || (inFamily(row.name) && code.some((text) => text.includes(row.name)));
    expect(rows.filter((r) => !read(r)).map((r) => r.name)).toEqual([]);
  });

  it('gives each row an anchor named after its setting, once', () => {
    const wrong = rows.filter((r) => r.anchor !== anchorOf(r.name)).map((r) => `${r.name}: ${r.anchor}`);
    expect(wrong).toEqual([]);
    const names = rows.map((r) => r.name);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  });

  it("states each setting's default as the code has it", () => {
    const problems = rows.filter((r) => !r.name.endsWith('*')).flatMap((row) => defaultProblems(row));
    expect(problems).toEqual([]);
  });
});

/**
 * A default cell is `—` (the code has none: unset means off, or not used), a value in backticks (what you would set;
 * the words after it explain), or words (a default the code computes, e.g. from another setting).
 */
function defaultProblems(row: Row): string[] {
  const fallbacks = inCode.defaults.get(row.name) ?? [];
  const stated = row.default;
  if (stated.startsWith('—')) {
    const real = fallbacks.filter((f) => f.kind === 'value' && !isBlank(f.text) && !isSettingRead(f.text));
    const defaultOn = fallbacks.filter((f) => f.kind === 'compare' && f.op === '!==');
    return [...real, ...defaultOn].map(
      (f) => `${row.name}: the table says none, but ${f.file} falls back to ${show(f)}`,
    );
  }
  const literal = /^`([^`]*)`/.exec(stated)?.[1];
  if (literal === undefined) {
    // Words: the code must compute a default it does not spell out as a value.
    const computed = fallbacks.some(
      (f) => f.kind === 'value' && !isBlank(f.text) && !isSettingRead(f.text) && evaluate(f.text, f.file) === undefined,
    );
    return computed
      ? []
      : [`${row.name}: the table describes a default ("${stated.slice(0, 40)}…") that the code does not compute`];
  }
  // What the processes' settings readers make of the stated value (they convert durations, megabytes, paths)…
  const verdicts = readers(row.name, literal);
  const problem = (why: string) => [`${row.name}: the table says \`${literal}\`, but ${why}`];
  if (verdicts.includes('differs'))
    return problem(`its readers read it otherwise than no value (${verdicts.join(', ')})`);
  if (verdicts.includes('equal')) return [];
  // …or, where no reader settles it (read elsewhere, or its default applied further on), the value the code writes
  // where it reads the setting: a literal, a constant, `!== 'false'`.
  const spelled = fallbacks.some((f) =>
    f.kind === 'compare' ? f.op === '!==' && literal !== f.value : evaluate(f.text, f.file) === literal,
  );
  return spelled ? [] : problem(`the code falls back to ${fallbacks.map(show).join(', ') || 'nothing'}`);
}

const show = (f: Fallback) => (f.kind === 'compare' ? `anything ${f.op} '${f.value}'` : f.text);

/** The processes' settings readers, each with the settings around it that make the others matter (S3_* only count
 * with BLOB_STORE=s3, METRICS_HOST with METRICS_PORT, …). The connection's never sees a dev server `npm start` runs
 * in this checkout (its record in DATA_DIR). */
const emptyDataDir = mkdtempSync(path.join(tmpdir(), 'settings-docs-'));
const alongside = {
  BLOB_STORE: 's3',
  S3_BUCKET: 'b',
  METRICS_PORT: '9464',
  STRIPE_API_KEY: 'k',
  AGENT_GOAL: 'goal_hr_pto',
};
const READERS: { read: (env: NodeJS.ProcessEnv) => unknown; bases: Record<string, string>[] }[] = [
  { read: (env) => readWorkerSettings(env), bases: [{}, alongside] },
  { read: (env) => readApiSettings(env), bases: [{}, alongside] },
  { read: (env) => temporalTarget(env), bases: [{ DATA_DIR: emptyDataDir }] },
  { read: (env) => tracingEnabled(env), bases: [{}, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' }] },
];

type Verdict = 'equal' | 'defers' | 'differs';

/**
 * For each reader that reads `name` (another value changes what it returns), how it reads `value` against no value:
 * the same (`equal`), only adding what it leaves out unset (`defers`: the default is applied further on), or otherwise.
 */
function readers(name: string, value = 'x'): Verdict[] {
  const verdicts: Verdict[] = [];
  for (const { read, bases } of READERS) {
    for (const base of bases) {
      const { [name]: _, ...unset } = base;
      const outcome = (env: Record<string, string>) => {
        try {
          return { ok: plain(read(env)) };
        } catch (err) {
          return { error: (err as Error).message };
        }
      };
      const none = outcome(unset);
      const stated = outcome({ ...unset, [name]: value });
      const other = outcome({ ...unset, [name]: otherThan(value) });
      if (compare(none, other) === 'equal' && compare(stated, other) === 'equal') continue; // not read here
      verdicts.push(compare(none, stated));
    }
  }
  return verdicts;
}

/** Another value of the same kind: 60 → 61, 24h → 25h, on → off, anything else with a letter added. */
function otherThan(value: string): string {
  const flip: Record<string, string> = { on: 'off', off: 'on', true: 'false', false: 'true' };
  if (flip[value]) return flip[value];
  const n = /^(\d+)([a-zA-Z]*)$/.exec(value);
  return n ? `${Number(n[1]) + 1}${n[2]}` : `${value}x`;
}

/** What a reader returned as plain data: no functions, no `env` it keeps as given, class instances as their fields. */
function plain(value: unknown, seen = new WeakSet<object>()): unknown {
  if (typeof value === 'function') return undefined;
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return '[cycle]';
  seen.add(value);
  if (value instanceof Map) return plain(Object.fromEntries(value), seen);
  if (value instanceof Set) return plain([...value], seen);
  if (Array.isArray(value)) return value.map((v) => plain(v, seen));
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => k !== 'env')
      .map(([k, v]) => [k, plain(v, seen)]),
  );
}

/** `b` against `a`: the same, the same but for keys `a` lacks, or different. */
function compare(a: unknown, b: unknown): Verdict {
  if (a === undefined && b !== undefined) return 'defers';
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object')
    return Object.is(a, b) ? 'equal' : 'differs';
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  let verdict: Verdict = 'equal';
  for (const key of keys) {
    const v = compare((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]);
    if (v === 'differs') return 'differs';
    if (v === 'defers') verdict = 'defers';
  }
  return verdict;
}

describe("the README's quick start with a provider key", () => {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Quick start with a provider key');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);

  it('has a block for every provider but the scripted one', () => {
    expect(start).toBeGreaterThan(0);
    const named = new Set(blocks.flatMap((b) => [...b.matchAll(/LLM_MODEL=([a-z-]+):/g)].map((m) => m[1])));
    expect(PROVIDERS.filter((p) => p !== 'scripted' && !named.has(p))).toEqual([]);
  });

  it.each(blocks.map((b) => [/LLM_MODEL=(\S+)/.exec(b)?.[1] ?? b, b]))(
    '%s: the worker takes it and makes that model',
    (_, block) => {
      const lines = block.split('\n').filter((l) => l.trim() && !l.trim().startsWith('#'));
      const env: Record<string, string> = {};
      for (const line of lines.filter((l) => l.startsWith('export '))) {
        const words = line.replace(/\s+#.*$/, '').slice('export '.length);
        for (const [, name, value] of words.matchAll(/([A-Z_]+)=(\S+)/g)) env[name!] = value!;
      }
      expect(lines.filter((l) => !l.startsWith('export ')).map((l) => l.trim())).toEqual(['npm start']);
      const settings = readWorkerSettings(env);
      const made = createModel(settings.llm);
      expect(`${made.provider}:${made.modelId}`).toBe(env.LLM_MODEL);
      // A model the price table knows, so the first turn shows what it cost (openai-compatible: yours to price).
      if (made.provider !== 'openai-compatible') expect(loadPrices().priceOf(env.LLM_MODEL!)).toBeDefined();
    },
  );
});

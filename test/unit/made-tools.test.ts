// Made tools without a server: the draft check (every hostile draft refused with a clear reason, the process unharmed)
// and the registry in a real folder (versions, idempotent writes, hand-dropped files checked like drafts, disable,
// enable, remove; nothing written per call).
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ToolDraft, ToolProvenance } from '../../core/made-tools';
import { ToolIndexCache } from '../../activities/tool-search';
import { MadeTools } from '../../tools/made/made-tools';
import { DEFAULT_SANDBOX_LIMITS } from '../../tools/made/sandbox';
import { DEFAULT_TOOL_CODE_BUDGET } from '../../tools/made/tool-draft';

const EXTRACT_URLS: ToolDraft = {
  name: 'extract_urls',
  description: 'Every http(s) URL in a text, and how many per domain.',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  outputSchema: { type: 'object', properties: { urls: { type: 'array' }, domains: { type: 'object' } } },
  code: [
    'const urls = input.text.match(/https?:\\/\\/[^\\s,;)]+/g) ?? [];',
    'const domains = {};',
    "for (const u of urls) { const d = u.split('/')[2]; domains[d] = (domains[d] ?? 0) + 1; }",
    'return { urls, domains };',
  ].join('\n'),
  examples: [
    { input: { text: 'no links here' }, output: { urls: [], domains: {} } },
    { input: { text: 'see https://a.com/x' }, output: { urls: ['https://a.com/x'], domains: { 'a.com': 1 } } },
    {
      input: { text: 'http://b.org, https://a.com and https://a.com/y' },
      output: { urls: ['http://b.org', 'https://a.com', 'https://a.com/y'], domains: { 'b.org': 1, 'a.com': 2 } },
    },
  ],
};

const MADE_AT = new Date(Date.now() - 86_400_000).toISOString();
const provenance = (callId: string): ToolProvenance => ({
  createdBy: 'conversation-1',
  callId,
  createdAt: MADE_AT,
  request: 'extract the URLs',
  model: 'scripted:test',
});

function registry(folder = mkdtempSync(path.join(tmpdir(), 'made-tools-'))) {
  return new MadeTools({
    folder,
    limits: DEFAULT_SANDBOX_LIMITS,
    budget: DEFAULT_TOOL_CODE_BUDGET,
    reserved: (name) => (name === 'FindAccount' ? `the name ${name} is taken by a native tool` : null),
  });
}

/** A draft of a tool whose code is `code`, with examples that expect 1. */
const hostile = (code: string): ToolDraft => ({
  ...EXTRACT_URLS,
  name: 'hostile',
  outputSchema: undefined,
  code,
  examples: [1, 2, 3].map((n) => ({ input: { text: String(n) }, output: 1 })),
});

describe('the draft check', () => {
  const tools = registry();

  it('passes a working draft and shows how each example ran', async () => {
    const check = await tools.check(EXTRACT_URLS);
    expect(check.problems).toEqual([]);
    expect(check.runs).toHaveLength(3);
    expect(check.runs.every((r) => r.passed)).toBe(true);
    expect(check.runs[1]).toMatchObject({ output: { urls: ['https://a.com/x'], domains: { 'a.com': 1 } } });
  });

  it.each([
    ['an endless loop', hostile('for (;;) {}'), /example 1: stopped after 1000 ms of CPU time/],
    ['deep recursion', hostile('const f = (n) => f(n + 1) + 1; return f(0);'), /stack overflowed/],
    ['a 1 GB allocation', hostile('return new ArrayBuffer(1024 * 1024 * 1024).byteLength;'), /memory limit|RangeError/],
    ["require('fs')", hostile("return require('fs').readFileSync('/etc/passwd');"), /'require' is not defined/],
    ['fetch', hostile("return fetch('http://127.0.0.1');"), /'fetch' is not defined \(no network\)/],
    ['process.exit', hostile('process.exit(1);'), /'process' is not defined/],
    ['globalThis tampering', hostile('globalThis.JSON = null; return 1;'), /'JSON' is read-only.*frozen/],
    ['prototype pollution of the input', hostile('input.__proto__.polluted = 1; return 1;'), /frozen/],
    ['Math.random', hostile('return Math.random() < 2 ? 1 : 0;'), /Math.random is not allowed: tools are pure/],
    ['Date.now', hostile('return Date.now() > 0 ? 1 : 0;'), /'Date' is not defined \(no clock/],
    ['10 MB of output', hostile("return 'x'.repeat(10 * 1024 * 1024);"), /the limit is 100000|memory limit/],
    ['a syntax error', hostile('return {'), /^the code does not parse: SyntaxError/],
    ['failing examples', hostile('return 2;'), /example 1: expected 1, got 2/],
    ['a name of a native tool', { ...EXTRACT_URLS, name: 'FindAccount' }, /FindAccount is taken by a native tool/],
    ['an MCP-style name', { ...EXTRACT_URLS, name: 'fx__convert' }, /no "__"/],
    ['too few examples', { ...EXTRACT_URLS, examples: EXTRACT_URLS.examples.slice(0, 2) }, /at least 3/],
    ['code over the budget', hostile(`return 1;\n${'// padding\n'.repeat(120)}`), /the budget is 100 lines/],
    [
      'an input schema that is not one',
      { ...EXTRACT_URLS, inputSchema: { type: 'object', properties: { text: { type: 'strin' } } } },
      /inputSchema is not a valid JSON Schema/,
    ],
    [
      'an example its own schema refuses',
      { ...EXTRACT_URLS, examples: [...EXTRACT_URLS.examples, { input: { text: 5 }, output: {} }] },
      /example 4: its input does not fit inputSchema/,
    ],
  ])('refuses %s with a clear reason, and the worker goes on', async (_what, draft, reason) => {
    const check = await tools.check(draft);
    expect(check.problems.join('\n')).toMatch(reason);
    expect((await tools.check(EXTRACT_URLS)).problems).toEqual([]);
  });

  it('refuses a draft whose second run differs: state kept where freezing does not reach', async () => {
    // Only the built-ins' first level is frozen; %TypedArray%.prototype is one level down, and a series shares it.
    const code = 'const p = Object.getPrototypeOf(Int8Array).prototype; p.n = (p.n ?? 0) + 1; return p.n;';
    const check = await tools.check(hostile(code));
    expect(check.problems[0]).toBe(
      'example 1: a second run gave 2, not 1: a tool must be pure (same input, same answer)',
    );
  });
});

describe('the made tools folder', () => {
  it('writes a version with its provenance, offers it, and runs it; a retry of the same call finds its file', async () => {
    const tools = registry();
    const created = await tools.create(EXTRACT_URLS, provenance('call-1'));
    expect(created).toMatchObject({ name: 'extract_urls', version: 1 });
    const file = (created as { file: string }).file;
    expect(path.basename(file)).toBe('extract_urls.v1.json');
    const written = JSON.parse(readFileSync(file, 'utf8'));
    expect(written).toMatchObject({ name: 'extract_urls', version: 1, isPure: true, provenance: provenance('call-1') });
    expect(written.update).toBeUndefined();
    expect(tools.spec('extract_urls')).toMatchObject({ kind: 'made', made: { version: 1 }, readOnly: true });

    // The same call again (a retry after a crash): the same answer, nothing written.
    expect(await tools.create(EXTRACT_URLS, provenance('call-1'))).toEqual(created);
    expect(readdirSync(tools.folder)).toEqual(['extract_urls.v1.json']);

    expect(await tools.run('extract_urls', 1, { text: 'at https://x.dev/a' })).toEqual({
      status: 'ok',
      result: { urls: ['https://x.dev/a'], domains: { 'x.dev': 1 } },
    });
    expect(await tools.run('extract_urls', 1, { text: 7 })).toMatchObject({ status: 'invalid_input' });
  });

  it('makes a changed tool a new version only when asked; the old version stays callable', async () => {
    const tools = registry();
    await tools.create(EXTRACT_URLS, provenance('call-1'));
    const again = await tools.create({ ...EXTRACT_URLS, description: 'URLs again, by domain.' }, provenance('call-2'));
    expect(again).toEqual({ problems: [expect.stringMatching(/extract_urls is taken by a made tool \(v1\)/)] });

    const v2 = { ...EXTRACT_URLS, update: true, code: `${EXTRACT_URLS.code}\n// v2` };
    expect(await tools.create(v2, provenance('call-3'))).toMatchObject({ version: 2 });
    expect(tools.spec('extract_urls')?.made).toEqual({ version: 2 });
    expect(tools.specAt('extract_urls', 1)?.made).toEqual({ version: 1 });
    expect((await tools.run('extract_urls', 1, { text: '' })).status).toBe('ok');
    expect(tools.list().map((t) => [t.version, t.current])).toEqual([
      [2, true],
      [1, false],
    ]);
    expect(await tools.check({ ...EXTRACT_URLS, name: 'new_one', update: true })).toMatchObject({
      problems: ['there is no made tool new_one to update'],
    });
  });

  it('checks a file dropped in by hand like a draft: a broken one is reported, never loaded', async () => {
    const tools = registry();
    const put = (name: string, content: unknown) =>
      writeFileSync(path.join(tools.folder, name), typeof content === 'string' ? content : JSON.stringify(content));
    const manifest = { ...EXTRACT_URLS, version: 1, isPure: true };
    put('extract_urls.v1.json', manifest);
    put('broken_json.v1.json', '{ "name": ');
    put('wrong_answers.v1.json', { ...manifest, name: 'wrong_answers', code: 'return 42;' });
    put('misnamed.v1.json', { ...manifest, name: 'something_else' });
    put('no_examples.v1.json', { ...manifest, name: 'no_examples', examples: [] });
    put('sneaky.v1.json', { ...manifest, name: 'sneaky', code: "return require('fs');" });
    await tools.refresh();
    expect(tools.names()).toEqual(['extract_urls']);
    const problems = tools.problems().join('\n');
    expect(problems).toMatch(/broken_json\.v1\.json: not JSON/);
    expect(problems).toMatch(/wrong_answers\.v1\.json: example 1: expected .*, got 42/);
    expect(problems).toMatch(/misnamed\.v1\.json: the file says something_else v1/);
    expect(problems).toMatch(/no_examples\.v1\.json: examples: at least 3/);
    expect(problems).toMatch(/sneaky\.v1\.json: example 1: ReferenceError: 'require' is not defined/);
    expect(await tools.run('wrong_answers', 1, {})).toMatchObject({ status: 'tool_error' });
    expect(tools.list().find((t) => t.name === 'sneaky')).toMatchObject({
      current: false,
      problems: expect.any(Array),
    });
  });

  it('disables, enables and removes every version of a tool; calls say so', async () => {
    const tools = registry();
    await tools.create(EXTRACT_URLS, provenance('call-1'));
    await tools.manage('disable', 'extract_urls');
    expect(readdirSync(tools.folder).sort()).toEqual(['extract_urls.v1.json.disabled']);
    expect(tools.spec('extract_urls')).toBeUndefined();
    expect(await tools.run('extract_urls', 1, { text: '' })).toEqual({
      status: 'tool_error',
      error: 'extract_urls is disabled (agent tools enable extract_urls)',
    });
    await tools.manage('enable', 'extract_urls');
    expect(tools.spec('extract_urls')).toBeDefined();
    await tools.manage('remove', 'extract_urls');
    expect(tools.names()).toEqual([]);
    expect(await tools.run('extract_urls', 1, { text: '' })).toMatchObject({ status: 'tool_error' });
    await expect(tools.manage('remove', 'extract_urls')).rejects.toThrow(/No made tool named extract_urls/);
  });

  it('writes nothing per call: usage is counted from Temporal’s histories (views/usage-stats.ts)', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'made-tools-'));
    const tools = registry(folder);
    await tools.create(EXTRACT_URLS, provenance('call-1'));
    const before = readdirSync(folder).sort();
    for (let i = 0; i < 5; i++) await tools.run('extract_urls', 1, { text: `https://a.com/${i}` });
    expect(readdirSync(folder).sort()).toEqual(before);
    expect(tools.list()[0]!.usage).toBeUndefined();
  });
});

describe('made tools among other tools', () => {
  it('are found by SearchTools like any tool, by what they do', async () => {
    const tools = registry();
    await tools.create(EXTRACT_URLS, provenance('call-1'));
    const made = tools.spec('extract_urls')!;
    const other = (name: string, description: string) => ({ ...made, name, description, kind: 'native' as const });
    const catalog = [
      other('BookPTO', 'Book paid time off between two dates'),
      other('TrackPackage', 'Where a parcel is, by its tracking number'),
      made,
      other('ConvertCurrency', 'Convert an amount between currencies'),
    ];
    const [best] = new ToolIndexCache().search(catalog, 'find the links in a text', 3);
    expect(best).toMatchObject({ name: 'extract_urls', inputSchema: EXTRACT_URLS.inputSchema });
  });
});

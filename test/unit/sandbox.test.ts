// The sandbox for model-written code: JSON in and out, and every hostile thing a draft may try stopped with a clear
// reason while the worker goes on (each run below is followed by a good one in the same process).
import { DEFAULT_SANDBOX_LIMITS, runSandboxed, runSeries } from '../../tools/made/sandbox';

const run = (code: string, input: unknown = {}) => runSandboxed(code, input);

describe('runSandboxed', () => {
  it('runs the body of a function of input and returns its JSON value', async () => {
    const code = `
      const urls = input.text.match(/https?:\\/\\/[^\\s]+/g) ?? [];
      const domains = {};
      for (const u of urls) { const d = u.split('/')[2]; domains[d] = (domains[d] ?? 0) + 1; }
      return { count: urls.length, domains };`;
    const result = await run(code, { text: 'see https://a.com/x and https://b.org and https://a.com/y' });
    expect(result).toMatchObject({ ok: true, output: { count: 3, domains: { 'a.com': 2, 'b.org': 1 } } });
  });

  it('gives the same answer for the same input, run after run (a fresh runtime each time)', async () => {
    const code = 'const seen = []; seen.push(input.n); return { n: input.n * 2, seen: seen.length };';
    expect(await run(code, { n: 21 })).toMatchObject({ ok: true, output: { n: 42, seen: 1 } });
    expect(await run(code, { n: 21 })).toMatchObject({ ok: true, output: { n: 42, seen: 1 } });
  });

  it.each([
    ['an endless loop', 'for (;;) {}', /stopped after 1000 ms of CPU time/],
    ['deep recursion', 'const f = (n) => f(n + 1) + 1; return f(0);', /stack overflowed/],
    [
      'a 1 GB allocation',
      'const a = new ArrayBuffer(1024 * 1024 * 1024); return a.byteLength;',
      /memory limit|RangeError/,
    ],
    ['a huge string', "let s = 'x'; for (;;) s += s; return s;", /memory limit|string too long|CPU time/],
    [
      "require('fs')",
      "return require('fs').readFileSync('/etc/passwd', 'utf8');",
      /ReferenceError: 'require' is not defined/,
    ],
    ['fetch', "return fetch('http://127.0.0.1');", /ReferenceError: 'fetch' is not defined/],
    ['process.exit', 'process.exit(1);', /ReferenceError: 'process' is not defined/],
    ['a timer', 'setTimeout(() => {}, 10); return 1;', /ReferenceError: 'setTimeout' is not defined/],
    ['Math.random', 'return Math.random();', /Math.random is not allowed/],
    ['Date.now', 'return Date.now();', /ReferenceError: 'Date' is not defined/],
    ['10 MB of output', "return 'x'.repeat(10 * 1024 * 1024);", /the limit is 100000|memory limit/],
    ['no answer', 'const x = 1;', /returned nothing/],
    ['a syntax error', 'return {', /SyntaxError/],
  ])('stops %s with a clear reason', async (_what, code, reason) => {
    const result = await run(code);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(reason);
    // The worker is unharmed: the next call runs.
    expect(await run('return input.n + 1;', { n: 1 })).toMatchObject({ ok: true, output: 2 });
  });

  it('names the line of the code where it failed', async () => {
    const result = await run('const a = 1;\nconst b = 2;\nthrow new Error("no " + (a + b));');
    expect(result).toMatchObject({ ok: false, error: 'Error: no 3 (line 3)', line: 3 });
  });

  it.each([
    ['prototype pollution', 'Object.prototype.polluted = true; return 1;'],
    ["pollution through the input's __proto__", 'input.__proto__.x = 1; return 1;'],
    ['replacing a built-in', 'globalThis.JSON = null; return 1;'],
    ['state left on the global object', 'globalThis.count = (globalThis.count ?? 0) + 1; return globalThis.count;'],
    ['a patched prototype method', 'Array.prototype.map = () => []; return [1].map((x) => x);'],
  ])('refuses %s: built-ins and globals are frozen', async (_what, code) => {
    const result = await run(code, {});
    expect(result).toMatchObject({ ok: false, line: 1 });
    if (!result.ok) expect(result.error).toMatch(/frozen/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(await run('return [typeof JSON, ({}).polluted ?? null, [1].map((x) => x + 1)];')).toMatchObject({
      ok: true,
      output: ['object', null, [2]],
    });
  });

  it('reads a "__proto__" key of the input as data, not as a prototype', async () => {
    const input = JSON.parse('{"__proto__": {"isAdmin": true}}');
    const result = await run('input.__proto__.x = 1; return [({}).isAdmin ?? null, input.__proto__];', input);
    expect(result).toMatchObject({ ok: true, output: [null, { isAdmin: true, x: 1 }] });
  });

  it('runs a series in one context, each call with its own deadline', async () => {
    const results = await runSeries('return input * 2;', [1, 2, 3], DEFAULT_SANDBOX_LIMITS);
    expect(results.map((r) => r.ok && r.output)).toEqual([2, 4, 6]);
  });

  it('has limits a setting can change', async () => {
    const tight = { ...DEFAULT_SANDBOX_LIMITS, maxOutputChars: 10 };
    expect(await runSandboxed("return 'a long answer';", {}, tight)).toMatchObject({ ok: false });
  });
});

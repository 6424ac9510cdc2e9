// Made tools (issue 23): what a call through the registry (`MadeTools.run`: the folder looked at, the arguments
// checked against the tool's schema, the sandbox, the answer checked) costs against the same
// function run natively and against the bare sandbox call; what checking a draft costs (`MadeTools.check`: schemas
// compiled, every example run twice in one context); and whether many calls leave the process's memory flat (their
// usage is counted from Temporal's histories, not here: views/usage-stats.ts). No server: the registry in a temporary folder, in this process (as
// the worker runs it, in the runMadeTool activity).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { ToolDraft, ToolProvenance } from '../core/made-tools';
import { MadeTools } from '../tools/made/made-tools';
import { DEFAULT_SANDBOX_LIMITS, runSandboxed } from '../tools/made/sandbox';
import { DEFAULT_TOOL_CODE_BUDGET } from '../tools/made/tool-draft';
import type { BenchContext, BenchPart } from './context';
import type { MadeToolsOptions } from './options';
import { formatMs, ratio, round, roundSummary, summarize, table, timeIt, type Summary } from './stats';

/** The issue's own example of a tool made on demand: the URLs in a text, and how many per domain. */
const CODE = [
  'const urls = input.text.match(/https?:\\/\\/[^\\s,;)"]+/g) ?? [];',
  'const domains = {};',
  "for (const u of urls) { const d = u.split('/')[2].toLowerCase(); domains[d] = (domains[d] ?? 0) + 1; }",
  'return { count: urls.length, urls, domains };',
].join('\n');

/** A draft as a model would write it: schemas both ways and five examples, edge cases included. */
const DRAFT: ToolDraft = {
  name: 'extract_urls',
  description: 'Every http(s) URL in a text, in order, and how many there are per domain.',
  inputSchema: {
    type: 'object',
    properties: { text: { type: 'string', description: 'The text to look in.' } },
    required: ['text'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: {
      count: { type: 'integer', minimum: 0 },
      urls: { type: 'array', items: { type: 'string' } },
      domains: { type: 'object', additionalProperties: { type: 'integer' } },
    },
    required: ['count', 'urls', 'domains'],
  },
  code: CODE,
  examples: [
    { input: { text: 'no links here' }, output: { count: 0, urls: [], domains: {} } },
    {
      input: { text: 'see https://a.com/x' },
      output: { count: 1, urls: ['https://a.com/x'], domains: { 'a.com': 1 } },
    },
    {
      input: { text: 'http://b.org, https://a.com and https://a.com/y' },
      output: {
        count: 3,
        urls: ['http://b.org', 'https://a.com', 'https://a.com/y'],
        domains: { 'b.org': 1, 'a.com': 2 },
      },
    },
    {
      input: { text: 'Docs (https://Docs.Example.com/start); mirror: https://docs.example.com/start?lang=en' },
      output: {
        count: 2,
        urls: ['https://Docs.Example.com/start', 'https://docs.example.com/start?lang=en'],
        domains: { 'docs.example.com': 2 },
      },
    },
    {
      input: { text: 'ftp://old.net and mailto:x@y.z are not web links; "http://c.io/a?b=1#top" is' },
      output: { count: 1, urls: ['http://c.io/a?b=1#top'], domains: { 'c.io': 1 } },
    },
  ],
};

/** One call's argument: a paragraph with a few links, as a user would paste. */
const ARGS = {
  text:
    'Release notes are at https://github.com/acme/app/releases/tag/v2.3.0 and the migration guide at ' +
    'https://docs.acme.dev/guides/migrate-v2 (see also https://docs.acme.dev/guides/config#env). The incident ' +
    'write-up: https://status.acme.dev/incidents/4711; the discussion, http://forum.acme.dev/t/v2-3-feedback/88, ' +
    'and the upstream fix https://github.com/other/lib/pull/1234. Questions to the team channel, not by mail.',
};

const NATIVE = new Function('input', CODE) as (input: typeof ARGS) => unknown;

const MB = 1024 * 1024;
const mb = (bytes: number) => round(bytes / MB, 1);

interface Memory {
  rssMb: number;
  heapUsedMb: number;
  /** Memory outside the JS heap: ArrayBuffers, among them the WebAssembly memory QuickJS runs in. */
  externalMb: number;
}

const memory = (): Memory => {
  const m = process.memoryUsage();
  return { rssMb: mb(m.rss), heapUsedMb: mb(m.heapUsed), externalMb: mb(m.external) };
};

/** `global.gc` when node runs with --expose-gc (the bench's npm script passes it). */
const gc = (globalThis as { gc?: () => void }).gc;

/**
 * Full collections when they can be asked for (two, apart: one alone left the heap figure unsteady over a few checks),
 * then a pause for freed pages to go back to the system.
 */
async function settle(): Promise<void> {
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  gc?.();
  await pause(50);
  gc?.();
  await pause(150);
}

export async function runMadeToolsBench(ctx: BenchContext, opts: MadeToolsOptions): Promise<BenchPart> {
  const folder = mkdtempSync(path.join(tmpdir(), 'bench-made-tools-'));
  const registry = () =>
    new MadeTools({
      folder,
      limits: DEFAULT_SANDBOX_LIMITS,
      budget: DEFAULT_TOOL_CODE_BUDGET,
      reserved: () => null,
    });
  process.stderr.write(
    `bench (made tools): ${opts.checks} draft checks, ${opts.calls} calls through MadeTools.run, the bare sandbox and ` +
      `natively, then ${opts.memoryCalls} calls for memory; registry in ${folder}\n`,
  );
  try {
    const made = registry();
    // The WebAssembly module is loaded once per process: here, unless the sandbox part ran before.
    const firstSandboxMs = await timeIt(() => runSandboxed('return 1;', null));

    // The draft check, before the tool exists (once it does, the name is taken and the examples are not run). The
    // heap is read around the checks after the first, which loads what checking needs.
    const checkOnce = async () => {
      ctx.interrupts.check();
      const started = performance.now();
      const { problems } = await made.check(DRAFT);
      const ms = performance.now() - started;
      if (problems.length) throw new Error(`the bench's draft does not pass its check: ${problems.join('; ')}`);
      return ms;
    };
    const checkFirstMs = await checkOnce();
    await settle();
    const heapBeforeChecks = process.memoryUsage().heapUsed;
    const checks: number[] = [];
    for (let i = 0; i < opts.checks; i++) checks.push(await checkOnce());
    await settle();
    const heapPerCheckKb = (process.memoryUsage().heapUsed - heapBeforeChecks) / 1024 / opts.checks;

    const provenance: ToolProvenance = {
      createdBy: `bench-${ctx.runId}`,
      callId: 'call-1',
      createdAt: new Date().toISOString(),
      request: 'make a tool that lists the URLs in a text and counts them per domain',
      model: 'bench:none',
    };
    let version = 0;
    const createMs = await timeIt(async () => {
      const created = await made.create(DRAFT, provenance);
      if (!('version' in created)) throw new Error(`create() refused the draft: ${created.problems.join('; ')}`);
      version = created.version;
    });
    const call = async (tools: MadeTools) => {
      const outcome = await tools.run(DRAFT.name, version, ARGS);
      if (outcome.status !== 'ok') throw new Error(`the made tool failed: ${JSON.stringify(outcome)}`);
    };
    // The first call on the registry that wrote the file (it is loaded), and on another over the same folder: a
    // worker that has not seen the file yet reads and checks it (its examples run twice) before the call.
    const firstCallMs = await timeIt(() => call(made));
    const firstCallFreshMs = await timeIt(() => call(registry()));

    const viaRun: number[] = [];
    const bare: number[] = [];
    const native: number[] = [];
    for (let i = 0; i < opts.calls; i++) {
      ctx.interrupts.check();
      viaRun.push(await timeIt(() => call(made)));
      bare.push(await timeIt(() => runSandboxed(CODE, ARGS)));
      native.push(await timeIt(async () => NATIVE(ARGS)));
    }

    // Many calls to the made tool alone: memory before, along the way, after, and after a full collection.
    await settle();
    const before = memory();
    const every = Math.max(1, Math.floor(opts.memoryCalls / 10));
    const along: number[] = [];
    const memoryCallsStarted = performance.now();
    for (let i = 1; i <= opts.memoryCalls; i++) {
      if (i % 50 === 0) ctx.interrupts.check();
      await call(made);
      if (i % every === 0) along.push(memory().rssMb);
    }
    const memoryCallsMs = performance.now() - memoryCallsStarted;
    const after = memory();
    await settle();
    const afterGc = gc ? memory() : null;

    const c = summarize(checks);
    const r = summarize(viaRun);
    const b = summarize(bare);
    const n = summarize(native);
    const row = (label: string, s: Summary, vs: string) => [
      label,
      formatMs(s.p50),
      formatMs(s.p95),
      formatMs(s.max),
      vs,
    ];
    const memRow = (label: string, m: Memory | null) =>
      m ? [label, m.rssMb.toFixed(1), m.heapUsedMb.toFixed(1), m.externalMb.toFixed(1)] : [label, '', '', ''];
    const text = [
      `Made tools: ${DRAFT.name} (URL extraction, ${DRAFT.examples.length} examples), the registry in a temporary folder. ` +
        `The first sandbox call in this part ${formatMs(firstSandboxMs)} ms (the WebAssembly module loaded, unless the sandbox part ran first).`,
      table([
        ['', 'p50 ms', 'p95 ms', 'max ms', 'vs native p50'],
        ['MadeTools.check(draft), first', formatMs(checkFirstMs), '', '', ''],
        row(`MadeTools.check(draft), ${c.n} more`, c, ''),
        ['MadeTools.create(draft, provenance)', formatMs(createMs), '', '', ''],
        ['MadeTools.run, first call after create()', formatMs(firstCallMs), '', '', ''],
        ['MadeTools.run, first call, registry new to the file', formatMs(firstCallFreshMs), '', '', ''],
        row(`MadeTools.run, ${r.n} warm calls`, r, ratio(r.p50, n.p50)),
        row('runSandboxed alone (same code and input)', b, ratio(b.p50, n.p50)),
        row('native JS function', n, '1×'),
      ]),
      gc
        ? `The JS heap, after a GC, ${heapPerCheckKb >= 0 ? 'grew' : 'shrank'} ${Math.abs(heapPerCheckKb).toFixed(1)} KB per draft check over the ${c.n} after the first.`
        : 'The JS heap was not read around the checks: no GC to run first.',
      `MadeTools.run over the bare sandbox call: +${formatMs(r.p50 - b.p50)} ms at p50 (the folder looked at, ` +
        `the schemas checked).`,
      '',
      `${opts.memoryCalls.toLocaleString('en-US')} calls of the made tool alone (${formatMs(memoryCallsMs / opts.memoryCalls)} ms each on average); ` +
        `this process's memory, in MB:`,
      table([
        ['', 'RSS', 'JS heap used', 'external (incl. WebAssembly)'],
        memRow(`before (${gc ? 'after a GC' : 'no GC'})`, before),
        memRow('after', after),
        ...(gc ? [memRow('after, then a GC', afterGc)] : []),
      ]),
      ...(gc ? [] : ['No GC was run: global.gc is not exposed (node --expose-gc; `npm run bench` passes it).']),
      `RSS every ${every} calls: ${along.map((x) => x.toFixed(1)).join(', ')} MB.`,
    ].join('\n');
    return {
      text,
      json: {
        tool: DRAFT.name,
        examples: DRAFT.examples.length,
        firstSandboxMs: round(firstSandboxMs, 3),
        check: { firstMs: round(checkFirstMs, 3), n: c.n, ...roundSummary(c), samples: checks.map((x) => round(x, 3)) },
        checkHeapGrowthKbEach: gc ? round(heapPerCheckKb, 1) : null,
        createMs: round(createMs, 3),
        run: {
          firstMs: round(firstCallMs, 3),
          firstFreshRegistryMs: round(firstCallFreshMs, 3),
          n: r.n,
          ...roundSummary(r),
          samples: viaRun.map((x) => round(x, 4)),
        },
        sandbox: { n: b.n, ...roundSummary(b), samples: bare.map((x) => round(x, 4)) },
        native: { n: n.n, ...roundSummary(n, 5), samples: native.map((x) => round(x, 5)) },
        runVsNativeP50: round(r.p50 / n.p50, 1),
        runOverSandboxP50Ms: round(r.p50 - b.p50, 3),
        memory: {
          calls: opts.memoryCalls,
          msPerCall: round(memoryCallsMs / opts.memoryCalls, 3),
          gcExposed: !!gc,
          before,
          after,
          afterGc,
          rssAlongMb: along,
          rssEvery: every,
        },
      },
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

// HTTP APIs as tools (issue 24), in three measures. (1) Loading a ~1,000-operation document: ApiCatalog.list on
// GitHub's OpenAPI document (@octokit/openapi's, 1,223 operations, testkit/github-openapi.ts), cold (the file read, parsed, validated and
// dereferenced by swagger-parser, its operations made) and warm (the same text: hashed and the last parse reused), and
// the size of the tool specs it makes. (2) A durable turn calling an HTTP tool (the petstore document's listPets,
// served by a local node:http server answering at once, so no mock server's own latency counts) against the same
// turn shape with a native tool (CurrentPTO on goal_hr_pto, as the `mcp` part's), interleaved on one real worker (http-api-turns.ts).
// (3) The tools a plan request carries for a goal selecting all of GitHub's operations: with SearchTools (past
// TOOL_SEARCH_THRESHOLD: the builtins, SearchTools and the tools a search found) against every spec, computed from the
// specs (no model).
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ApiCatalog, apiToolSpec } from '../endpoints/http/api-catalog';
import { DEFAULT_MAX_DOCUMENT_BYTES, fetchDocument, parseDocument } from '../endpoints/http/api-document';
import { documentApiEntry } from '../endpoints/http/api-entry';
import { operationsOf } from '../endpoints/http/operations';
import { ToolIndex } from '../activities/tool-search';
import { BUILTIN_TOOLS, COMPLETE_GOAL, SEARCH_TOOLS_SPEC } from '../core/builtin-specs';
import type { ToolSpec } from '../core/types';
import { PROJECT_ROOT } from '../worker/worker-settings';
import { GITHUB_OPENAPI_DOCUMENT as GITHUB, githubOpenApiDocument } from '../testkit/github-openapi';
import type { BenchContext, BenchPart } from './context';
import type { HttpApisOptions } from './options';
import { formatMs, p50Of, ratio, round, roundSummary, summarize, table } from './stats';
import { benchTurns, httpTurn, nativeTurn, type TurnResults } from './http-api-turns';

/** SearchTools' queries for the request-bytes measure: what a user of GitHub's API asks for. */
const QUERIES = ['get a repository', 'create an issue', 'list pull requests of a repository'];
/** The default TOOL_SEARCH_THRESHOLD: past this many tools the LLM is offered SearchTools instead. */
const THRESHOLD = 30;
const MATCHES = 5;

export async function runHttpApisBench(ctx: BenchContext, opts: HttpApisOptions): Promise<BenchPart> {
  const load = await benchDocumentLoad(ctx, opts);
  const offer = requestBytes(load.specs);
  const turns = await benchTurns(ctx, opts);
  return report(opts, load, offer, turns);
}

// ---- (1) the document load ----

interface LoadResults {
  operations: number;
  documentBytes: number;
  cold: number[];
  warm: number[];
  /** One cold load in its steps, by hand: read, parse + validate + dereference, operations. */
  phases: { readMs: number; parseMs: number; operationsMs: number };
  specs: ToolSpec[];
  specsMs: number;
  specsBytes: number;
}

async function benchDocumentLoad(ctx: BenchContext, opts: HttpApisOptions): Promise<LoadResults> {
  process.stderr.write(
    `bench (HTTP APIs): GitHub's OpenAPI document, ${opts.coldLoads} cold and ${opts.warmLoads} warm ApiCatalog.list\n`,
  );
  const entry = documentApiEntry.parse({
    openapi: githubOpenApiDocument(),
    baseUrl: 'http://127.0.0.1:9',
    categories: ['dev'],
  });
  const catalog = () => new ApiCatalog({ baseDir: PROJECT_ROOT, maxDocumentBytes: DEFAULT_MAX_DOCUMENT_BYTES });
  const cold: number[] = [];
  const warm: number[] = [];
  let last = catalog();
  let operations = 0;
  for (let i = 0; i < opts.coldLoads; i++) {
    ctx.interrupts.check();
    last = catalog();
    const started = performance.now();
    const listed = await last.list('github', entry);
    cold.push(performance.now() - started);
    if (listed.status.status !== 'ok') throw new Error(`GitHub's document: ${listed.status.error}`);
    operations = listed.calls.length;
  }
  let calls = (await last.list('github', entry)).calls;
  for (let i = 0; i < opts.warmLoads; i++) {
    ctx.interrupts.check();
    const started = performance.now();
    calls = (await last.list('github', entry)).calls;
    warm.push(performance.now() - started);
  }
  if (calls.length !== operations) throw new Error('a warm list did not give the cold list its operations');

  let t = performance.now();
  const { text, source } = await fetchDocument(GITHUB, {
    baseDir: PROJECT_ROOT,
    maxBytes: DEFAULT_MAX_DOCUMENT_BYTES,
    timeoutMs: 15_000,
  });
  const readMs = performance.now() - t;
  t = performance.now();
  const { doc, bytes } = await parseDocument(text, source);
  const parseMs = performance.now() - t;
  t = performance.now();
  operationsOf(doc, entry.includeOperations, entry.excludeOperations);
  const operationsMs = performance.now() - t;

  // The specs as the catalog names them (McpDiscovery.discover): one `taken` set, in the document's order.
  t = performance.now();
  const taken = new Set<string>();
  const specs = calls.map((c) => apiToolSpec('github', entry, c.operation, taken));
  const specsMs = performance.now() - t;
  return {
    operations,
    documentBytes: bytes,
    cold,
    warm,
    phases: { readMs, parseMs, operationsMs },
    specs,
    specsMs,
    specsBytes: jsonBytes(specs),
  };
}

// ---- (3) request bytes, SearchTools vs the full list ----

/** A tool as a Chat Completions request carries it (what the AI SDK sends for each tool). */
const wire = (t: ToolSpec) => ({
  type: 'function',
  function: { name: t.name, description: t.description, parameters: t.inputSchema },
});
const jsonBytes = (x: unknown) => Buffer.byteLength(JSON.stringify(x));

interface OfferResults {
  tools: number;
  indexMs: number;
  rows: { query: string; found: string[]; specBytes: number; wireBytes: number }[];
  full: { specBytes: number; wireBytes: number };
}

/**
 * What ToolOffer.offered gives the LLM for a goal with GitHub's operations (tools: [], so the one builtin CompleteGoal):
 * past the threshold, the builtins, the tools SearchTools found this turn and SearchTools; else every tool.
 */
function requestBytes(specs: ToolSpec[]): OfferResults {
  const completeGoal = BUILTIN_TOOLS[COMPLETE_GOAL]!;
  const all = [...specs, completeGoal];
  if (all.length <= THRESHOLD) throw new Error('the goal would not search: too few tools');
  const t = performance.now();
  const index = new ToolIndex(all);
  const indexMs = performance.now() - t;
  const byName = new Map(all.map((s) => [s.name, s]));
  const rows = QUERIES.map((query) => {
    const found = index.find(query, MATCHES).map((m) => m.name);
    const offered = [completeGoal, ...found.map((n) => byName.get(n)!), SEARCH_TOOLS_SPEC];
    return { query, found, specBytes: jsonBytes(offered), wireBytes: jsonBytes(offered.map(wire)) };
  });
  return { tools: all.length, indexMs, rows, full: { specBytes: jsonBytes(all), wireBytes: jsonBytes(all.map(wire)) } };
}

// ---- (2) the HTTP tool turn against the native one ----

function report(opts: HttpApisOptions, load: LoadResults, offer: OfferResults, turns: TurnResults): BenchPart {
  const MB = 1024 * 1024;
  const kb = (b: number) => `${(b / 1024).toFixed(1)} KB`;
  const cold = summarize(load.cold);
  const warm = summarize(load.warm);
  const perOp = load.specsBytes / load.operations;
  const mean = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;
  const searchWire = mean(offer.rows.map((r) => r.wireBytes));
  const searchSpec = mean(offer.rows.map((r) => r.specBytes));
  const wireRatio = searchWire / offer.full.wireBytes;
  const specRatio = searchSpec / offer.full.specBytes;
  const activities = (key: string) =>
    Object.entries(turns.activityMs[key] ?? {})
      .map(([name, xs]) => `${name} ${formatMs(p50Of(xs))}`)
      .join(', ');
  const gap = turns.http.p50 - turns.native.p50;
  const text = [
    '',
    `HTTP APIs as tools (issue 24). (1) GitHub's OpenAPI document (@octokit/openapi, ${(load.documentBytes / MB).toFixed(1)} MB, ` +
      `${load.operations.toLocaleString('en-US')} operations) through ApiCatalog.list, in this process:`,
    table([
      ['', 'n', 'p50 ms', 'p95 ms', 'max ms'],
      [
        'cold: read, parse, validate, dereference, operations',
        String(cold.n),
        formatMs(cold.p50),
        formatMs(cold.p95),
        formatMs(cold.max),
      ],
      [
        'warm: the same text (read, hashed, last parse reused)',
        String(warm.n),
        formatMs(warm.p50),
        formatMs(warm.p95),
        formatMs(warm.max),
      ],
    ]),
    `  One cold load by hand: read ${formatMs(load.phases.readMs)} ms, parse + validate + dereference (swagger-parser) ` +
      `${formatMs(load.phases.parseMs)} ms, operationsOf ${formatMs(load.phases.operationsMs)} ms.`,
    `  Tool specs (apiToolSpec for every operation, ${formatMs(load.specsMs)} ms): ${(load.specsBytes / MB).toFixed(2)} MB of JSON, ` +
      `${Math.round(perOp).toLocaleString('en-US')} bytes per operation.`,
    '',
    `(2) One turn calling an HTTP tool vs the same turn shape with a native tool, one worker, interleaved, ${opts.warmup} warm-up ` +
      `turns each discarded, a new conversation every ${opts.turnsPerConversation} turns; scripted model (no latency), VALIDATE_PROMPTS=false.`,
    `  HTTP: ${httpTurn.description}`,
    `  Native: ${nativeTurn.description}`,
    table([
      ['turn', 'n', 'p50 ms', 'p95 ms', 'max ms', 'vs native p50'],
      ...(
        [
          ['HTTP tool (pets__listPets, local node:http server)', turns.http],
          ['native tool (CurrentPTO)', turns.native],
        ] as const
      ).map(([name, s]) => [
        name,
        String(s.n),
        formatMs(s.p50),
        formatMs(s.p95),
        formatMs(s.max),
        ratio(s.p50, turns.native.p50),
      ]),
    ]),
    `  HTTP : native ${ratio(turns.http.p50, turns.native.p50)} at p50, ${ratio(turns.http.p95, turns.native.p95)} at p95 ` +
      `(${gap >= 0 ? '+' : '−'}${formatMs(Math.abs(gap))} ms at p50); the pets server answered ${turns.requestsServed} requests for ${turns.turnsSent} HTTP turns.`,
    `  Activity run time p50 (ms, history timestamps): HTTP: ${activities('http')}; native: ${activities('native')}.`,
    '',
    `(3) Tools a plan request carries for a goal selecting all ${offer.tools - 1} GitHub operations (+ CompleteGoal), from the specs: ` +
      `with SearchTools (threshold ${THRESHOLD}: CompleteGoal, the ${MATCHES} tools a search found, SearchTools) vs every tool. ` +
      `Bytes of the tools as a Chat Completions request sends them (the ToolSpec JSON the workflow holds in brackets).`,
    table([
      ['offered', 'tools', 'bytes', 'vs full list'],
      ...offer.rows.map((r) => [
        `SearchTools, found for "${r.query}"`,
        String(r.found.length + 2),
        `${kb(r.wireBytes)} (${kb(r.specBytes)})`,
        `${((100 * r.wireBytes) / offer.full.wireBytes).toFixed(2)}%`,
      ]),
      ['the full list', String(offer.tools), `${kb(offer.full.wireBytes)} (${kb(offer.full.specBytes)})`, '100%'],
    ]),
    `  SearchTools / full list: ${(100 * wireRatio).toFixed(2)}% (1 : ${Math.round(1 / wireRatio)}), mean of the ${offer.rows.length} queries; ` +
      `the search's answer (the matches with their schemas) reaches the model once more as the tool result, not counted here. ` +
      `Index over ${offer.tools} tools built in ${formatMs(offer.indexMs)} ms.`,
    `  Found: ${offer.rows.map((r) => `"${r.query}" → ${r.found.join(', ')}`).join('; ')}.`,
  ].join('\n');
  const json = {
    benchmark: 'HTTP APIs as tools: document load, HTTP vs native tool turn, request bytes with SearchTools',
    options: opts,
    documentLoad: {
      document: path.relative(PROJECT_ROOT, GITHUB),
      documentBytes: load.documentBytes,
      operations: load.operations,
      coldMs: { n: cold.n, ...roundSummary(cold, 1), samples: load.cold.map((x) => round(x, 1)) },
      warmMs: { n: warm.n, ...roundSummary(warm, 2), samples: load.warm.map((x) => round(x, 2)) },
      phasesMs: {
        read: round(load.phases.readMs, 1),
        parseValidateDereference: round(load.phases.parseMs, 1),
        operations: round(load.phases.operationsMs, 1),
      },
      specs: {
        ms: round(load.specsMs, 2),
        bytes: load.specsBytes,
        mb: round(load.specsBytes / MB, 2),
        bytesPerOperation: Math.round(perOp),
      },
    },
    turns: {
      server: 'local node:http, GET /pets answered at once; tools from test/fixtures/openapi/petstore.json',
      http: { n: turns.http.n, ...roundSummary(turns.http, 1), samples: turns.httpSamples.map((x) => round(x, 1)) },
      native: {
        n: turns.native.n,
        ...roundSummary(turns.native, 1),
        samples: turns.nativeSamples.map((x) => round(x, 1)),
      },
      httpVsNativeP50: round(turns.http.p50 / turns.native.p50, 3),
      httpVsNativeP95: round(turns.http.p95 / turns.native.p95, 3),
      httpMinusNativeP50Ms: round(gap, 1),
      requestsServed: turns.requestsServed,
      activityP50Ms: Object.fromEntries(
        Object.entries(turns.activityMs).map(([key, byName]) => [
          key,
          Object.fromEntries(Object.entries(byName).map(([n, xs]) => [n, round(p50Of(xs))])),
        ]),
      ),
      conversations: turns.conversations,
    },
    requestBytes: {
      tools: offer.tools,
      threshold: THRESHOLD,
      matches: MATCHES,
      withSearchTools: offer.rows,
      fullList: offer.full,
      wireRatio: round(wireRatio, 5),
      specRatio: round(specRatio, 5),
      indexMs: round(offer.indexMs, 1),
    },
  };
  return { text, json };
}

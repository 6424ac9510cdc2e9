// The MCP benchmarks, run after the chat-turn scenarios against the demo server fx over stdio: one tool call
// measured several ways (mcp-calls.ts), then discovery over N endpoints (scenarios/mcp-discovery.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { BenchContext, BenchPart } from './context';
import { FX_COMMAND } from './fx';
import { benchMcpCalls, type McpCallResults } from './mcp-calls';
import type { McpOptions } from './options';
import { mcpCallJson, mcpCallLines } from './report/mcp-calls-report';
import { discoveryJson, discoveryLines } from './report/mcp-discovery-report';
import { benchDiscovery, type DiscoverySampler } from './scenarios/mcp-discovery';
import { round, seconds } from './stats';

export async function runMcpBench(ctx: BenchContext, opts: McpOptions): Promise<BenchPart> {
  const started = performance.now();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-mcp-'));
  const cleanups: (() => Promise<void>)[] = [];
  try {
    const calls = await benchMcpCalls(ctx, opts, dir, cleanups);
    const discovery = await benchDiscovery(opts, dir, ctx.interrupts);
    return render(opts, calls, discovery, performance.now() - started);
  } catch (err) {
    // Ctrl-C also reaches the servers, so what fails first is often a call to one of them: name the real cause.
    ctx.interrupts.check();
    throw err;
  } finally {
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

function render(
  opts: McpOptions,
  calls: McpCallResults,
  discovery: { results: DiscoverySampler[]; ms: number },
  measureMs: number,
): BenchPart {
  const text = [
    '',
    `MCP: demo server fx over stdio (${FX_COMMAND}). a, a' and b interleaved round-robin, ` +
      `${opts.warmup} warm-up calls each discarded.`,
    `Turns: scripted model (no latency), VALIDATE_PROMPTS=false, one worker; a new conversation every ${opts.turnsPerConversation} turns, outside the timed window.`,
    '',
    ...mcpCallLines(calls),
    '',
    ...discoveryLines(opts, discovery.results),
    `MCP measuring ${seconds(measureMs)} s (calls ${seconds(calls.ms)} s, discovery ${seconds(discovery.ms)} s).`,
  ].join('\n');
  const json = {
    benchmark: 'MCP tool call and discovery',
    server: { name: 'fx', transport: 'stdio', command: FX_COMMAND },
    options: opts,
    measureMs: round(measureMs, 1),
    call: mcpCallJson(calls),
    discovery: discoveryJson(discovery.results, discovery.ms),
  };
  return { text, figures: json };
}

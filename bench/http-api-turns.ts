// The turn measure of the http-apis part: a durable turn calling an HTTP tool (the petstore document's listPets,
// served by a local node:http server answering at once, so no mock server's own latency counts) against the same
// turn shape with a native tool (CurrentPTO on goal_hr_pto, as the `mcp` part's), interleaved on one real worker.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { ScriptInput } from '../activities/llm/scripted-model';
import { PROJECT_ROOT } from '../worker/worker-settings';
import { agentConversations } from './agent-conversation';
import type { BenchContext } from './context';
import { activityRunTimes } from './history-timeline';
import type { HttpApisOptions } from './options';
import { roundRobin } from './round-robin';
import { nativeToolTurn, type McpTurnSpec } from './scenarios/mcp-tool-turn';
import { mcpScript } from './scripted-answers';
import { SessionRotation } from './session-rotation';
import { summarize, type Summary } from './stats';
import { createBenchAgentWorker, runWorkers } from './workers';

const PETSTORE = path.join(PROJECT_ROOT, 'test', 'fixtures', 'openapi', 'petstore.json');
const HTTP_GOAL = 'goal_bench_pets';
const HTTP_PROMPT = 'bench: list the pets';
const PETS = [
  { id: 1, name: 'Rex' },
  { id: 2, name: 'Tom' },
];
const HTTP_REPLY = `HTTP 200: ${PETS.map((p) => p.name).join(', ')}.`;
/** The goal the HTTP turn runs: a JSON goal selecting the `pets` API, as a user would write it. */
const goal = {
  id: HTTP_GOAL,
  category: 'bench',
  agentName: 'Pets (HTTP API)',
  agentFriendlyDescription: 'Lists the pets through the petstore HTTP API.',
  description: 'List the pets with pets__listPets.',
  starterPrompt: 'Greet the user.',
  tools: [],
  mcp: { servers: ['pets'] },
};

/** The MCP part's script (the greeting, CurrentPTO) and the HTTP tool's call and answer. */
const script: ScriptInput = {
  rules: [
    { user: '^bench: list the pets', reply: { toolCalls: [{ tool: 'pets__listPets', args: { limit: 2 } }] } },
    {
      afterTool: 'pets__listPets',
      outcome: 'ok',
      reply: { text: 'HTTP {{result.status}}: {{result.body[].name}}.' },
    },
    ...mcpScript.rules,
  ],
};

export const httpTurn: McpTurnSpec = {
  key: 'http',
  name: 'HTTP tool turn',
  slug: 'http-turn',
  description: `promptUpdate on ${HTTP_GOAL} (a JSON goal selecting the petstore API); the model calls pets__listPets (GET /pets on a local node:http server), then answers: resolveGoal (catalog cache hit), planTurn, callHttpTool, planTurn.`,
  goalId: HTTP_GOAL,
  prompt: HTTP_PROMPT,
  reply: HTTP_REPLY,
  tool: 'pets__listPets',
};

export const nativeTurn: McpTurnSpec = {
  ...nativeToolTurn,
  key: 'native',
  name: 'native tool turn',
  slug: 'http-native',
  description: `promptUpdate on ${nativeToolTurn.goalId}, same worker: the model calls CurrentPTO, then answers: planTurn, CurrentPTO, planTurn.`,
};

export interface TurnResults {
  http: Summary;
  native: Summary;
  httpSamples: number[];
  nativeSamples: number[];
  requestsServed: number;
  turnsSent: number;
  activityMs: Record<string, Record<string, number[]>>;
  conversations: Record<string, number>;
}

export async function benchTurns(ctx: BenchContext, opts: HttpApisOptions): Promise<TurnResults> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-http-apis-'));
  let served = 0;
  const pets: Server = createServer((req, res) => {
    if (req.method === 'GET' && req.url?.startsWith('/pets')) {
      served++;
      res.setHeader('content-type', 'application/json').end(JSON.stringify(PETS));
    } else res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"not found"}');
  });
  await new Promise<void>((resolve) => pets.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(pets.address() as { port: number }).port}`;
  const registry = path.join(dir, 'mcp_endpoints.json');
  writeFileSync(registry, JSON.stringify({ mcpServers: {}, httpApis: { pets: { openapi: PETSTORE, baseUrl } } }));
  const goalsDir = mkdtempSync(path.join(dir, 'goals-'));
  writeFileSync(path.join(goalsDir, `${HTTP_GOAL}.json`), JSON.stringify(goal, null, 2));
  let stop: (() => Promise<void>) | undefined;
  const samplers: SessionRotation[] = [];
  try {
    const agent = await createBenchAgentWorker(
      ctx,
      'http-apis',
      { AGENT_GOAL: HTTP_GOAL, VALIDATE_PROMPTS: 'false', GOALS_DIR: goalsDir, MCP_ENDPOINTS_FILE: registry },
      script,
    );
    const worker = runWorkers(ctx, [agent.worker], [agent.close], 'the HTTP API bench worker');
    stop = worker.stop;
    const policy = { turnsPerSession: opts.turnsPerConversation, warmupApart: true };
    const queue = agent.worker.options.taskQueue;
    for (const spec of [httpTurn, nativeTurn])
      samplers.push(new SessionRotation(policy, agentConversations(ctx.client, queue, ctx.runId, spec)));
    process.stderr.write(
      `bench (HTTP APIs): ${opts.warmup} warm-up + ${opts.turns} timed turns each, HTTP tool and native tool interleaved\n`,
    );
    const measure = async () => {
      await roundRobin(samplers, {
        warmup: opts.warmup,
        iterations: opts.turns,
        interrupts: ctx.interrupts,
        progress: { unit: 'turns per way', every: 10 },
      });
      for (const s of samplers) await s.finish();
    };
    try {
      await Promise.race([measure(), worker.died]);
    } catch (err) {
      await Promise.all(samplers.map((s) => s.abort()));
      throw err;
    }
    const turnsSent = opts.warmup + opts.turns;
    // Every HTTP turn must have reached the server once: a turn answered another way is no measure of a call.
    if (served !== turnsSent) throw new Error(`the pets server saw ${served} requests for ${turnsSent} HTTP turns`);
    const [h, n] = samplers as [SessionRotation, SessionRotation];
    return {
      http: summarize(h.samples),
      native: summarize(n.samples),
      httpSamples: h.samples,
      nativeSamples: n.samples,
      requestsServed: served,
      turnsSent,
      activityMs: {
        http: activityRunTimes(h.closed.flatMap((c) => c.timedTurns)),
        native: activityRunTimes(n.closed.flatMap((c) => c.timedTurns)),
      },
      conversations: { http: h.opened, native: n.opened },
    };
  } finally {
    await stop?.();
    await new Promise((resolve) => pets.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---- the report ----

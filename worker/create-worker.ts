// The composition root: registries, the model and the activities wired into one Temporal worker.
import type { LogLevel } from '@temporalio/common';
import { Client } from '@temporalio/client';
import { NativeConnection, Runtime, Worker, type WorkerOptions } from '@temporalio/worker';
import { createActivities } from '../activities';
import { openBlobStore, type BlobStore } from '../blobs';
import { describeFile } from '../readers';
import { AttachedImages } from '../activities/llm/attached-images';
import { createToolDispatcher } from '../activities/tool-activities';
import { toolPipeline } from '../activities/tool-pipeline';
import { createModel, type ResolvedModel } from '../activities/llm/model';
import { ScriptedModel } from '../activities/llm/scripted-model';
import { loadPrices } from '../activities/llm/prices';
import { createSampler } from '../activities/llm/sampling';
import type { Limits } from '../activities/limits';
import { SecretScrubber } from '../activities/secrets';
import { loadGoals, type GoalRegistry } from '../goals/goal-registry';
import { MockStore, type ToolServices } from '../tools/define-tool';
import { loadNativeTools, ToolRegistry } from '../tools/tool-registry';
import { MadeTools } from '../tools/made/made-tools';
import { isBuiltinTool } from '../core/builtin-specs';
import { RemoteAgents } from '../endpoints/a2a/remote-agents';
import { McpDiscovery } from '../endpoints/catalog';
import { ApiCatalog } from '../endpoints/http/api-catalog';
import { McpPool } from '../endpoints/mcp/pool';
import { RegistryFile } from '../endpoints/endpoint-registry';
import { OAuthAccess } from '../endpoints/mcp/oauth/oauth-access';
import { openTokenStore } from '../endpoints/mcp/oauth/oauth-settings';
import { createStreamBus, type StreamBus } from '../stream';
import { registerSearchAttributes } from './register-search-attributes';
import { processLogger } from '../runtime/process-logger';
import { recordEndpoints, telemetryOf } from './worker-metrics';
import type { Tracing } from '../runtime/tracing';
import { workerTracing } from './worker-tracing';
import { PROJECT_ROOT, type WorkerSettings } from './worker-settings';
import { cachedWorkflowBundle } from './bundle-cache';
import { deploymentOptions, promoteAtStart } from './versioning';
import { buildIdOf } from './workflow-bundle';
import type { Hook } from '../core/hooks';
import { loadHooks } from '../activities/hooks/load-hooks';
import type { HookRunner } from '../activities/hooks/hook-runner';
import { LazyMemoryStore } from '../memory/open-store';
import { createEmbedder } from '../activities/llm/embedding-model';

export { WORKFLOWS_PATH } from './workflow-code';

export interface AgentWorkerOptions {
  connection: NativeConnection;
  namespace?: string;
  settings: WorkerSettings;
  /** Overrides the model from the settings (tests inject scripted models). */
  model?: ResolvedModel;
  /** What to blank from results, failures and logs; built from the settings when absent. */
  secrets?: SecretScrubber;
  /** A pre-built bundle, so test files bundle workflow code once. */
  workflowBundle?: WorkerOptions['workflowBundle'];
  /** The demo data; by default in memory, dated by `now`. A store given keeps the clock it was made with. */
  store?: MockStore;
  /**
   * The clock tools and the scripted model read (ctx.now(), "next Monday"): the machine's by default. A demo or a
   * test may run a day, or a year, ahead; workflows keep Temporal's time.
   */
  now?: () => Date;
  goals?: GoalRegistry;
  tools?: ToolRegistry;
  /** Where planning publishes the reply as it is written; by default Redis with REDIS_URL, else in memory. */
  streamBus?: StreamBus;
  /** Traces (startTracing): spans for workflows, activities, turns, model and tool calls. */
  tracing?: Tracing;
  /** Where files and big results are kept; by default the store the settings name (BLOB_STORE). */
  blobs?: BlobStore;
  /** The memory store (one per process and folder: npm start hands the API the same one); by default the settings'. */
  memory?: LazyMemoryStore;
  /** Hooks in code (core/hooks.ts: defineHook): they run first, then those HOOKS names from the hooks folder. */
  hooks?: Hook[];
}

export interface AgentWorker {
  worker: Worker;
  model: ResolvedModel;
  goals: GoalRegistry;
  tools: ToolRegistry;
  /** The made tools of TOOLS_DIR, attached to `tools`. */
  made: MadeTools;
  store: MockStore;
  discovery: McpDiscovery;
  secrets: SecretScrubber;
  /** The bus the reply being written goes to: subscribe here to watch it (the one given, or the worker's own). */
  streamBus: StreamBus;
  /** The hooks that run, in order (in code, then HOOKS). */
  hooks: HookRunner;
  /** Its build and whether new conversations start on it, in words for its start line (worker/versioning.ts). */
  build: string;
  /** Closes the MCP sessions and a stream bus the worker created; call after worker.run() has returned. */
  close(): Promise<void>;
}

/** Heartbeats reach the server at least this often, so a cancel (the user stopping a turn) reaches a running model
 * call or tool within about this long, not the SDK's default 0.8 × the 10 s heartbeat timeout. */
const HEARTBEAT_THROTTLE = '2 seconds';

export async function createAgentWorker(opts: AgentWorkerOptions): Promise<AgentWorker> {
  const tools = opts.tools ?? loadNativeTools();
  const made = new MadeTools({
    ...opts.settings.madeTools,
    reserved: (name) =>
      isBuiltinTool(name)
        ? `the name ${name} is a builtin tool's`
        : tools.get(name)
          ? `the name ${name} is taken by a native tool`
          : null,
  });
  await made.refresh();
  tools.attachMade(made);
  // Refuses to start on a code goal naming a tool that does not exist, rather than fail mid-conversation.
  const goals =
    opts.goals ??
    loadGoals({ folder: opts.settings.goalsFolder, toolExists: (name) => tools.spec(name) !== undefined });
  try {
    goals.resolve(opts.settings.defaultGoalId);
  } catch (err) {
    throw new Error(`AGENT_GOAL: ${(err as Error).message}`);
  }
  // A misspelt exemption would silently keep asking: names must be native tools or MCP tools (`server__tool`).
  const unknown = (opts.settings.conversation.approvalExemptTools ?? []).filter(
    (name) => !tools.get(name) && !name.includes('__'),
  );
  if (unknown.length) {
    throw new Error(
      `APPROVAL_EXEMPT_TOOLS: no native tool named ${unknown.join(', ')} (MCP tools are named <server>__<tool>; see agent tools)`,
    );
  }
  // A hook file that cannot be loaded, or a HOOKS name no file has, stops the start: a guardrail must not go missing.
  const hooks = loadHooks(opts.settings.hooks, opts.hooks);
  const now = opts.now ?? (() => new Date());
  const model = paced(opts.model ?? createModel(opts.settings.llm), opts.settings.scriptedStreamDelayMs, opts.now);
  const modelName = `${model.provider}:${model.modelId}`;
  // A fallback that cannot be made (no key for its provider, say) would only be found in an outage.
  for (const fallback of opts.settings.conversation.fallbackModels ?? []) {
    try {
      createModel({ ...opts.settings.llm, model: fallback });
    } catch (err) {
      throw new Error(`LLM_FALLBACK_MODELS: ${fallback}: ${(err as Error).message}`);
    }
  }
  const prices = loadPrices(opts.settings.pricesFile);
  const store = opts.store ?? new MockStore([], now);
  const secrets = opts.secrets ?? secretsOf(opts.settings);
  // OAuth tokens come from the store the API writes when a user connects; each one joins the scrubbed secrets.
  const oauth = new OAuthAccess(
    openTokenStore(opts.settings.dataDir, opts.settings.mcpOAuth.tokenKey),
    opts.settings.mcpOAuth.discoveryOwner,
    (values) => secrets.add(...values),
  );
  const pool = new McpPool({
    oauth,
    baseDir: PROJECT_ROOT,
    maxStdioProcesses: opts.settings.mcpMaxStdioProcesses,
    maxSessionsPerEndpoint: opts.settings.mcpSessionsPerEndpoint,
    onToolsChanged: () => discovery.invalidate(),
  });
  const registry = new RegistryFile(opts.settings.mcpEndpointsFile);
  const remote = new RemoteAgents(registry, process.env, (values) => secrets.add(...values));
  const discovery: McpDiscovery = new McpDiscovery({
    registry,
    pool,
    oauth,
    onSecrets: (values) => secrets.add(...values),
    onDiscovered: recordEndpoints,
    apis: new ApiCatalog({
      baseDir: PROJECT_ROOT,
      maxDocumentBytes: opts.settings.openapiMaxBytes,
      onSecrets: (values) => secrets.add(...values),
    }),
  });
  const searchAttributes = await registerSearchAttributes(opts.connection, opts.namespace ?? 'default', (message) =>
    console.warn(`warning: ${message}`),
  );
  const temporal = new Client({ connection: opts.connection, namespace: opts.namespace ?? 'default' });
  const versioning = opts.settings.versioning && {
    ...opts.settings.versioning,
    buildId: buildIdOf(opts.settings.versioning),
  };
  // Before the first poll: a versioned worker whose build is not current would wait for tasks, silently.
  const build = versioning ? await promoteAtStart(temporal, versioning) : 'unversioned (WORKER_VERSIONING=off)';
  // EMBEDDING_MODEL's provider (a missing key is refused here, before anything is opened).
  const { memory: memorySettings, llm } = opts.settings;
  const embedder = memorySettings.embeddingModel ? createEmbedder(memorySettings.embeddingModel, llm) : undefined;
  // Made last, so a worker that fails to start leaves no Redis connection open.
  const streamBus = opts.streamBus ?? createStreamBus(opts.settings.redisUrl);
  const ownBus = opts.streamBus === undefined;
  const { readers } = opts.settings.files;
  const blobs =
    opts.blobs ?? openBlobStore(opts.settings.files.blobs, (bytes, name) => describeFile(bytes, name, readers));
  const memory = memorySettings.enabled
    ? (opts.memory ?? new LazyMemoryStore(memorySettings, { embedder }))
    : undefined;
  const ownMemory = opts.memory === undefined;
  // A server's store is opened (made, migrated) as the worker starts, so a wrong DATABASE_URL shows in its first lines
  // rather than at a first turn (which would then recall nothing); PGlite's waits for its first use (its cost).
  if (memory && ownMemory && memorySettings.databaseUrl)
    memory.store().catch((err: Error) => console.warn(`warning: ${err.message}`));
  const questions = {
    // A tool call's activity asks its own conversation (an update) when its MCP server (or remote agent) asks the user.
    temporal,
    sampler: createSampler({
      model: model.model,
      modelName,
      prices,
      timeoutMs: (opts.settings.llm.timeoutSeconds ?? 60) * 1000,
    }),
    bus: streamBus,
    scrub: (text: string) => secrets.scrub(text),
  };
  const worker = await Worker.create({
    connection: opts.connection,
    namespace: opts.namespace ?? 'default',
    taskQueue: opts.settings.taskQueue,
    ...deploymentOptions(versioning),
    workflowBundle: opts.workflowBundle ?? (await cachedWorkflowBundle(!!opts.tracing)),
    ...withTracing(secrets, opts.tracing),
    maxHeartbeatThrottleInterval: HEARTBEAT_THROTTLE,
    maxCachedWorkflows: opts.settings.workflowCache.maxCachedWorkflows,
    stickyQueueScheduleToStartTimeout: opts.settings.workflowCache.stickyScheduleToStartSeconds * 1000,
    activities: createActivities({
      settings: { ...opts.settings.conversation, searchAttributes, model: modelName, hooks: hooks.points() },
      goals,
      tools,
      discovery,
      remote,
      goalsFolder: opts.settings.goalsFolder,
      made,
      code: { limits: opts.settings.madeTools.limits, modelName },
      mcp: { discovery, pool, questions },
      // A remote agent's questions reach the user as an MCP server's do.
      a2a: { remote, questions },
      llm: {
        model: model.model,
        provider: model.provider,
        modelName,
        prices,
        config: opts.settings.llm,
        streamBus,
        ...(takesImages(opts.settings.files.modelImages, model.provider) ? { images: new AttachedImages(blobs) } : {}),
        replies: blobs,
        now,
        ...(memory ? { memory: { store: memory, recallTokens: opts.settings.memory.recallTokens } } : {}),
      },
      ...(memory ? { memory } : {}),
      toolContext: { store, now, services: opts.settings.toolServices },
      hooks,
      temporal,
      limits: opts.settings.limits,
      files: {
        store: blobs,
        thresholdChars: opts.settings.files.claimCheckChars,
        maxChars: opts.settings.files.readFileChars,
        readers,
      },
    }),
  }).catch(async (err: unknown) => {
    if (ownBus) await streamBus.close();
    throw err;
  });
  const close = async () => {
    await pool.closeAll();
    if (ownMemory) await memory?.close();
    if (ownBus) await streamBus.close(); // a bus handed in belongs to its giver (the API may still use it)
  };
  return { worker, model, goals, tools, made, store, discovery, secrets, streamBus, hooks, build, close };
}

/** The worker's interceptors (secrets scrubbed from what activities return) and, when tracing, its spans and their
 * exporter sink. The tracing workflow module is built into the bundle (prebuiltWorkflowBundle, cachedWorkflowBundle). */
function withTracing(
  secrets: SecretScrubber,
  tracing: Tracing | undefined,
): Pick<WorkerOptions, 'interceptors' | 'sinks'> {
  const { activity } = secrets.interceptors();
  if (!tracing) return { interceptors: { activity } };
  const traced = workerTracing(tracing);
  return {
    interceptors: {
      activity: [...traced.activityInterceptors, ...activity],
    },
    sinks: traced.sinks,
  };
}

/** SCRIPTED_STREAM_DELAY_MS paces the scripted model, whether the settings made it or a test handed it in. */
/**
 * The scripted model at the worker's stream pace and on its clock when one is given (it reads the machine's
 * otherwise); a real model as it is. Each is a new plain ScriptedModel: a subclass given (a test's recording model)
 * is kept as it is unless a pace or a clock asks for the copy.
 */
function paced(resolved: ResolvedModel, chunkDelayMs: number, now?: () => Date): ResolvedModel {
  if (!(resolved.model instanceof ScriptedModel)) return resolved;
  let model = resolved.model;
  if (now) model = model.withClock(now);
  if (chunkDelayMs > 0) model = model.paced(chunkDelayMs);
  return { ...resolved, model };
}

/**
 * Installs Temporal's Runtime for this process, before anything logs: the logger at the configured level (else
 * `level`), with the worker's secrets blanked, and the metrics exporter. Returns the secrets, for the worker.
 */
export function installRuntime(settings: WorkerSettings, level: LogLevel): SecretScrubber {
  const secrets = secretsOf(settings);
  Runtime.install({
    logger: processLogger(secrets, settings.logLevel ?? level),
    telemetryOptions: telemetryOf(settings.metrics),
  });
  return secrets;
}

/** The secrets a worker is configured with; MCP `${env:…}` values join as endpoints resolve. */
export function secretsOf(settings: WorkerSettings, env: NodeJS.ProcessEnv = process.env): SecretScrubber {
  return new SecretScrubber().add(
    settings.llm.key,
    ...Object.entries(settings.llm.providerEnv ?? {}).flatMap(([name, value]) =>
      name.endsWith('_KEY') ? [value] : [],
    ),
    settings.toolServices.stripe?.apiKey,
    // A hook's own credentials (HOOK_MODERATION_API_KEY, say) are blanked like the model's.
    ...Object.entries(settings.hooks.settings).flatMap(([name, value]) =>
      /_(KEY|TOKEN|SECRET|PASSWORD)$/.test(name) ? [value] : [],
    ),
    env.TEMPORAL_API_KEY,
    redisPassword(settings.redisUrl),
  );
}

function redisPassword(url: string | undefined): string | undefined {
  const password = url ? decodeURIComponent(new URL(url).password) : '';
  return password || undefined;
}

/**
 * A worker serving only the native tools routed to `taskQueue` (tools that declare `taskQueue`), as a team that
 * owns those tools would run it: no workflows, no LLM. `services` come from its settings (WorkerSettings.toolServices).
 */
export async function createToolWorker(opts: {
  connection: NativeConnection;
  namespace?: string;
  taskQueue: string;
  services: ToolServices;
  /** The demo data, in memory by default; the tools' clock is the store's (MockStore.now). */
  store?: MockStore;
  tools?: ToolRegistry;
  secrets?: SecretScrubber;
  limits?: Limits;
  tracing?: Tracing;
  /** The hooks around its tools' calls (beforeToolCall, afterToolCall): the tool worker's own HOOKS. */
  hooks?: HookRunner;
}) {
  // Entry points pass the process's scrubber (secretsOf); alone, the worker knows its own services' keys.
  const secrets = opts.secrets ?? new SecretScrubber().add(opts.services.stripe?.apiKey);
  const all = opts.tools ?? loadNativeTools();
  const mine = new ToolRegistry(all.all().filter((t) => t.taskQueue === opts.taskQueue));
  if (mine.names().length === 0) throw new Error(`No native tool declares taskQueue "${opts.taskQueue}".`);
  const store = opts.store ?? new MockStore();
  const worker = await Worker.create({
    connection: opts.connection,
    namespace: opts.namespace ?? 'default',
    taskQueue: opts.taskQueue,
    ...withTracing(secrets, opts.tracing),
    maxHeartbeatThrottleInterval: HEARTBEAT_THROTTLE,
    activities: {
      default: createToolDispatcher(
        mine,
        { store, now: store.now, services: opts.services },
        toolPipeline({ hooks: opts.hooks, limits: opts.limits }),
      ),
    },
  });
  return { worker, tools: mine, store };
}

/** Whether attached images go to the model as images: MODEL_IMAGES, or by provider (auto). */
function takesImages(setting: 'auto' | 'on' | 'off', provider: string): boolean {
  return setting === 'on' || (setting === 'auto' && /^(openai|anthropic|google)$/.test(provider));
}

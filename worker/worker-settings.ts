// Configuration is read once, here, at the process edge, validated with messages that name the variable.
import path from 'node:path';
import type { LogLevel } from '@temporalio/common';
import { z } from 'zod';
import { DEFAULT_GOALS_FOLDER, PICKER_GOAL_ID } from '../goals/goal-registry';
import { DEFAULT_MAX_DOCUMENT_BYTES } from '../endpoints/http/api-document';
import { PROVIDER_VARIABLES, type LlmConfig } from '../activities/llm/model';
import { DEFAULT_LIMITS, type Limits } from '../activities/limits';
import type { ToolServices } from '../tools/define-tool';
import { DEFAULT_SANDBOX_LIMITS, type SandboxLimits } from '../tools/made/sandbox';
import { DEFAULT_TOOL_CODE_BUDGET, type ToolCodeBudget } from '../tools/made/tool-draft';
import { PROJECT_ROOT } from '../tools/project-root';
import { DEFAULT_TRAIN_SERVICE_PORT } from '../demo/train-service';
import type { Settings } from '../core/types';
import { HOOK_NAME } from '../core/hooks';
import { DEFAULT_HOOKS_FOLDER, type HookSettings } from '../activities/hooks/load-hooks';
import { DEFAULT_DATA_DIR, DEFAULT_TASK_QUEUE } from '../runtime/connection';
import { BLOB_SETTING_NAMES, readBlobSettings, type BlobSettings } from '../blobs';
import { readVersioningSettings, VERSIONING_SETTING_NAMES, type VersioningSettings } from './versioning';
import { READER_SETTING_NAMES, readerLimitsFromEnv, type ReaderLimits } from '../readers';
import { cacheSize, count, dollars, duration, flag } from './setting-kinds';
import type { MetricsSettings } from './worker-metrics';
import { parseTokenKey } from '../endpoints/mcp/oauth/oauth-settings';
import { MEMORY_SETTING_NAMES, readMemorySettings, type MemorySettings } from '../memory/open-store';

/** The project's folder, whether this runs from source or compiled into dist/. */
export { PROJECT_ROOT };
export const DEFAULT_MCP_ENDPOINTS_FILE = path.join(PROJECT_ROOT, 'config', 'mcp_endpoints.json');
/** Where CreateTool keeps made tools (TOOLS_DIR): one file per version, re-read when it changes. */
export const DEFAULT_TOOLS_FOLDER = path.join(PROJECT_ROOT, 'config', 'tools');

export interface WorkflowCacheSettings {
  /** Conversations kept in memory between turns; an evicted one is replayed from its history on its next turn. */
  maxCachedWorkflows: number;
  /** How long a cached conversation's next task waits for this worker (its sticky queue) before any worker may take
   * it: after a worker dies, its conversations are stalled at most this long. */
  stickyScheduleToStartSeconds: number;
}

/**
 * Chosen for memory (measured by the bench's retired `worker` part: bench/README.md). Each cached conversation costs
 * ~330 KB whether it is busy or idle; 1,000 idle ones took the compiled worker from ~200 MB to ~400–500 MB with 250
 * cached, ~530–550 MB with all cached (the SDK's default cache, ≈ 600 per GB of heap, is ~2,300 here). 250 still holds
 * more than 100 conversations active at once without replays; an evicted one replays its history on its next turn
 * (+35–40 ms here). Sticky 5 s, not the SDK's 10 s: the conversations of a worker that died or was redeployed wait at
 * most 5 s for another worker, while a live worker takes its sticky tasks within milliseconds.
 */
export const DEFAULT_WORKFLOW_CACHE: WorkflowCacheSettings = {
  maxCachedWorkflows: 250,
  stickyScheduleToStartSeconds: 5,
};

/**
 * Results longer than this (as JSON) are kept whole in the blob store, the longest that went to history before (a
 * result that fitted then still reaches the model whole; one that was cut is now kept whole instead); one ReadFile gives
 * back at most `readFileChars`.
 */
export const DEFAULT_FILE_SETTINGS = { claimCheckChars: DEFAULT_LIMITS.maxToolResultChars, readFileChars: 12_000 };

const envSchema = z.object({
  TASK_QUEUE: z.string().default(DEFAULT_TASK_QUEUE),
  AGENT_GOAL: z.string().optional(),
  SHOW_CONFIRM: flag('SHOW_CONFIRM', true),
  MULTI_GOAL: flag('MULTI_GOAL', false),
  GOAL_CATEGORIES: z.string().default(''),
  VALIDATE_PROMPTS: flag('VALIDATE_PROMPTS', true),
  MAX_TOOL_STEPS: count('MAX_TOOL_STEPS', 8, 1),
  HISTORY_EVENT_BUDGET: count('HISTORY_EVENT_BUDGET', 4000, 50),
  RECENT_MESSAGES_KEPT: count('RECENT_MESSAGES_KEPT', 12, 1),
  MODEL_TIMEOUT: count('MODEL_TIMEOUT', 60, 5),
  MODEL_GIVE_UP: count('MODEL_GIVE_UP', 120, 10),
  APPROVAL_EXEMPT_TOOLS: z.string().default(''),
  APPROVAL_TIMEOUT: duration('APPROVAL_TIMEOUT', 86_400, 1),
  IDLE_TIMEOUT: duration('IDLE_TIMEOUT', 7 * 86_400, 1),
  TOOL_QUESTION_TIMEOUT: duration('TOOL_QUESTION_TIMEOUT', 600, 1),
  // At least 5 s, and SANDBOX_TIMEOUT_MS + 4 s (below): long calls beat every 2 s, and one late beat must not look
  // like a dead worker.
  HEARTBEAT_TIMEOUT: duration('HEARTBEAT_TIMEOUT', 10, 5),
  TOOL_SEARCH_THRESHOLD: count('TOOL_SEARCH_THRESHOLD', 30, 0),
  DELEGATE_MAX_DEPTH: count('DELEGATE_MAX_DEPTH', 3, 1),
  DELEGATE_MAX_PARALLEL: count('DELEGATE_MAX_PARALLEL', 5, 1),
  DELEGATE_TIMEOUT: duration('DELEGATE_TIMEOUT', 3_600, 1),
  CONVERSATION_TOKEN_BUDGET: count('CONVERSATION_TOKEN_BUDGET', 0, 0),
  CONVERSATION_COST_BUDGET: dollars('CONVERSATION_COST_BUDGET'),
  PRICES_FILE: z.string().optional(),
  METRICS_PORT: count('METRICS_PORT', 0, 0),
  METRICS_HOST: z.string().default('127.0.0.1'),
  MCP_ENDPOINTS_FILE: z.string().optional(),
  MCP_MAX_STDIO_PROCESSES: count('MCP_MAX_STDIO_PROCESSES', 16, 1),
  MCP_SESSIONS_PER_ENDPOINT: count('MCP_SESSIONS_PER_ENDPOINT', 8, 1),
  // The key of the OAuth token store (endpoints/mcp/oauth/), shared with the API: checked here so a bad one stops the start.
  MCP_TOKEN_KEY: z
    .string()
    .optional()
    .superRefine((v, ctx) => {
      if (!v) return;
      try {
        parseTokenKey(v);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
      }
    }),
  MCP_OAUTH_DISCOVERY_OWNER: z.string().optional(),
  OPENAPI_MAX_MB: count('OPENAPI_MAX_MB', DEFAULT_MAX_DOCUMENT_BYTES / 1024 / 1024, 1),
  GOALS_DIR: z.string().optional(),
  TOOLS_DIR: z.string().optional(),
  // Hooks (core/hooks.ts): the folder of hook files, and the ones that run, in order.
  HOOKS_DIR: z.string().optional(),
  HOOKS: z
    .string()
    .default('')
    .refine((v) => list(v).every((name) => HOOK_NAME.test(name)), {
      message: 'HOOKS must be hook names separated by commas, e.g. pii-redaction,topic-guardrail',
    }),
  // A call holds its worker's event loop this long: HEARTBEAT_TIMEOUT must leave room for it (readWorkerSettings).
  SANDBOX_TIMEOUT_MS: count('SANDBOX_TIMEOUT_MS', DEFAULT_SANDBOX_LIMITS.timeoutMs, 10).refine((ms) => ms <= 5_000, {
    message: 'SANDBOX_TIMEOUT_MS must be at most 5000: a call holds its worker that long',
  }),
  SANDBOX_MEMORY_MB: count('SANDBOX_MEMORY_MB', DEFAULT_SANDBOX_LIMITS.memoryBytes / 1024 / 1024, 4),
  TOOL_CODE_MAX_LINES: count('TOOL_CODE_MAX_LINES', DEFAULT_TOOL_CODE_BUDGET.maxLines, 1),
  TOOL_CODE_MAX_BYTES: count('TOOL_CODE_MAX_BYTES', DEFAULT_TOOL_CODE_BUDGET.maxBytes, 64),
  DATA_DIR: z.string().optional(),
  TEMPORAL_PORT: count('TEMPORAL_PORT', 7233, 1),
  TEMPORAL_UI_PORT: count('TEMPORAL_UI_PORT', 8233, 1),
  MAX_REPLY_CHARS: count('MAX_REPLY_CHARS', DEFAULT_LIMITS.maxReplyChars, 1_000),
  MAX_TOOL_RESULT_CHARS: count('MAX_TOOL_RESULT_CHARS', DEFAULT_LIMITS.maxToolResultChars, 1_000),
  CLAIM_CHECK_CHARS: count('CLAIM_CHECK_CHARS', DEFAULT_FILE_SETTINGS.claimCheckChars, 1_000),
  READ_FILE_CHARS: count('READ_FILE_CHARS', DEFAULT_FILE_SETTINGS.readFileChars, 1_000),
  MODEL_IMAGES: z.enum(['auto', 'on', 'off'], { message: 'MODEL_IMAGES must be auto, on or off' }).default('auto'),
  LOG_LEVEL: z
    .enum(['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR'], {
      message: 'LOG_LEVEL must be TRACE, DEBUG, INFO, WARN or ERROR',
    })
    .optional(),
  LLM_MODEL: z.string().optional(),
  LLM_FALLBACK_MODELS: z
    .string()
    .default('')
    .refine((v) => list(v).every((m) => /^[a-z-]+:.+/.test(m)), {
      message: 'LLM_FALLBACK_MODELS must be provider:model names separated by commas, e.g. anthropic:claude-haiku-4-5',
    }),
  LLM_FALLBACK_AFTER: count('LLM_FALLBACK_AFTER', 30, 5),
  LLM_FALLBACK_COOLDOWN: duration('LLM_FALLBACK_COOLDOWN', 600, 0),
  LLM_KEY: z.string().optional(),
  LLM_BASE_URL: z.string().url('LLM_BASE_URL must be a URL, e.g. http://localhost:11434/v1').optional(),
  // The providers' own keys, for a goal's or a fallback's model of a provider other than LLM_MODEL's.
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_BASE_URL: z.string().url('OPENAI_BASE_URL must be a URL, e.g. https://api.openai.com/v1').optional(),
  ANTHROPIC_API_KEY: z.string().optional(),
  ANTHROPIC_BASE_URL: z.string().url('ANTHROPIC_BASE_URL must be a URL, e.g. https://api.anthropic.com/v1').optional(),
  GOOGLE_GENERATIVE_AI_API_KEY: z.string().optional(),
  // Only http(s): the tools fetch these, and a scheme-less "localhost:3802" would otherwise parse as a URL.
  TRAIN_SERVICE_URL: z
    .string()
    .url({ protocol: /^https?$/, message: 'TRAIN_SERVICE_URL must be an http(s) URL, e.g. http://127.0.0.1:3802' })
    .default(`http://127.0.0.1:${DEFAULT_TRAIN_SERVICE_PORT}`),
  // The stream bus between worker and API processes; unset, they share one in memory (one process).
  REDIS_URL: z
    .string()
    .url({
      protocol: /^rediss?$/,
      message: 'REDIS_URL must be a redis:// or rediss:// URL, e.g. redis://localhost:6379',
    })
    .optional(),
  SCRIPTED_STREAM_DELAY_MS: count('SCRIPTED_STREAM_DELAY_MS', 0, 0),
  WORKER_MAX_CACHED_WORKFLOWS: cacheSize('WORKER_MAX_CACHED_WORKFLOWS', DEFAULT_WORKFLOW_CACHE.maxCachedWorkflows),
  WORKER_STICKY_SCHEDULE_TO_START: duration(
    'WORKER_STICKY_SCHEDULE_TO_START',
    DEFAULT_WORKFLOW_CACHE.stickyScheduleToStartSeconds,
    1,
  ),
  STRIPE_API_KEY: z.string().optional(),
  STRIPE_API_BASE: z
    .string()
    .url({
      protocol: /^https?$/,
      message: 'STRIPE_API_BASE must be an http(s) URL, e.g. http://localhost:12111 (stripe-mock)',
    })
    .default('https://api.stripe.com'),
});

/** Every variable a worker reads (beside the Temporal connection's): the compose files must pass them all. */
export const WORKER_SETTING_NAMES: readonly string[] = [
  ...Object.keys(envSchema.shape),
  ...BLOB_SETTING_NAMES,
  ...READER_SETTING_NAMES,
  ...VERSIONING_SETTING_NAMES,
  ...MEMORY_SETTING_NAMES,
];

export interface WorkerSettings {
  taskQueue: string;
  /** The goal new conversations start with when a client names none. */
  defaultGoalId: string;
  /** Behaviour flags of conversations, handed to workflows through the loadSettings activity. */
  conversation: Settings;
  llm: LlmConfig;
  /** The MCP endpoint registry; re-read when it changes, so new servers need no restart. */
  mcpEndpointsFile: string;
  /** Resident stdio MCP server processes at most; the least recently used idle one is closed to make room. */
  mcpMaxStdioProcesses: number;
  /** Calls at once on one MCP endpoint from this worker, each on its own session (MCP_SESSIONS_PER_ENDPOINT). */
  mcpSessionsPerEndpoint: number;
  /** OAuth for remote MCP servers: the token store's key (MCP_TOKEN_KEY; the store is DATA_DIR/mcp-oauth) and the
   * owner whose grant lists an endpoint's tools when connected (MCP_OAUTH_DISCOVERY_OWNER). */
  mcpOAuth: { tokenKey?: string; discoveryOwner?: string };
  /** The largest OpenAPI document an `httpApis` entry may name (OPENAPI_MAX_MB), in bytes. */
  openapiMaxBytes: number;
  /** JSON goals, re-read when the folder changes, so new agents need no restart. */
  goalsFolder: string;
  /** The hooks folder (HOOKS_DIR), the hooks that run (HOOKS) and their settings (HOOK_*). */
  hooks: HookSettings;
  /** Made tools (TOOLS_DIR) and the sandbox they and RunCode run in (SANDBOX_TIMEOUT_MS, SANDBOX_MEMORY_MB), with
   * the size budget of a made tool's code (TOOL_CODE_MAX_LINES, TOOL_CODE_MAX_BYTES). */
  madeTools: { folder: string; limits: SandboxLimits; budget: ToolCodeBudget };
  /** The outside services native tools call, handed to them on the tool context. */
  toolServices: ToolServices;
  /** Where `npm start` and `npm run worker` keep their state: the dev server's database and the demo data. */
  dataDir: string;
  /** Ports `npm start`'s dev server prefers (TEMPORAL_PORT, TEMPORAL_UI_PORT); taken ones fall back to free ports. */
  devServer: { port: number; uiPort: number };
  /** The worker's log level when set (each entry point has its own default). */
  logLevel?: LogLevel;
  /** Caps on replies and tool results, so none can outgrow Temporal's payload limit. */
  limits: Limits;
  /** Owners' memories across conversations (MEMORY, MEMORY_DIR, MEMORY_RECALL_TOKENS, MEMORY_MAX_*). */
  memory: MemorySettings;
  /** Files and results kept outside history: the blob store (BLOB_STORE, …), results over CLAIM_CHECK_CHARS kept
   * there whole, READ_FILE_CHARS, the most one ReadFile gives back, and MODEL_IMAGES: attached images go to the model as
   * images (auto: for the OpenAI, Anthropic and Google providers, whose models read them; others get them in words). */
  files: {
    blobs: BlobSettings;
    /** READER_*: what the readers open (sizes, pages, time, heap, what a ZIP may inflate to). */
    readers: ReaderLimits;
    claimCheckChars: number;
    readFileChars: number;
    modelImages: 'auto' | 'on' | 'off';
  };
  /** Prices per model over config/prices.json (PRICES_FILE); unset: the defaults alone. */
  pricesFile?: string;
  /** Where Prometheus scrapes the worker (METRICS_HOST, METRICS_PORT); unset port: no metrics endpoint. */
  metrics?: MetricsSettings;
  /** Where the reply being written is published (REDIS_URL); unset, the stream bus is in memory. */
  redisUrl?: string;
  /** The scripted model's pause between chunks of a streamed reply, so demos and tests can watch it being written. */
  scriptedStreamDelayMs: number;
  /** The worker's workflow cache (WORKER_MAX_CACHED_WORKFLOWS, WORKER_STICKY_SCHEDULE_TO_START): see DEFAULT_WORKFLOW_CACHE. */
  workflowCache: WorkflowCacheSettings;
  /** Its Worker Deployment and build (WORKER_DEPLOYMENT, WORKER_BUILD_ID, WORKER_PROMOTE); unset with
   * WORKER_VERSIONING=off (worker/versioning.ts). */
  versioning?: VersioningSettings;
}

/** The demo data a worker process keeps in DATA_DIR: one file per task queue it serves tools for. */
export function demoDataFile(settings: WorkerSettings, taskQueue = settings.taskQueue): string {
  return path.join(
    settings.dataDir,
    taskQueue === settings.taskQueue ? 'mock-data.json' : `mock-data-${taskQueue}.json`,
  );
}

/** The conversation budget when either limit is set (a token budget of 0 means none). */
function budgetOf(tokens: number, costUsd: number | undefined): Pick<Settings, 'budget'> {
  if (!tokens && costUsd === undefined) return {};
  return { budget: { ...(tokens ? { tokens } : {}), ...(costUsd !== undefined ? { costUsd } : {}) } };
}

/** A comma-separated list, blanks dropped. */
function list(value: string): string[] {
  return value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
}

export function readWorkerSettings(env: NodeJS.ProcessEnv = process.env): WorkerSettings {
  const blankToUndefined = Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v === '' ? undefined : v]));
  const parsed = envSchema.safeParse(blankToUndefined);
  if (!parsed.success) {
    throw new Error(`Bad configuration: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  }
  const e = parsed.data;
  // A sandboxed call holds its worker's event loop, heartbeats included, for up to SANDBOX_TIMEOUT_MS; beats are 2 s
  // apart. A shorter heartbeat timeout would take a busy worker for a dead one.
  if (e.HEARTBEAT_TIMEOUT * 1000 < e.SANDBOX_TIMEOUT_MS + 4_000) {
    throw new Error(
      `Bad configuration: HEARTBEAT_TIMEOUT (${e.HEARTBEAT_TIMEOUT} s) must be at least SANDBOX_TIMEOUT_MS + 4 s (${Math.ceil((e.SANDBOX_TIMEOUT_MS + 4_000) / 1000)} s): a sandboxed call holds its worker's heartbeats that long`,
    );
  }
  // Multi-goal mode is on when asked for, or when the default goal is the agent picker.
  const multiGoal = e.MULTI_GOAL || !e.AGENT_GOAL || e.AGENT_GOAL === PICKER_GOAL_ID;
  return {
    taskQueue: e.TASK_QUEUE,
    defaultGoalId: e.AGENT_GOAL ?? PICKER_GOAL_ID,
    conversation: {
      memory: readMemorySettings(env, path.resolve(e.DATA_DIR ?? DEFAULT_DATA_DIR)).enabled,
      showConfirm: e.SHOW_CONFIRM,
      multiGoal,
      pickerGoalId: PICKER_GOAL_ID,
      goalCategories: list(e.GOAL_CATEGORIES),
      validatePrompts: e.VALIDATE_PROMPTS,
      maxToolStepsPerTurn: e.MAX_TOOL_STEPS,
      historyEventBudget: e.HISTORY_EVENT_BUDGET,
      recentMessagesKept: e.RECENT_MESSAGES_KEPT,
      modelGiveUpSeconds: e.MODEL_GIVE_UP,
      fallbackModels: list(e.LLM_FALLBACK_MODELS),
      fallbackAfterSeconds: e.LLM_FALLBACK_AFTER,
      fallbackCooldownSeconds: e.LLM_FALLBACK_COOLDOWN,
      approvalExemptTools: list(e.APPROVAL_EXEMPT_TOOLS),
      approvalTimeoutSeconds: e.APPROVAL_TIMEOUT,
      idleTimeoutSeconds: e.IDLE_TIMEOUT,
      toolQuestionTimeoutSeconds: e.TOOL_QUESTION_TIMEOUT,
      heartbeatTimeoutSeconds: e.HEARTBEAT_TIMEOUT,
      toolSearchThreshold: e.TOOL_SEARCH_THRESHOLD,
      delegation: {
        maxDepth: e.DELEGATE_MAX_DEPTH,
        maxParallel: e.DELEGATE_MAX_PARALLEL,
        timeoutSeconds: e.DELEGATE_TIMEOUT,
      },
      ...budgetOf(e.CONVERSATION_TOKEN_BUDGET, e.CONVERSATION_COST_BUDGET),
    },
    llm: {
      model: e.LLM_MODEL,
      llmModel: e.LLM_MODEL,
      key: e.LLM_KEY,
      baseUrl: e.LLM_BASE_URL,
      providerEnv: Object.fromEntries(PROVIDER_VARIABLES.flatMap((name) => (e[name] ? [[name, e[name]]] : []))),
      timeoutSeconds: e.MODEL_TIMEOUT,
    },
    mcpEndpointsFile: path.resolve(e.MCP_ENDPOINTS_FILE ?? DEFAULT_MCP_ENDPOINTS_FILE),
    mcpMaxStdioProcesses: e.MCP_MAX_STDIO_PROCESSES,
    mcpSessionsPerEndpoint: e.MCP_SESSIONS_PER_ENDPOINT,
    mcpOAuth: { tokenKey: e.MCP_TOKEN_KEY, discoveryOwner: e.MCP_OAUTH_DISCOVERY_OWNER },
    openapiMaxBytes: e.OPENAPI_MAX_MB * 1024 * 1024,
    goalsFolder: path.resolve(e.GOALS_DIR ?? DEFAULT_GOALS_FOLDER),
    hooks: {
      folder: e.HOOKS_DIR ? path.resolve(e.HOOKS_DIR) : DEFAULT_HOOKS_FOLDER,
      enabled: list(e.HOOKS),
      settings: Object.fromEntries(Object.entries(env).filter(([name]) => name.startsWith('HOOK_'))),
    },
    madeTools: {
      folder: path.resolve(e.TOOLS_DIR ?? DEFAULT_TOOLS_FOLDER),
      limits: {
        ...DEFAULT_SANDBOX_LIMITS,
        timeoutMs: e.SANDBOX_TIMEOUT_MS,
        memoryBytes: e.SANDBOX_MEMORY_MB * 1024 * 1024,
      },
      budget: { maxLines: e.TOOL_CODE_MAX_LINES, maxBytes: e.TOOL_CODE_MAX_BYTES },
    },
    dataDir: path.resolve(e.DATA_DIR ?? DEFAULT_DATA_DIR),
    devServer: { port: e.TEMPORAL_PORT, uiPort: e.TEMPORAL_UI_PORT },
    logLevel: e.LOG_LEVEL,
    limits: { maxReplyChars: e.MAX_REPLY_CHARS, maxToolResultChars: e.MAX_TOOL_RESULT_CHARS },
    memory: readMemorySettings(env, path.resolve(e.DATA_DIR ?? DEFAULT_DATA_DIR)),
    files: {
      blobs: readBlobSettings(env, path.resolve(e.DATA_DIR ?? DEFAULT_DATA_DIR)),
      readers: readerLimitsFromEnv(env),
      claimCheckChars: e.CLAIM_CHECK_CHARS,
      readFileChars: e.READ_FILE_CHARS,
      modelImages: e.MODEL_IMAGES,
    },
    pricesFile: e.PRICES_FILE ? path.resolve(e.PRICES_FILE) : undefined,
    ...(e.METRICS_PORT ? { metrics: { host: e.METRICS_HOST, port: e.METRICS_PORT } } : {}),
    redisUrl: e.REDIS_URL,
    scriptedStreamDelayMs: e.SCRIPTED_STREAM_DELAY_MS,
    workflowCache: {
      maxCachedWorkflows: e.WORKER_MAX_CACHED_WORKFLOWS,
      stickyScheduleToStartSeconds: e.WORKER_STICKY_SCHEDULE_TO_START,
    },
    versioning: readVersioningSettings(env, e.TASK_QUEUE),
    toolServices: {
      trainServiceUrl: e.TRAIN_SERVICE_URL,
      ...(e.STRIPE_API_KEY ? { stripe: { apiKey: e.STRIPE_API_KEY, apiBase: e.STRIPE_API_BASE } } : {}),
    },
  };
}

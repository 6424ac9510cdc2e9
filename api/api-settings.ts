// The HTTP API's settings, read once at the process edge: where it listens, who may call it, how much it accepts.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ApiKeys } from './auth';
import { RegistryFile } from '../endpoints/endpoint-registry';
import { OAuthEndpoints } from '../endpoints/mcp/oauth/oauth-endpoints';
import { openTokenStore, type OAuthStore } from '../endpoints/mcp/oauth/oauth-settings';
import { DEFAULT_DATA_DIR } from '../runtime/connection';
import { PROJECT_ROOT } from '../tools/project-root';
import { BLOB_SETTING_NAMES, readBlobSettings, type BlobSettings } from '../blobs';

export const DEFAULT_API_PORT = 8080;
/** Every variable the API process reads (beside the Temporal connection's): the compose files must pass them all. */
export const API_SETTING_NAMES: readonly string[] = [
  'API_PORT',
  'API_HOST',
  'API_KEYS',
  'API_ADMIN_KEYS',
  'API_BODY_LIMIT',
  'CORS_ORIGINS',
  'REDIS_URL',
  'TASK_QUEUE',
  'AGENT_GOAL',
  // OAuth for remote MCP servers: the API connects owners, so it shares the worker's registry and token store.
  'MCP_ENDPOINTS_FILE',
  'DATA_DIR',
  'MCP_TOKEN_KEY',
  'API_PUBLIC_URL',
  'TEMPORAL_UI_URL',
  'REGISTRY_MAX_EXECUTIONS',
  // The worker deployment /api/deploy reads and changes: the workers' (worker/versioning.ts).
  'WORKER_DEPLOYMENT',
  // Files: the API stores uploads in the worker's blob store, within the same limits.
  ...BLOB_SETTING_NAMES,
  // Webhook triggers (api/triggers/): their registry file and the largest delivery.
  'TRIGGERS_FILE',
  'TRIGGER_BODY_LIMIT',
];
/** Largest request body accepted (API_BODY_LIMIT): a prompt is at most 16,000 characters, approval args less. */
export const DEFAULT_BODY_LIMIT = 256 * 1024;
/** Largest webhook delivery accepted (TRIGGER_BODY_LIMIT): Stripe's events are a few KB, GitHub's at most 25 MB. */
export const DEFAULT_TRIGGER_BODY_LIMIT = 1024 * 1024;

export interface ApiSettings {
  port: number;
  /** 127.0.0.1 unless API_KEYS is set: without keys nobody but this machine may call the API. */
  host: string;
  keys: ApiKeys | null;
  bodyLimitBytes: number;
  /** Origins allowed to call from a browser on another origin (CORS_ORIGINS); none by default. */
  corsOrigins: string[];
  /** Connecting owners to OAuth endpoints (api/oauth-routes.ts); absent, those routes say it is not set up. */
  oauth?: ApiOAuth;
  /** The Temporal UI's address (TEMPORAL_UI_URL), for the run view's links to each workflow; absent, no links. */
  temporalUiUrl?: string;
  /** The workflow runs the registry pages read at most per answer (REGISTRY_MAX_EXECUTIONS; absent: 2,000). */
  registryMaxExecutions?: number;
  /** The worker deployment /api/deploy reads and changes (WORKER_DEPLOYMENT); absent: the task queue's name. */
  deployment?: string;
  /** Where uploaded files are kept, and their limits (BLOB_STORE, BLOB_DIR, S3_*, FILE_MAX_MB, CONVERSATION_FILES_MAX_MB):
   * the worker's store. api/main.ts opens it for the AgentClient the routes use. */
  files?: BlobSettings;
  /** Webhook triggers: the registry file (TRIGGERS_FILE; config/triggers.json) and the largest delivery. */
  triggers?: { file: string; maxBytes: number };
}

/** What the API needs to connect an owner to an OAuth endpoint: the worker's registry and token store. */
export interface ApiOAuth {
  endpoints: OAuthEndpoints;
  tokens: OAuthStore;
  /** The API's address as browsers reach it (API_PUBLIC_URL), for the callback; absent, the request's own origin. */
  publicUrl?: string;
}

export function readApiSettings(env: NodeJS.ProcessEnv = process.env): ApiSettings {
  const keys = readKeys(env);
  const host = env.API_HOST || '127.0.0.1';
  if (!keys && !isLoopback(host)) {
    throw new Error(
      `API_HOST=${host} needs API_KEYS: without keys the API answers anyone who can reach it, so it binds to 127.0.0.1 only.`,
    );
  }
  return {
    port: whole('API_PORT', env.API_PORT, DEFAULT_API_PORT, 0, 65_535),
    host,
    keys,
    bodyLimitBytes: whole('API_BODY_LIMIT', env.API_BODY_LIMIT, DEFAULT_BODY_LIMIT, 1_024, 64 * 1024 * 1024),
    corsOrigins: (env.CORS_ORIGINS ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    oauth: readOAuth(env),
    ...temporalUi(env),
    ...(env.REGISTRY_MAX_EXECUTIONS
      ? { registryMaxExecutions: whole('REGISTRY_MAX_EXECUTIONS', env.REGISTRY_MAX_EXECUTIONS, 0, 1, 1_000_000) }
      : {}),
    ...(env.WORKER_DEPLOYMENT ? { deployment: env.WORKER_DEPLOYMENT } : {}),
    files: readBlobSettings(env, path.resolve(env.DATA_DIR || DEFAULT_DATA_DIR)),
    triggers: {
      file: path.resolve(env.TRIGGERS_FILE || path.join(PROJECT_ROOT, 'config', 'triggers.json')),
      maxBytes: whole(
        'TRIGGER_BODY_LIMIT',
        env.TRIGGER_BODY_LIMIT,
        DEFAULT_TRIGGER_BODY_LIMIT,
        1_024,
        64 * 1024 * 1024,
      ),
    },
  };
}

/** The same registry file and token store as the worker's (MCP_ENDPOINTS_FILE, DATA_DIR, MCP_TOKEN_KEY). */
function readOAuth(env: NodeJS.ProcessEnv): ApiOAuth {
  const file = path.resolve(env.MCP_ENDPOINTS_FILE || path.join(PROJECT_ROOT, 'config', 'mcp_endpoints.json'));
  const publicUrl = env.API_PUBLIC_URL?.replace(/\/+$/, '') || undefined;
  if (publicUrl && !/^https?:\/\/[^/]+/.test(publicUrl))
    throw new Error(`API_PUBLIC_URL must be an http(s) URL such as https://agents.example.com, got "${publicUrl}"`);
  return {
    endpoints: new OAuthEndpoints(new RegistryFile(file), env),
    tokens: openTokenStore(path.resolve(env.DATA_DIR || DEFAULT_DATA_DIR), env.MCP_TOKEN_KEY),
    ...(publicUrl ? { publicUrl } : {}),
  };
}

/** API_KEYS: `owner=key` entries separated by commas (or lines, when it names a file with `@path`); API_ADMIN_KEYS
 * the same, for keys that see every conversation. */
function readKeys(env: NodeJS.ProcessEnv): ApiKeys | null {
  const users = entries('API_KEYS', env.API_KEYS);
  const admins = entries('API_ADMIN_KEYS', env.API_ADMIN_KEYS);
  if (!users.length && !admins.length) return null;
  return new ApiKeys(users, admins);
}

function entries(name: string, value: string | undefined): string[] {
  if (!value?.trim()) return [];
  let text = value;
  if (value.startsWith('@')) {
    try {
      text = readFileSync(value.slice(1), 'utf8');
    } catch (err) {
      throw new Error(`${name} names the file ${value.slice(1)}, which cannot be read: ${(err as Error).message}`);
    }
  }
  return text
    .split(/[,\n]/)
    .map((s) => s.trim())
    .filter((s) => s && !s.startsWith('#'));
}

function whole(name: string, v: string | undefined, fallback: number, min: number, max: number): number {
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new Error(`${name} must be a whole number from ${min} to ${max}, got "${v}"`);
  return n;
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}

function temporalUi(env: NodeJS.ProcessEnv): { temporalUiUrl?: string } {
  const url = env.TEMPORAL_UI_URL?.replace(/\/+$/, '');
  if (!url) return {};
  if (!/^https?:\/\/[^/]+/.test(url))
    throw new Error(`TEMPORAL_UI_URL must be an http(s) URL such as http://localhost:8233, got "${url}"`);
  return { temporalUiUrl: url };
}

// Tools made on demand (CreateTool): pure functions the model drafts, the worker checks in its sandbox, the user
// approves, and the worker keeps as versioned files (TOOLS_DIR). Data only: the workflow sees names, versions and
// results, never the files.
import type { JsonSchema } from './types';
import type { ToolStats } from './usage-stats';

export interface ToolExample {
  input: Record<string, unknown>;
  output: unknown;
}

/** What the model drafts: a pure function of a JSON object, with examples of what it answers. */
export interface ToolDraft {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  /** The body of `function (input) { … }`; it returns a JSON value. */
  code: string;
  examples: ToolExample[];
  /** The name is a made tool already and this draft is its next version. */
  update?: boolean;
}

export interface ToolProvenance {
  /** The conversation (workflow id) whose CreateTool call wrote it. */
  createdBy: string;
  callId: string;
  createdAt: string;
  /** The user's words that asked for it. */
  request: string;
  /** The model that drafted it (`provider:model`). */
  model?: string;
}

/** One version of a made tool, as its file holds it. */
export interface ToolManifest extends Omit<ToolDraft, 'update'> {
  version: number;
  isPure: true;
  provenance?: ToolProvenance;
}

/** One example as the check ran it: what came back (or why not) against what the draft expects. */
export interface ExampleRun {
  input: Record<string, unknown>;
  expected: unknown;
  output?: unknown;
  error?: string;
  ms: number;
  passed: boolean;
}

/** A draft's check: why it cannot be a tool (none: it can) and how its examples ran. */
export interface ToolDraftCheck {
  problems: string[];
  runs: ExampleRun[];
}

export type ToolCreated = { name: string; version: number; file: string } | { problems: string[] };

/** A made tool's usage: a tool's figures (core/usage-stats.ts), from Temporal's histories, over every version. */
export type MadeToolUsage = Pick<ToolStats, 'calls' | 'errors' | 'p50Ms' | 'p95Ms' | 'lastUsed'>;

/** A made tool's file as `agent tools` and the API list it. */
export interface MadeToolSummary {
  name: string;
  version: number;
  file: string;
  disabled: boolean;
  /** Why the file is not offered (it failed its check); absent when it is fine. */
  problems?: string[];
  description?: string;
  code?: string;
  examples?: ToolExample[];
  provenance?: ToolProvenance;
  /** The newest version of this name that works: the one goals and CreateAgent get. */
  current: boolean;
  usage?: MadeToolUsage;
}

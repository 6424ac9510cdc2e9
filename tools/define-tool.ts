// A native tool is one file: schema, description and handler together. The registry is derived from the files.
import { z } from 'zod';
import type { ApprovalPolicy, ToolSpec } from '../core/types';

/** What a handler may use besides its arguments: injected, so tests can swap the data store and the services. */
export interface ToolContext {
  store: MockStore;
  /** The worker's clock (createAgentWorker's `now`): tools read the time here, never from the machine's calendar. */
  now(): Date;
  /** Where the outside services are: read once from the worker's settings, never from process.env per call. */
  services: ToolServices;
  /** The conversation (workflow id) the call belongs to, for per-conversation state such as a game's progress. */
  conversationId?: string;
  /** Aborted when the user cancels the turn (or the worker shuts down): a slow tool should stop, before it commits. */
  signal?: AbortSignal;
}

/** The outside services native tools call (worker settings TRAIN_SERVICE_URL, STRIPE_API_KEY, STRIPE_API_BASE). */
export interface ToolServices {
  /** The train team's HTTP service (demo/train-service.ts), for SearchTrains and BookTrains. */
  trainServiceUrl: string;
  /** Stripe for CreateInvoice; absent, CreateInvoice records mock invoices in the store instead. */
  stripe?: { apiKey: string; apiBase: string };
}

/**
 * The mutable demo data (PTO ledgers, orders, ...), keyed by dataset name. In memory by default; the dispatcher
 * calls persist() after every successful tool call, so a durable store (mock-data/file-store.ts) can write it out.
 */
export class MockStore extends Map<string, unknown> {
  /** `now`: the clock the demo data is dated by, when first seeded (tools/mock-data/index.ts demoDay). */
  constructor(
    entries: Iterable<readonly [string, unknown]> = [],
    readonly now: () => Date = () => new Date(),
  ) {
    super(entries);
  }

  persist(): void {
    // In memory only: nothing to write.
  }
}

export interface NativeTool<Input extends z.ZodObject = z.ZodObject> {
  name: string;
  description: string;
  category: string;
  input: Input;
  /** Overrides SHOW_CONFIRM for this tool: read-only tools rarely need the user's approval. */
  approval?: ApprovalPolicy;
  /**
   * The tool changes nothing: a retry simply runs it again, and a goal file may let it run without approval.
   * Otherwise (the default) each call runs exactly once: its result is recorded with its effect (effect-ledger.ts).
   */
  readOnly?: boolean;
  /** Runs on another task queue, served by another worker (e.g. a tool owned by another team). */
  taskQueue?: string;
  run(args: z.infer<Input>, ctx: ToolContext): Promise<unknown> | unknown;
}

const TOOL_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

export function defineTool<Input extends z.ZodObject>(tool: NativeTool<Input>): NativeTool<Input> {
  if (!TOOL_NAME.test(tool.name)) {
    throw new Error(`Tool name "${tool.name}" must be letters, digits or _ (at most 64), starting with a letter.`);
  }
  return tool;
}

export function isNativeTool(value: unknown): value is NativeTool {
  const t = value as NativeTool | undefined;
  return !!t && typeof t.name === 'string' && typeof t.run === 'function' && t.input instanceof z.ZodObject;
}

/** The data the workflow and the LLM see: JSON Schema derived from the zod schema. */
export function toToolSpec(tool: NativeTool): ToolSpec {
  const schema = z.toJSONSchema(tool.input, { target: 'draft-07', io: 'input' }) as Record<string, unknown>;
  delete schema.$schema;
  return {
    name: tool.name,
    description: tool.description,
    category: tool.category,
    inputSchema: schema,
    approval: tool.approval ?? 'default',
    readOnly: tool.readOnly ?? false,
    kind: 'native',
    ...(tool.taskQueue ? { taskQueue: tool.taskQueue } : {}),
  };
}

/** A domain answer such as "no such order": reaches the LLM as a tool error at once, without retries. */
export class ToolError extends Error {
  override name = 'ToolError';
}

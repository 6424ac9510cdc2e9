// The agent the files part talks to: a goal whose one tool (Report, defined here) answers ~3 MB of JSON, the
// zero-latency scripted model reading what it needs with ReadFile, and the model's requests counted as they go out.
// Two workers: with the claim check (the blob store in a temp folder, results over CLAIM_CHECK_CHARS kept whole there)
// and without it (CLAIM_CHECK_CHARS above any result: keepOutcome takes the path it takes with no store, the result
// capped at MAX_TOOL_RESULT_CHARS).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { LanguageModelV3, LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { z } from 'zod';
import type { ResolvedModel } from '../activities/llm/model';
import type { ScriptInput } from '../activities/llm/scripted-model';
import { defineTool } from '../tools/define-tool';
import { loadNativeTools, ToolRegistry } from '../tools/tool-registry';
import { scripted } from '../testkit/temporal';
import type { AgentWorker } from '../worker/create-worker';
import type { BenchContext } from './context';
import { TEXT_REPLY } from './scripted-answers';
import { createBenchAgentWorker } from './workers';

export const FILES_GOAL = 'goal_bench_files';
export const REPORT_ROWS = 42_000;
/** The row ReadFile asks for: the last, so a cut result (no claim check) never holds it. */
export const LAST_ROW = REPORT_ROWS - 1;

/** Row `i` of batch `batch`'s report: each batch's answer is new content (stored anew, not found kept already). */
export const reportCode = (batch: number, i: number) => `C${(i * 31 + batch) % 99991}`;

/** A native tool whose answer is ~3 MB of JSON (42,000 rows of ~70 characters). */
const report = defineTool({
  name: 'Report',
  description: 'The whole sales report of a batch.',
  category: 'bench',
  readOnly: true,
  input: z.object({ batch: z.number().int() }),
  run: ({ batch }) => ({
    rows: Array.from({ length: REPORT_ROWS }, (_, i) => ({ n: i, code: reportCode(batch, i), pad: 'y'.repeat(40) })),
  }),
});

export const REPORT_PROMPT = (batch: number) => `bench: report ${batch}`;
export const ATTACHED_PROMPT = 'bench: what is in the file?';
export const READ_PAGE_PROMPT = 'bench: read page 1 of the file';
export const ATTACHED_REPLY = 'It is the quarterly report.';

const common: ScriptInput['rules'] = [
  { user: '^Greet', reply: { text: 'Hi.' } },
  { user: '^bench: report (\\d+)', reply: { toolCalls: [{ tool: 'Report', args: { batch: '{{1:number}}' } }] } },
  // The file is named in the message's words (model-messages.ts, withAttachments): `id <sha256>`.
  {
    user: '^bench: read page 1[\\s\\S]*\\bid ([0-9a-f]{64})',
    reply: { toolCalls: [{ tool: 'ReadFile', args: { id: '{{1}}', pages: { from: 1, to: 1 } } }] },
  },
  { user: '^bench: what is in the file', reply: { text: ATTACHED_REPLY } },
  { user: '^bench: say', reply: { text: TEXT_REPLY } },
  { afterTool: 'ReadFile', outcome: 'ok', reply: { text: 'Found: {{result.text}}' } },
  { afterTool: 'ReadFile', outcome: 'tool_error', reply: { text: 'Could not read: {{outcome.error}}' } },
];

/** With the claim check: the result is a file; the model reads the row it needs by JSONPath. */
const claimScript: ScriptInput = {
  rules: [
    ...common,
    {
      afterTool: 'Report',
      outcome: 'ok',
      reply: { toolCalls: [{ tool: 'ReadFile', args: { id: '{{result.id}}', jsonPath: `$.rows[${LAST_ROW}].code` } }] },
    },
  ],
};

/** Without: the model sees the capped result's first 50,000 characters and says the rest was cut. */
const cutScript: ScriptInput = {
  rules: [...common, { afterTool: 'Report', outcome: 'ok', reply: { text: 'Cut: {{result.note}}' } }],
};

export type FilesMode = 'claim' | 'cut';

/** Bytes of every model request, in order: the prompt and tools the AI SDK hands the model, as JSON. */
export class RequestLog {
  readonly bytes: number[] = [];

  /** The bytes of the requests made since `from` (an earlier `bytes.length`). */
  since(from: number): number {
    return this.bytes.slice(from).reduce((a, b) => a + b, 0);
  }

  counted(resolved: ResolvedModel): ResolvedModel {
    const inner = resolved.model as LanguageModelV3;
    const log = (o: LanguageModelV3CallOptions) =>
      this.bytes.push(Buffer.byteLength(JSON.stringify({ prompt: o.prompt, tools: o.tools ?? [] })));
    const model: LanguageModelV3 = {
      specificationVersion: 'v3',
      provider: inner.provider,
      modelId: inner.modelId,
      supportedUrls: {},
      doGenerate: (o) => (log(o), inner.doGenerate(o)),
      doStream: (o) => (log(o), inner.doStream(o)),
    };
    return { ...resolved, model };
  }
}

/** Where the worker for `use` keeps its files: the API's client opens the same folder, as the API process would. */
export const blobDirOf = (dir: string, use: string) => path.join(dir, `blobs-${use}`);

export interface FilesAgent {
  agent: AgentWorker;
  requests: RequestLog;
  blobDir: string;
}

/** A worker for `mode` on task queue bench-files-<use>-<run id>, its goal and blob store under `dir`. */
export async function createFilesAgent(
  ctx: BenchContext,
  dir: string,
  mode: FilesMode,
  use: string,
): Promise<FilesAgent> {
  const goals = path.join(dir, 'goals');
  mkdirSync(goals, { recursive: true });
  writeFileSync(
    path.join(goals, `${FILES_GOAL}.json`),
    JSON.stringify({
      id: FILES_GOAL,
      category: 'bench',
      agentName: 'Files bench',
      agentFriendlyDescription: 'Reads big results and files.',
      description: 'Reads big results and attached files a part at a time.',
      starterPrompt: 'Greet the user.',
      tools: ['Report'],
    }),
  );
  const blobDir = blobDirOf(dir, use);
  const requests = new RequestLog();
  const env = {
    AGENT_GOAL: FILES_GOAL,
    GOALS_DIR: goals,
    BLOB_DIR: blobDir,
    MCP_ENDPOINTS_FILE: '/nonexistent/mcp_endpoints.json',
    VALIDATE_PROMPTS: 'false',
    SHOW_CONFIRM: 'false',
    ...(mode === 'cut' ? { CLAIM_CHECK_CHARS: String(1_000_000_000) } : {}),
  };
  const model = requests.counted(scripted(mode === 'claim' ? claimScript : cutScript));
  const tools = new ToolRegistry([...loadNativeTools().all(), report]);
  const agent = await createBenchAgentWorker(ctx, `files-${use}`, env, model, { tools });
  return { agent, requests, blobDir };
}

// A real worker process (`npm run worker`'s entry point, worker/main.ts) for fault tests: started with the settings a
// user would give it, killed with SIGKILL like a crashed machine. Unless the test says otherwise, a dead worker is
// noticed sooner than by default, through the settings: its calls move on after 5 s without a heartbeat, not 10
// (HEARTBEAT_TIMEOUT), and a task sent to its sticky queue after 1 s, not 5 (WORKER_STICKY_SCHEDULE_TO_START).
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ScriptInput } from '../activities/llm/scripted-model';
import { startProcess } from './process';

const ROOT = path.join(__dirname, '..');

export interface WorkerProcess {
  child: ChildProcess;
  output(): string;
  /** SIGKILL, then waits for the process to be gone. */
  kill(): Promise<void>;
  /** SIGTERM (a graceful stop), then waits. */
  stop(): Promise<void>;
}

/** `root`: the project to run it from (a copy of this one, testkit/project-copy.ts, for a second build). */
export async function startWorkerProcess(
  env: Record<string, string>,
  readyTimeoutMs = 60_000,
  root = ROOT,
): Promise<WorkerProcess> {
  const worker = await startProcess(process.execPath, ['--require', 'tsx/cjs', 'worker/main.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      LOG_LEVEL: 'WARN',
      HEARTBEAT_TIMEOUT: '5s',
      WORKER_STICKY_SCHEDULE_TO_START: '1s',
      ...env,
    },
    ready: /worker on /,
    what: 'the worker process',
    timeoutMs: readyTimeoutMs,
  });
  return {
    child: worker.child,
    output: worker.output,
    kill: () => worker.end('SIGKILL'),
    stop: () => worker.end('SIGTERM'),
  };
}

/**
 * A fresh folder with a model script and an MCP registry, and the settings of a worker process using them: the
 * general agent on the scripted model, prompts not validated. Add DATA_DIR and the settings under test.
 */
export function scriptedWorkerSettings(
  name: string,
  opts: { address: string; taskQueue: string; script: ScriptInput; mcpServers: Record<string, object> },
): { dir: string; env: Record<string, string> } {
  const dir = mkdtempSync(path.join(tmpdir(), `${name}-`));
  writeFileSync(path.join(dir, 'script.json'), JSON.stringify(opts.script));
  writeFileSync(path.join(dir, 'mcp.json'), JSON.stringify({ mcpServers: opts.mcpServers }));
  const env = {
    TEMPORAL_ADDRESS: opts.address,
    TASK_QUEUE: opts.taskQueue,
    AGENT_GOAL: 'goal_general',
    LLM_MODEL: `scripted:${path.join(dir, 'script.json')}`,
    VALIDATE_PROMPTS: 'false',
    MCP_ENDPOINTS_FILE: path.join(dir, 'mcp.json'),
  };
  return { dir, env };
}

// A real worker process (`npm run worker`'s entry point, worker/main.ts) for fault tests: started with the settings a
// user would give it, killed with SIGKILL like a crashed machine.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ScriptInput } from '../activities/llm/scripted-model';

const ROOT = path.join(__dirname, '..', '..');

export interface WorkerProcess {
  child: ChildProcess;
  output(): string;
  /** SIGKILL, then waits for the process to be gone. */
  kill(): Promise<void>;
  /** SIGTERM (a graceful stop), then waits. */
  stop(): Promise<void>;
}

export async function startWorkerProcess(env: Record<string, string>, readyTimeoutMs = 60_000): Promise<WorkerProcess> {
  const child = spawn(process.execPath, ['--require', 'tsx/cjs', 'worker/main.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'WARN', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let giveUp: NodeJS.Timeout | undefined;
  const ready = await Promise.race([
    new Promise<boolean>((resolve) => {
      const check = () => (output.includes('worker on ') ? resolve(true) : setTimeout(check, 50));
      check();
    }),
    exited.then(() => false),
    new Promise<boolean>((resolve) => (giveUp = setTimeout(() => resolve(false), readyTimeoutMs))),
  ]);
  // A pending timer would keep jest from exiting for up to a minute after the tests.
  clearTimeout(giveUp);
  if (!ready) {
    child.kill('SIGKILL');
    throw new Error(`the worker process did not start:\n${output}`);
  }
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return { child, output: () => output, kill: () => end('SIGKILL'), stop: () => end('SIGTERM') };
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

// Runs the foreign A2A client (testkit/a2a_client.py, the official Python SDK) against one of our agents: one JSON line
// per message sent, read back here.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { findA2aPython, MISSING_A2A_PYTHON } from './test-binaries';

export interface A2aPythonTurn {
  /** The kinds of events the client received for the message: `task`, `statusUpdate`, `artifactUpdate`, `message`. */
  events: string[];
  taskId: string;
  contextId: string;
  state: string;
  /** The status message's text (what the agent asks, or its reply). */
  status: string;
  artifact: string;
}

export async function runA2aPython(
  agentUrl: string,
  key: string,
  binding: 'JSONRPC' | 'HTTP+JSON',
  mode: 'send' | 'stream',
  texts: string[],
): Promise<A2aPythonTurn[]> {
  const sdk = findA2aPython();
  if (!sdk) throw new Error(MISSING_A2A_PYTHON);
  const script = path.join(__dirname, 'a2a_client.py');
  const env = {
    ...process.env,
    ...(sdk.pythonPath ? { PYTHONPATH: sdk.pythonPath } : {}),
    PYTHONDONTWRITEBYTECODE: '1',
  };
  const out = await new Promise<string>((resolve, reject) =>
    execFile(
      'python3',
      [script, agentUrl, key, binding, mode, JSON.stringify(texts)],
      { env, timeout: 120_000 },
      (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout)),
    ),
  );
  return out
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as A2aPythonTurn);
}

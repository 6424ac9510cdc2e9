// Starts the remote A2A agent (testkit/a2a-remote-agent.ts, built with @a2a-js/sdk alone) as a process of its own, for
// the A2A delegate tests, their recorded history and the bench.
import path from 'node:path';
import { startProcess, type StartedProcess } from './process';

/** The remote agent, listening on a port of its own; its base URL is `ready[1]`. */
export function startRemoteAgent(): Promise<StartedProcess> {
  return startProcess(process.execPath, ['--require', 'tsx/cjs', 'testkit/a2a-remote-agent.ts', '0'], {
    cwd: path.join(__dirname, '..'),
    env: { PATH: process.env.PATH ?? '' },
    ready: /a2a agent on (http:\S+)/,
    what: 'the remote A2A agent',
  });
}

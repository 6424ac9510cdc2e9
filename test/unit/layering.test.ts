// The lint rules that keep the folders layered one way (eslint.config.mjs LAYERS) and workflow code deterministic,
// checked against imports planted in each folder: every rule must bite on a bad import and let a good one through,
// so a rule with a hole fails here, not in a production replay. Then the real tree imports down the layers only (its
// circles, file by file and folder by folder: import-circles.test.ts), and the README says the layers as lint has them.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');

// ESLint loads its flat config with a dynamic import, which Jest's module sandbox refuses: lint in a child node,
// with the project's own config, as `npm run lint` does. The same child reads LAYERS from the config.
const LINT = `
  const { ESLint } = require('eslint');
  const cases = JSON.parse(require('fs').readFileSync(0, 'utf8'));
  const eslint = new ESLint();
  Promise.all([
    import(require('path').resolve('eslint.config.mjs')).then((m) => m.LAYERS),
    ...cases.map(async ([file, source]) => {
      const [r] = await eslint.lintText(source + '\\nexport const x = y;\\n', { filePath: require('path').resolve(file) });
      return r.messages.filter((m) => /no-restricted-imports$/.test(m.ruleId ?? '')).length > 0;
    }),
  ]).then((v) => console.log(JSON.stringify(v)));`;

function lint(cases: [string, string][]): { layers: string[][]; verdicts: boolean[] } {
  const out = execFileSync(process.execPath, ['-e', LINT], {
    cwd: ROOT,
    input: JSON.stringify(cases),
    encoding: 'utf8',
  });
  const [layers, ...verdicts] = JSON.parse(out) as [string[][], ...boolean[]];
  return { layers, verdicts };
}

const LAYERS = lint([]).layers;
const up = (file: string) => '../'.repeat(file.split('/').length - 1);
const importOf = (file: string, target: string) => `import { thing as y } from '${up(file)}${target}/thing';`;

/** [file the import is planted in, import, restricted?] */
const CASES: [string, string, boolean][] = [];
const plant = (file: string, target: string, restricted: boolean) =>
  CASES.push([file, importOf(file, target), restricted]);

// Every folder of every layer: the layer above is refused, its own layer and the one below are not.
LAYERS.forEach((names, layer) => {
  for (const name of names) {
    const file = `${name}/nested/probe.ts`;
    for (const above of LAYERS[layer + 1] ?? []) plant(file, above, true);
    for (const top of LAYERS.at(-1)!) if (layer < LAYERS.length - 1) plant(file, top, true);
    for (const below of LAYERS[layer - 1] ?? []) plant(file, below, name === 'workflows' && below !== 'core');
    for (const same of names) plant(file, same, false);
    for (const outside of ['test', 'bench', 'testkit', 'evals']) plant(file, outside, true);
  }
});

// Workflow code runs in Temporal's sandbox: core only, no I/O, no worker-side packages.
for (const source of [
  "import { readFileSync as y } from 'node:fs';",
  "import { readFileSync as y } from 'fs';",
  "import { readFile as y } from 'fs/promises';",
  "import y from 'path';",
  "import { request as y } from 'http';",
  "import { spawn as y } from 'child_process';",
  "import { Worker as y } from '@temporalio/worker';",
  "import { Context as y } from '@temporalio/activity';",
  "import { Client as y } from '@modelcontextprotocol/sdk/client/index.js';",
  "import { generateText as y } from 'ai';",
  "import { createActivities as y } from '../activities';",
  "import { loadGoals as y } from '../goals/goal-registry';",
  "import { callMcpTool as y } from '../endpoints/mcp/call';",
  "import { defineTool as y } from '../tools/define-tool';",
  "import { createStreamBus as y } from '../stream';",
]) {
  CASES.push(['workflows/probe.ts', source, true]);
}
for (const source of [
  "import { condition as y } from '@temporalio/workflow';",
  "import type { Goal as y } from '../core/types';",
  "import { Conversation as y } from './decider/conversation';",
]) {
  CASES.push(['workflows/probe.ts', source, false]);
}

// Core is shared by the sandbox and the browser: pure, and it imports nothing of ours.
CASES.push(['core/probe.ts', "import { readFileSync as y } from 'node:fs';", true]);
CASES.push(['core/probe.ts', "import { AgentGoalWorkflow as y } from '../workflows/agent-goal-workflow';", true]);
CASES.push(['core/probe.ts', "import type { Goal as y } from './types';", false]);

// The browser app shares only core/ with the server side.
for (const folder of LAYERS.flat().filter((f) => f !== 'core')) plant('web/probe.ts', folder, true);
CASES.push(['web/probe.tsx', "import type { AgentSummary as y } from '../workflows/types';", true]);
CASES.push(['web/probe.tsx', "import { formatUsd as y } from '../core/format';", false]);
CASES.push(['web/probe.tsx', "import { Chat as y } from './Chat';", false]);

// test/ and bench/ share testkit/ and never import each other; testkit imports neither.
plant('test/unit/probe.ts', 'bench', true);
plant('bench/probe.ts', 'test', true);
plant('testkit/probe.ts', 'test', true);
plant('testkit/probe.ts', 'bench', true);
plant('test/unit/probe.ts', 'testkit', false);
plant('bench/probe.ts', 'testkit', false);
plant('testkit/probe.ts', 'worker', false);

describe('layering lint rules', () => {
  let verdicts: boolean[] = [];
  beforeAll(() => {
    verdicts = lint(CASES.map(([file, source]) => [file, source])).verdicts;
  });

  it('reads the layers from the lint config, core at the bottom and the worker at the top', () => {
    expect(LAYERS[0]).toEqual(['core']);
    expect(LAYERS.at(-1)).toEqual(['worker']);
    expect(LAYERS.flat()).toEqual(expect.arrayContaining(['workflows', 'activities', 'runtime', 'client', 'api']));
  });

  it.each(CASES.map((c, i) => [...c, i] as const))('%s: %s → restricted %s', (_file, _source, expected, i) => {
    expect(verdicts[i]).toBe(expected);
  });
});

describe('the source tree', () => {
  /** Top-level folder → the top-level folders its files import (relative imports only). */
  function folderGraph(): Map<string, Set<string>> {
    const graph = new Map<string, Set<string>>();
    const product = new Set([...LAYERS.flat(), 'web']);
    const walk = (dir: string): string[] =>
      readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? walk(path.join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [path.join(dir, e.name)] : [],
      );
    for (const folder of product) {
      const edges = new Set<string>();
      for (const file of walk(folder)) {
        for (const [, spec] of readFileSync(path.join(ROOT, file), 'utf8').matchAll(/from '(\.{1,2}\/[^']+)'/g)) {
          const target = path.normalize(path.join(path.dirname(file), spec!)).split(path.sep)[0]!;
          if (target !== folder && product.has(target)) edges.add(target);
        }
      }
      graph.set(folder, edges);
    }
    return graph;
  }

  it('imports down the layers only, as lint says', () => {
    const layerOf = new Map(LAYERS.flatMap((names, i) => names.map((n) => [n, i] as const)));
    const upward = [...folderGraph()].flatMap(([from, targets]) =>
      [...targets]
        .filter((to) => from !== 'web' && (layerOf.get(to) ?? -1) > (layerOf.get(from) ?? Infinity))
        .map((to) => `${from} → ${to}`),
    );
    expect(upward).toEqual([]);
  });

  it('README and docs/architecture.md say the layers as lint has them, and name every folder', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const said = /\*\*Imports go one way\*\*, bottom to top: ([^.]*)\./.exec(readme)?.[1] ?? '';
    const layers = said.split(' < ').map((group) => [...group.matchAll(/`([a-z-]+)`/g)].map((m) => m[1]));
    expect(layers).toEqual(LAYERS);
    const architecture = readFileSync(path.join(ROOT, 'docs', 'architecture.md'), 'utf8');
    const drawn = /Bottom to top:\s*```\s*([^`]*?)\s*```/.exec(architecture)?.[1] ?? '';
    expect(drawn.split(' < ').map((group) => group.split(', '))).toEqual(LAYERS);
    const folders = readme.slice(readme.indexOf('The folders:'), readme.indexOf('**Imports go one way**'));
    const unnamed = [...folderGraph().keys(), 'web', 'test', 'testkit', 'bench', 'evals', 'examples']
      .filter((f) => !folders.includes(`\`${f}/\``) || !architecture.includes(`**\`${f}/\`**`))
      .sort();
    expect(unnamed).toEqual([]);
  });
});

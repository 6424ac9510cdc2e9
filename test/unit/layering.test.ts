// The lint rules that keep workflow code deterministic and the folders layered one way, checked against code
// written into each folder: a rule with a hole (as `../goals` once was) fails here, not in a production replay.
import { execFileSync } from 'node:child_process';
import path from 'node:path';

const WORKFLOW_MAY_NOT = [
  "import { loadGoals as y } from '../goals/goal-registry';",
  "import { PICKER_GOAL_ID as y } from '../goals';",
  "import { createActivities as y } from '../activities';",
  "import { callMcpTool as y } from '../mcp/call';",
  "import { defineTool as y } from '../tools/define-tool';",
  "import { readWorkerSettings as y } from '../worker/worker-settings';",
  "import { AgentClient as y } from '../client/agent-client';",
  "import { readFileSync as y } from 'node:fs';",
  "import { readFileSync as y } from 'fs';",
  "import { readFile as y } from 'fs/promises';",
  "import y from 'path';",
  "import { request as y } from 'http';",
  "import { spawn as y } from 'child_process';",
  "import { Worker as y } from '@temporalio/worker';",
  "import { Client as y } from '@modelcontextprotocol/sdk/client/index.js';",
];
const WORKFLOW_MAY = [
  "import { condition as y } from '@temporalio/workflow';",
  "import type { Goal as y } from './types';",
  "import { z as y } from 'zod';",
];
const LOWER_LAYERS = ['activities', 'goals', 'tools/native/hr', 'mcp', 'stream'];
const up = (folder: string) => '../'.repeat(folder.split('/').length);

/** [file, source, restricted?] */
const CASES: [string, string, boolean][] = [
  ...WORKFLOW_MAY_NOT.map((s): [string, string, boolean] => ['workflows/probe.ts', s, true]),
  ...WORKFLOW_MAY.map((s): [string, string, boolean] => ['workflows/probe.ts', s, false]),
  ['client/probe.ts', "import { readWorkerSettings as y } from '../worker/worker-settings';", true],
  ['client/probe.ts', "import { PICKER_GOAL_ID as y } from '../goals/goal-registry';", false],
  ['worker/probe.ts', "import { AgentClient as y } from '../client/agent-client';", false],
  ['worker/probe.ts', "import { startApi as y } from '../api/server';", false],
  ['api/probe.ts', "import { AgentClient as y } from '../client/agent-client';", false],
  ['api/probe.ts', "import { readWorkerSettings as y } from '../worker/worker-settings';", true],
  ['client/probe.ts', "import { startApi as y } from '../api/server';", true],
  ['stream/probe.ts', "import { startApi as y } from '../api/server';", true],
  ['workflows/probe.ts', "import { createStreamBus as y } from '../stream';", true],
  ...LOWER_LAYERS.flatMap((f): [string, string, boolean][] => [
    [`${f}/probe.ts`, `import { temporalTarget as y } from '${up(f)}runtime/connection';`, true],
    [`${f}/probe.ts`, `import { readWorkerSettings as y } from '${up(f)}worker/settings';`, true],
  ]),
];

// ESLint loads its flat config with a dynamic import, which Jest's module sandbox refuses: lint in a child node,
// with the project's own config, as `npm run lint` does.
const LINT = `
  const { ESLint } = require('eslint');
  const cases = JSON.parse(require('fs').readFileSync(0, 'utf8'));
  const eslint = new ESLint();
  Promise.all(cases.map(async ([file, source]) => {
    const [r] = await eslint.lintText(source + '\\nexport const x = y;\\n', { filePath: require('path').resolve(file) });
    return r.messages.filter((m) => m.ruleId === 'no-restricted-imports').length > 0;
  })).then((v) => console.log(JSON.stringify(v)));`;

describe('layering lint rules', () => {
  let verdicts: boolean[] = [];
  beforeAll(() => {
    const input = JSON.stringify(CASES.map(([file, source]) => [file, source]));
    verdicts = JSON.parse(
      execFileSync(process.execPath, ['-e', LINT], { cwd: path.join(__dirname, '..', '..'), input, encoding: 'utf8' }),
    );
  });

  it.each(CASES.map((c, i) => [...c, i] as const))('%s: %s → restricted %s', (_file, _source, expected, i) => {
    expect(verdicts[i]).toBe(expected);
  });
});

// A scenario file (YAML or JSON, one per scenario, in evals/scenarios/): which agent, what the user says (scripted turns
// or a user played by a model), how the user answers approvals, and what must happen. Parsed with zod so a mistake is
// named by file and field before anything runs.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { load as loadYaml } from 'js-yaml';
import { fillDays } from '../activities/llm/script-template';
import { isoDay } from '../core/days';
import { z } from 'zod';
import { scriptSchema } from '../activities/llm/scripted-model';

export const SCENARIOS_DIR = path.join(__dirname, 'scenarios');

const args = z.record(z.string(), z.unknown());

/** A tool call that must appear (in the conversation or one of its delegates). */
const toolExpectation = z
  .object({
    tool: z.string().min(1),
    /** What the arguments must be: with `match: partial` (the default) these keys at least, nested objects likewise. */
    args: args.optional(),
    match: z.enum(['partial', 'exact']).default('partial'),
    /** How the call must have ended. */
    outcome: z.enum(['ok', 'invalid_input', 'tool_error', 'rejected']).optional(),
  })
  .strict();

/** A look at the demo data after the run: a dataset of the tools' store (tools/mock-data), or items of it. */
const stateCheck = z
  .object({
    dataset: z.string().min(1),
    /** Picks the items of an array dataset that partly match this; without it, the dataset itself is checked. */
    find: args.optional(),
    /** What the picked item (each, if several) or the dataset must partly match. */
    match: z.unknown().optional(),
    /** How many items there must be (those `find` picks, or all); a dataset no tool touched has none. */
    count: z.number().int().min(0).optional(),
  })
  .strict();

const approvalAnswer = z.union([
  z.literal('approve'),
  z.object({ approve: args }).strict(),
  z.object({ reject: z.string().min(1) }).strict(),
]);

/** The user played by a model: who they are and what they want; it says DONE when it has it (or gives up). */
const simulatedUser = z
  .object({
    persona: z.string().min(1),
    goal: z.string().min(1),
    maxTurns: z.number().int().min(1).max(30).default(8),
    /** What the user says offline (the scripted model): the first rule whose regex matches the agent's words. */
    script: z.array(z.object({ when: z.string().min(1), say: z.string().min(1) }).strict()).optional(),
  })
  .strict();

const expectations = z
  .object({
    tools: z.array(toolExpectation).default([]),
    /** Tools that must not run (a call refused by the user did not run). */
    notCalled: z.array(z.string()).default([]),
    /** The approvals the agent must have asked for, in order, and how they were answered; none others. */
    approvals: z
      .array(z.object({ tool: z.string().min(1), decision: z.enum(['approved', 'rejected']) }).strict())
      .optional(),
    state: z.array(stateCheck).default([]),
    /** The agent's last words to the user (case-insensitive). */
    reply: z
      .object({
        contains: z.array(z.string()).default([]),
        notContains: z.array(z.string()).default([]),
        matches: z.string().optional(),
      })
      .strict()
      .optional(),
    /** Whether the conversation must have ended (CompleteGoal) by the last turn. */
    ended: z.boolean().optional(),
    /** At most this many model calls in the whole run (delegates included). */
    maxSteps: z.number().int().min(1).optional(),
  })
  .strict();

export const scenarioSchema = z
  .object({
    name: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]*$/, 'lower-case letters, digits and dashes')
      .optional(),
    description: z.string().optional(),
    /** The goal id the conversation starts with. */
    agent: z.string().min(1),
    /** Worker settings for this scenario (SHOW_CONFIRM, MULTI_GOAL, MCP_ENDPOINTS_FILE…), over the eval defaults. */
    env: z.record(z.string(), z.string()).default({}),
    /** What the user says, one prompt per turn. */
    turns: z.array(z.string().min(1)).min(1).optional(),
    user: simulatedUser.optional(),
    /** How the user answers when the agent asks to run a tool; unlisted tools are approved (a played user decides). */
    approvals: z.record(z.string(), approvalAnswer).default({}),
    /** Rules put before the scripted model's own when it is the model under test, for what its script does not cover. */
    script: scriptSchema.partial().optional(),
    /** The success rate below which the run fails, for real models; the scripted model must always pass. */
    threshold: z.number().min(0).max(1).default(1),
    expect: expectations,
  })
  .strict()
  .refine((s) => !!s.turns !== !!s.user, { message: 'give either turns (scripted) or user (played by a model)' });

export type Scenario = z.infer<typeof scenarioSchema> & { name: string; file: string };
export type ToolExpectation = z.infer<typeof toolExpectation>;
export type StateCheck = z.infer<typeof stateCheck>;
export type ApprovalAnswer = z.infer<typeof approvalAnswer>;
export type SimulatedUser = z.infer<typeof simulatedUser>;
export type Expectations = z.infer<typeof expectations>;

const SCENARIO_FILE = /\.(ya?ml|json)$/;

/** Every scenario file in `dir` (sorted by name); `only`: those whose names contain one of these words. */
export function loadScenarios(dir = SCENARIOS_DIR, only: string[] = [], today?: string): Scenario[] {
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => SCENARIO_FILE.test(f));
  } catch (err) {
    throw new Error(`Cannot read the scenarios folder ${dir}: ${(err as Error).message}`);
  }
  const scenarios = files.sort().map((f) => loadScenario(path.join(dir, f), today));
  const seen = new Map<string, string>();
  for (const s of scenarios) {
    const other = seen.get(s.name);
    if (other) throw new Error(`Two scenarios are named ${s.name}: ${other} and ${s.file}`);
    seen.set(s.name, s.file);
  }
  const picked = only.length ? scenarios.filter((s) => only.some((w) => s.name.includes(w))) : scenarios;
  if (!picked.length)
    throw new Error(
      only.length ? `No scenario in ${dir} is named like ${only.join(', ')}` : `No scenario files in ${dir}`,
    );
  return picked;
}

/**
 * `today`: the day `{{day next Monday}}` and `{{month next month}}` in the scenario's turns, approvals and
 * expectations are read from (the worker's clock, the machine's), so a scenario means the same on any day.
 */
export function loadScenario(file: string, today = isoDay(new Date())): Scenario {
  let raw: unknown;
  try {
    const text = readFileSync(file, 'utf8');
    raw = file.endsWith('.json') ? JSON.parse(text) : loadYaml(text);
  } catch (err) {
    throw new Error(`Scenario ${file}: ${(err as Error).message}`);
  }
  const parsed = scenarioSchema.safeParse(fillDays(raw, today));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`Scenario ${file}: ${issue.path.join('.') || '(top)'}: ${issue.message}`);
  }
  return { ...parsed.data, name: parsed.data.name ?? path.basename(file).replace(SCENARIO_FILE, ''), file };
}

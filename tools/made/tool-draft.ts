// A made tool's draft, checked before anyone is asked to approve it and again before it is written (the user may have
// edited it), and every file in the tools folder the same way before it is offered: the shape, a well-formed name no
// other tool has, a size budget, JSON Schemas that compile, examples that fit them, and the code run on every example
// twice in one sandbox context: it must parse, stay within the limits, answer what the example expects, and answer
// the same the second time (purity).
import Ajv, { type ValidateFunction } from 'ajv';
import { z } from 'zod';
import { shortJson } from '../../core/format';
import type { ExampleRun, ToolDraft, ToolDraftCheck } from '../../core/made-tools';
import { runSeries, type SandboxLimits } from './sandbox';

/** How big a made tool's code may be: a small function, not a program. */
export interface ToolCodeBudget {
  maxBytes: number;
  maxLines: number;
}

export const DEFAULT_TOOL_CODE_BUDGET: ToolCodeBudget = { maxBytes: 8 * 1024, maxLines: 100 };

/** Letters, digits and _ like a native tool's name; no `__` (that is how MCP tools are named). */
const MADE_TOOL_NAME = /^[A-Za-z][A-Za-z0-9_]{2,63}$/;

const jsonObject = z.record(z.string(), z.unknown());

export const toolDraftSchema = z
  .object({
    name: z
      .string()
      .regex(MADE_TOOL_NAME, 'name: 3 to 64 letters, digits or _, starting with a letter')
      .refine((n) => !n.includes('__'), 'name: no "__" (MCP tools are named <server>__<tool>)'),
    description: z.string().trim().min(10, 'description: say what the tool does (10+ characters)').max(1_000),
    inputSchema: jsonObject,
    outputSchema: jsonObject.optional(),
    code: z.string().min(1, 'code: the body of function (input) { … }'),
    examples: z
      .array(z.object({ input: jsonObject, output: z.unknown() }).strict())
      .min(3, 'examples: at least 3 ({input, output}), so the code is seen to work')
      .max(20, 'examples: at most 20'),
    update: z.boolean().optional(),
  })
  .strict();

/** One reason per zod issue, naming where. */
export function draftProblems(error: z.ZodError): string[] {
  return error.issues.map((i) => {
    const where = i.path.join('.');
    return i.message.startsWith(`${String(i.path[0])}:`) || !where ? i.message : `${where}: ${i.message}`;
  });
}

const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });

/**
 * Compiled schemas by their text. Ajv keeps every schema it compiles, keyed by the object, for its life: without this,
 * each draft check (fresh objects every time) kept about 20 KB for good (bench: made-tools). The least recently used
 * go past this many, and Ajv forgets them too.
 */
const compiled = new Map<string, ValidateFunction>();
const MAX_COMPILED = 256;

/** A JSON Schema compiled, or why it cannot be. */
export function compileSchema(schema: unknown, what: string): ValidateFunction | string {
  if (!ajv.validateSchema(schema as object))
    return `${what} is not a valid JSON Schema: ${ajv.errorsText(ajv.errors, { dataVar: what })}`;
  const key = canonical(schema);
  const known = compiled.get(key);
  if (known) {
    compiled.delete(key);
    compiled.set(key, known);
    return known;
  }
  try {
    const validate = ajv.compile(schema as object);
    compiled.set(key, validate);
    if (compiled.size > MAX_COMPILED) {
      const [oldest, old] = compiled.entries().next().value!;
      compiled.delete(oldest);
      ajv.removeSchema(old.schema as object);
    }
    return validate;
  } catch (err) {
    return `${what} is not a valid JSON Schema: ${(err as Error).message}`;
  }
}

export function schemaErrors(validate: ValidateFunction, data: unknown, what: string): string | null {
  return validate(data) ? null : ajv.errorsText(validate.errors, { dataVar: what });
}

/** JSON text with keys in order: two answers are the same when these are. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}

const short = (value: unknown) => shortJson(value, 200);

/**
 * Checks a draft; `nameProblem` says why its name cannot be used (taken by a native, builtin, MCP or made tool) or
 * null. Problems come back as sentences the model can act on; `runs` as the user is shown them.
 */
export async function checkToolDraft(
  draft: unknown,
  opts: { limits: SandboxLimits; budget: ToolCodeBudget; nameProblem: (draft: ToolDraft) => string | null },
): Promise<ToolDraftCheck & { draft?: ToolDraft }> {
  const parsed = toolDraftSchema.safeParse(draft);
  if (!parsed.success) return { problems: draftProblems(parsed.error), runs: [] };
  const tool = parsed.data as ToolDraft;
  const problems: string[] = [];
  const named = opts.nameProblem(tool);
  if (named) problems.push(named);
  const bytes = Buffer.byteLength(tool.code);
  const lines = tool.code.split('\n').length;
  if (bytes > opts.budget.maxBytes || lines > opts.budget.maxLines)
    problems.push(
      `code: ${lines} lines, ${bytes} bytes; the budget is ${opts.budget.maxLines} lines and ${opts.budget.maxBytes} bytes`,
    );
  const input = compileSchema(tool.inputSchema, 'inputSchema');
  if (typeof input === 'string') problems.push(input);
  else if (tool.inputSchema.type !== 'object') problems.push('inputSchema: a tool takes an object (type: "object")');
  const output = tool.outputSchema ? compileSchema(tool.outputSchema, 'outputSchema') : undefined;
  if (typeof output === 'string') problems.push(output);
  tool.examples.forEach((e, i) => {
    const badInput = typeof input === 'function' ? schemaErrors(input, e.input, `examples.${i}.input`) : null;
    if (badInput) problems.push(`example ${i + 1}: its input does not fit inputSchema (${badInput})`);
    const badOutput = typeof output === 'function' ? schemaErrors(output, e.output, `examples.${i}.output`) : null;
    if (badOutput) problems.push(`example ${i + 1}: its output does not fit outputSchema (${badOutput})`);
  });
  if (problems.length) return { problems, runs: [] };
  const runs = await runExamples(tool, opts.limits);
  problems.push(...runProblems(runs.twice));
  return problems.length ? { problems, runs: runs.first } : { draft: tool, problems, runs: runs.first };
}

/**
 * Every example twice in a row, in one context, until one fails: the first runs as the user is shown them, and the
 * second. Examples after a failure are not run (a loop that never ends costs one deadline).
 */
async function runExamples(tool: ToolDraft, limits: SandboxLimits) {
  const inputs = tool.examples.flatMap((e) => [e.input, e.input]);
  const results = await runSeries(tool.code, inputs, limits, true);
  const notRun: SandboxRun = { ok: false, error: 'not run: an earlier example failed', ms: 0 };
  const all = tool.examples.map((e, i) => ({
    example: e,
    first: results[2 * i] ?? notRun,
    second: results[2 * i + 1] ?? notRun,
  }));
  const twice = all.filter((t) => t.first !== notRun);
  const first: ExampleRun[] = all.map(({ example, first: r }) => ({
    input: example.input,
    expected: example.output,
    ...(r.ok ? { output: r.output } : { error: r.error }),
    ms: r.ms,
    passed: r.ok && canonical(r.output) === canonical(example.output),
  }));
  return { first, twice };
}

function runProblems(twice: { example: { output: unknown }; first: SandboxRun; second: SandboxRun }[]): string[] {
  const problems: string[] = [];
  // A code that does not parse fails every example the same way: say it once.
  const syntax = twice.find((t) => !t.first.ok && /^SyntaxError/.test(t.first.error));
  if (syntax && !syntax.first.ok) return [`the code does not parse: ${syntax.first.error}`];
  twice.forEach(({ example, first, second }, i) => {
    const n = `example ${i + 1}`;
    if (!first.ok) problems.push(`${n}: ${first.error}`);
    else if (canonical(first.output) !== canonical(example.output))
      problems.push(`${n}: expected ${short(example.output)}, got ${short(first.output)}`);
    else if (!second.ok || canonical(second.output) !== canonical(first.output))
      problems.push(
        `${n}: a second run gave ${second.ok ? short(second.output) : second.error}, not ${short(first.output)}: a tool must be pure (same input, same answer)`,
      );
  });
  return problems;
}

type SandboxRun = Awaited<ReturnType<typeof runSeries>>[number];

// Model-written code, run in a WebAssembly QuickJS: the context has the language's own built-ins and nothing of the
// host (no require, fetch, process, timers, file system or network), a memory limit, a stack limit, a CPU-time limit
// (an interrupt handler with a deadline per call), an output size limit, and a fresh runtime for every call, so
// nothing one call does is seen by the next. The built-ins and the global object are frozen and the code runs in
// strict mode, so tampering with them (prototype pollution, replacing JSON) fails at once with a clear error instead
// of quietly changing what the code computes. Input and output are JSON. The code's failures come back as results
// with the line and message; only a broken sandbox throws.
import {
  newQuickJSWASMModuleFromVariant,
  shouldInterruptAfterDeadline,
  type QuickJSContext,
  type QuickJSSyncVariant,
  type QuickJSWASMModule,
} from 'quickjs-emscripten-core';

export interface SandboxLimits {
  /** CPU time for one call. */
  timeoutMs: number;
  /** Heap for one call. */
  memoryBytes: number;
  /** Stack for one call: deep recursion stops here, not in the worker. */
  stackBytes: number;
  /** The answer, as JSON text. */
  maxOutputChars: number;
}

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = {
  timeoutMs: 1_000,
  memoryBytes: 32 * 1024 * 1024,
  stackBytes: 256 * 1024,
  maxOutputChars: 100_000,
};

export type SandboxResult =
  { ok: true; output: unknown; ms: number } | { ok: false; error: string; line?: number; ms: number };

let quickjs: Promise<QuickJSWASMModule> | undefined;

/**
 * The release build without asyncify (code here is synchronous and calls nothing outside), loaded with require: the
 * package's own loader uses import(), which a CommonJS host such as Jest's cannot always run.
 */
const VARIANT: QuickJSSyncVariant = {
  type: 'sync',
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  importFFI: async () => require('@jitl/quickjs-wasmfile-release-sync/ffi').QuickJSFFI,
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  importModuleLoader: async () => require('@jitl/quickjs-wasmfile-release-sync/emscripten-module').default,
};

function module(): Promise<QuickJSWASMModule> {
  quickjs ??= newQuickJSWASMModuleFromVariant(VARIANT);
  return quickjs;
}

/**
 * Run once per context, before any code: sources of difference between two runs (Math.random, Date) go, and every
 * built-in, its prototype and the global object are frozen.
 */
const HARDEN = `
delete globalThis.Date;
Math.random = () => { throw new Error('Math.random is not allowed: tools are pure'); };
for (const name of Object.getOwnPropertyNames(globalThis)) {
  const value = globalThis[name];
  if ((typeof value === 'object' && value !== null) || typeof value === 'function') {
    Object.freeze(value);
    if (value.prototype) Object.freeze(value.prototype);
  }
}
Object.freeze(Object.getPrototypeOf(function* () {}).prototype);
Object.freeze(Object.getPrototypeOf([][Symbol.iterator]()));
Object.freeze(globalThis);
`;

/** Lines the wrapper puts before the code, so a reported line is the code's own. */
const PRELUDE_LINES = 1;

/**
 * Runs `code`, the body of a function of `input` that returns a JSON value, in a fresh runtime. A tool made of it is
 * pure: the same input always gives the same answer.
 */
export async function runSandboxed(
  code: string,
  input: unknown,
  limits: SandboxLimits = DEFAULT_SANDBOX_LIMITS,
): Promise<SandboxResult> {
  return (await runSeries(code, [input], limits))[0]!;
}

/**
 * Runs `code` on each input in turn in one runtime and context (each call with its own CPU deadline): what one call
 * leaves behind is there for the next, so a draft's purity check sees hidden state that a fresh context would hide.
 * `stopAtFailure`: the first failure ends the series (an endless loop costs one deadline, not one per input).
 */
export async function runSeries(
  code: string,
  inputs: unknown[],
  limits: SandboxLimits,
  stopAtFailure = false,
): Promise<SandboxResult[]> {
  // Between calls the event loop gets a turn: an activity's heartbeats go out, and a long series is not one block.
  const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));
  const runtime = (await module()).newRuntime();
  try {
    runtime.setMemoryLimit(limits.memoryBytes);
    runtime.setMaxStackSize(limits.stackBytes);
    const context = runtime.newContext();
    try {
      runtime.setInterruptHandler(shouldInterruptAfterDeadline(Date.now() + limits.timeoutMs));
      const hardened = context.evalCode(HARDEN, 'harden.js');
      if (hardened.error) {
        const failure = context.dump(hardened.error);
        hardened.error.dispose();
        throw new Error(`the sandbox could not be prepared: ${JSON.stringify(failure)}`);
      }
      hardened.value.dispose();
      const results: SandboxResult[] = [];
      for (const [i, input] of inputs.entries()) {
        if (i > 0) await breathe();
        runtime.setInterruptHandler(shouldInterruptAfterDeadline(Date.now() + limits.timeoutMs));
        const result = evalOnce(context, code, input, limits);
        results.push(result);
        if (stopAtFailure && !result.ok) break;
      }
      return results;
    } finally {
      context.dispose();
    }
  } finally {
    runtime.dispose();
  }
}

function evalOnce(context: QuickJSContext, code: string, input: unknown, limits: SandboxLimits): SandboxResult {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  const source =
    `(() => { const __out = JSON.stringify((function (input) { 'use strict';\n${code}\n})(JSON.parse(${JSON.stringify(JSON.stringify(input ?? null))})));\n` +
    `if (__out !== undefined && __out.length > ${limits.maxOutputChars}) throw new Error('the answer is ' + __out.length + ' characters of JSON; the limit is ${limits.maxOutputChars}');\n` +
    `return __out; })()`;
  const result = context.evalCode(source, 'tool.js');
  if (result.error) {
    const failure = context.dump(result.error) as { name?: string; message?: string; stack?: string } | string;
    result.error.dispose();
    return { ok: false, ...describe(failure, limits), ms: ms() };
  }
  const type = context.typeof(result.value);
  const text = type === 'string' ? context.getString(result.value) : '';
  result.value.dispose();
  if (type !== 'string') return { ok: false, error: 'the code returned nothing: return a JSON value', ms: ms() };
  return { ok: true, output: JSON.parse(text), ms: ms() };
}

/** Why a name the code used does not exist here, for the ones a model reaches for most. */
const ABSENT: Record<string, string> = {
  Date: 'no clock: tools are pure; pass dates in the input',
  require: 'no modules: the code has the language built-ins only',
  fetch: 'no network',
  process: 'no process: the code runs in a sandbox',
  setTimeout: 'no timers',
  setInterval: 'no timers',
};

/** The code's failure in a sentence, with its line when QuickJS says it. */
function describe(
  failure: { name?: string; message?: string; stack?: string } | string,
  limits: SandboxLimits,
): { error: string; line?: number } {
  if (typeof failure === 'string') return { error: failure };
  const message = failure.message ?? String(failure);
  if (/interrupted/i.test(message))
    return { error: `stopped after ${limits.timeoutMs} ms of CPU time (a loop that never ends?)` };
  if (/out of memory/i.test(message))
    return { error: `stopped at the ${limits.memoryBytes / 1024 / 1024} MB memory limit` };
  if (/stack overflow/i.test(message)) return { error: 'stopped: the stack overflowed (recursion too deep)' };
  const at = /tool\.js:(\d+)/.exec(failure.stack ?? '');
  const line = at ? Number(at[1]) - PRELUDE_LINES : undefined;
  const absent = /'(\w+)' is not defined/.exec(message)?.[1];
  const why = absent && ABSENT[absent] ? ` (${ABSENT[absent]})` : '';
  const frozen = /read-only|not extensible|non-writable|frozen/i.test(message)
    ? ' (built-ins, globals and their prototypes are frozen)'
    : '';
  const error = `${failure.name ?? 'Error'}: ${message}${why}${frozen}`;
  return line !== undefined && line > 0 ? { error: `${error} (line ${line})`, line } : { error };
}

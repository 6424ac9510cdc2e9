// Model-written code, run in a WebAssembly QuickJS: the context has the language's own built-ins and nothing of the
// host (no require, fetch, process, timers, file system or network), a memory limit, a stack limit, a CPU-time limit
// (an interrupt handler with a deadline), an output size limit, and a fresh runtime for every call, so nothing one
// call does is seen by the next. Input and output are JSON. The code's failures come back as results with the line
// and message; only a broken sandbox throws.
import {
  newQuickJSWASMModuleFromVariant,
  shouldInterruptAfterDeadline,
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

/** Lines the wrapper puts before the code, so a reported line is the code's own. */
const PRELUDE_LINES = 1;

/**
 * Runs `code`, the body of a function of `input` that returns a JSON value. Sources of difference between two runs
 * (Math.random, Date) are gone: a tool made of it is pure, and the same input always gives the same answer.
 */
export async function runSandboxed(
  code: string,
  input: unknown,
  limits: SandboxLimits = DEFAULT_SANDBOX_LIMITS,
): Promise<SandboxResult> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  const runtime = (await module()).newRuntime();
  try {
    runtime.setMemoryLimit(limits.memoryBytes);
    runtime.setMaxStackSize(limits.stackBytes);
    runtime.setInterruptHandler(shouldInterruptAfterDeadline(Date.now() + limits.timeoutMs));
    const context = runtime.newContext();
    try {
      const source =
        `delete globalThis.Date; Math.random = () => { throw new Error('Math.random is not allowed: tools are pure'); }; ` +
        `const __out = JSON.stringify((function (input) {\n${code}\n})(JSON.parse(${JSON.stringify(JSON.stringify(input ?? null))})));\n` +
        `if (__out !== undefined && __out.length > ${limits.maxOutputChars}) throw new Error('the answer is ' + __out.length + ' characters of JSON; the limit is ${limits.maxOutputChars}');\n` +
        `__out`;
      const result = context.evalCode(source, 'tool.js');
      if (result.error) {
        const failure = context.dump(result.error) as { name?: string; message?: string; stack?: string } | string;
        result.error.dispose();
        return { ok: false, ...describe(failure, limits), ms: ms() };
      }
      const text = context.getString(result.value);
      const type = context.typeof(result.value);
      result.value.dispose();
      if (type === 'undefined') return { ok: false, error: 'the code returned nothing: return a JSON value', ms: ms() };
      return { ok: true, output: JSON.parse(text), ms: ms() };
    } finally {
      context.dispose();
    }
  } finally {
    runtime.dispose();
  }
}

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
  const error = `${failure.name ?? 'Error'}: ${message}`;
  return line !== undefined && line > 0 ? { error: `${error} (line ${line})`, line } : { error };
}

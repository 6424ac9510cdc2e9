// Ctrl-C or TERM: the SDK's runtime already shuts the workers down on these signals. We only remember which one
// came, so the run stops at the next sample, still tears everything down, and names the cause instead of its fallout.
export interface Interrupts {
  /** The signal that arrived, if one did. */
  readonly cause: string | undefined;
  /** Throws once a signal has arrived: called between samples. */
  check(): void;
}

export function watchInterrupts(): Interrupts {
  let cause: string | undefined;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => (cause ??= signal));
  return {
    get cause() {
      return cause;
    },
    check() {
      if (cause) throw new Error(`interrupted (${cause})`);
    },
  };
}

/** Runs `each` over `items`, at most `concurrency` at once, started in order; a signal stops it before the next. */
export async function inParallel<T>(
  items: T[],
  concurrency: number,
  each: (item: T) => Promise<unknown>,
  interrupts?: Interrupts,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        interrupts?.check();
        await each(items[next++]!);
      }
    }),
  );
}

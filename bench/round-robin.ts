// The measuring loop every interleaved benchmark shares: round-robin over its scenarios, one sample each per
// iteration, the starting scenario rotated each time, so drift (server state, GC, thermal) hits them all alike.
import type { Interrupts } from './interrupts';

/** One timed operation per call. */
export interface Sampler {
  /** The timed samples, in ms; the loop appends to it. */
  readonly samples: number[];
  /** Does the operation once and returns how long its timed part took; `timed` is false during warm-up. */
  sample(timed: boolean): Promise<number>;
}

export interface RoundRobinOptions {
  warmup: number;
  iterations: number;
  interrupts: Interrupts;
  /** Progress to stderr: "  <i>/<total> <unit> (warm-up|timed)" every `every` iterations and at the end. */
  progress?: { unit: string; every: number };
}

export async function roundRobin(samplers: Sampler[], opts: RoundRobinOptions): Promise<void> {
  const total = opts.warmup + opts.iterations;
  for (let i = 0; i < total; i++) {
    const timed = i >= opts.warmup;
    for (let k = 0; k < samplers.length; k++) {
      opts.interrupts.check();
      const s = samplers[(i + k) % samplers.length]!;
      const elapsed = await s.sample(timed);
      if (timed) s.samples.push(elapsed);
    }
    const p = opts.progress;
    if (p && ((i + 1) % p.every === 0 || i + 1 === total)) {
      process.stderr.write(`  ${i + 1}/${total} ${p.unit} (${timed ? 'timed' : 'warm-up'})\n`);
    }
  }
}

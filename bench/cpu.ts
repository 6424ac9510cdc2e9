// CPU time of the processes a benchmark runs on, read before and after a phase: the dev server's, each worker
// process's, and this one's (the load: clients). From /proc/<pid>/stat (all threads of the process), Linux only;
// NaN elsewhere or once a process is gone.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** user + system CPU time of process `pid`, in ms. */
export function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 of stat (utime, stime); `fields` starts at field 3.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return NaN;
  }
}

/** Named CPU clocks (ms), read at start() and at stop(); stop() returns each one's CPU ms in between. */
export class CpuMeter {
  private readonly before = new Map<string, number>();

  constructor(private readonly clocks: Record<string, () => number>) {}

  start(): this {
    for (const [name, read] of Object.entries(this.clocks)) this.before.set(name, read());
    return this;
  }

  stop(): Record<string, number> {
    return Object.fromEntries(
      Object.entries(this.clocks).map(([name, read]) => [name, read() - this.before.get(name)!]),
    );
  }
}

// What Linux's /proc says about the processes a benchmark runs: CPU time (all threads), resident set size, and a
// process's tree of descendants. NaN elsewhere, or once a process is gone.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** user + system CPU time of process `pid`, in ms. */
/** This process's CPU time (user + system), ms. */
export function ownCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

export function processCpuMs(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 of stat (utime, stime); `fields` starts at field 3.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return NaN;
  }
}

/** The resident set size of process `pid`, in bytes. */
export function rssBytes(pid: number | undefined): number {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) * 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** `pid` and all its descendants, from /proc/<pid>/stat's parent pids. */
export function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return [pid];
  }
  for (const e of entries) {
    try {
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(e)]);
    } catch {
      // gone meanwhile
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]!) ?? []));
  return tree;
}

/** The CPU ms `pid` and its descendants have used (a process gone meanwhile counts nothing). */
export function treeCpuMs(pid: number): number {
  return processTree(pid)
    .map(processCpuMs)
    .filter(Number.isFinite)
    .reduce((a, b) => a + b, 0);
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
